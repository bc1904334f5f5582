/// Type-erased base of ``Backlinks`` so an entity table can hold the backlinks of many relations.
@usableFromInline
class AnyBacklinks: @unchecked Sendable {
    @usableFromInline init() {}
    @usableFromInline func cloneBacklinks() -> AnyBacklinks { fatalError("abstract") }
    /// Points the index's faulter, if any, at `base` (see `AnyEntityTable.repointFaulters`).
    func repointFaulter(to base: ContextBase) {}
    /// Removes the links every source holds to `target` (used when the target is erased).
    @usableFromInline func unlinkSources<TargetID>(of target: TargetID, in context: inout Context) {}
    /// Checks that every backlink has its forward link.
    func checkInvariants(in context: Context) throws {}
}

/// The sources of a one-way relation `Source.key → Target`, indexed by target: the other side of
/// a one-way link, so that erasing a target removes the links that point to it in O(sources).
///
/// Unordered (see ``BacklinkSources``): adding a new source is an append while a target has few,
/// and removing one stays O(1) past them.
@usableFromInline
final class Backlinks<Source: EntityModelProtocol, Target: EntityModelProtocol>: AnyBacklinks, @unchecked Sendable {
    @usableFromInline let descriptor: RelationDescriptor<Source, Target>
    @usableFromInline @exclusivity(unchecked) var sources: [Target.ID: BacklinkSources<Source.ID>]
    /// In a context over storage: reads the sources of targets the index does not hold.
    @usableFromInline @exclusivity(unchecked) var faulter: BacklinkFaulter<Source.ID, Target.ID>?
    /// The targets whose sources the index holds whole.
    @usableFromInline @exclusivity(unchecked) var loaded: Set<Target.ID> = []
    /// In a context over storage: sources added to and removed from targets not read yet, applied
    /// to what storage holds when the target is read (a write links a source without reading
    /// every other source of its target).
    @usableFromInline @exclusivity(unchecked) var pending: [Target.ID: (added: Set<Source.ID>, removed: Set<Source.ID>)] = [:]
    /// In a Store write's context over storage: sources whose link was set without reading its
    /// stored target (see `Context.linkWithoutReading`), dropped from whatever target storage
    /// says they link to (``pending`` adds them back where they link now).
    @usableFromInline @exclusivity(unchecked) var departed: Set<Source.ID> = []

    @usableFromInline var key: _AnyRelationKey { descriptor.key }

    /// Makes sure the index holds the sources of `target` (read from the base the first time).
    @inlinable
    func ensure(_ target: Target.ID) {
        if faulter != nil { fault(target) }
    }

    @inlinable @inline(never)
    func fault(_ target: Target.ID) {
        guard let faulter, !loaded.contains(target), let found = faulter.read([target]) else { return }
        var held = found[target] ?? []
        if !departed.isEmpty { held.subtract(departed) }
        if let changes = pending.removeValue(forKey: target) {
            held.subtract(changes.removed)
            held.formUnion(changes.added)
        }
        sources[target] = held.isEmpty ? nil : BacklinkSources(held)
        loaded.insert(target)
    }

    /// The sources that link to `target`.
    @inlinable
    func sources(of target: Target.ID) -> BacklinkSources<Source.ID>? {
        ensure(target)
        return sources[target]
    }

    @inlinable
    init(descriptor: RelationDescriptor<Source, Target>, sources: [Target.ID: BacklinkSources<Source.ID>] = [:]) {
        self.descriptor = descriptor
        self.sources = sources
    }

    @inlinable
    func insert(_ source: Source.ID, for target: Target.ID) {
        if faulter != nil, !loaded.contains(target) { return note(source, for: target, added: true) }
        sources[target, default: BacklinkSources()].insert(source)
    }

    /// Adds `source`, whose link to `target` was just made (so it is not among its sources yet).
    @inlinable
    func insertNew(_ source: Source.ID, for target: Target.ID) {
        if faulter != nil, !loaded.contains(target) { return note(source, for: target, added: true) }
        sources[target, default: BacklinkSources()].appendNew(source)
    }

    @inlinable
    func remove(_ source: Source.ID, for target: Target.ID) {
        if faulter != nil, !loaded.contains(target) { return note(source, for: target, added: false) }
        guard sources[target]?.remove(source) == true else { return }
        if sources[target]!.isEmpty { sources[target] = nil }
    }

    /// Notes a source added to or removed from a target not read yet.
    @inlinable @inline(never)
    func note(_ source: Source.ID, for target: Target.ID, added: Bool) {
        // Mutated in place: a copy taken out of the dictionary while it still holds the sets would
        // copy them on every note (a write adding n sources to one target paid O(n²)).
        if added {
            pending[target, default: ([], [])].added.insert(source)
            pending[target]?.removed.remove(source)
        } else {
            pending[target, default: ([], [])].removed.insert(source)
            pending[target]?.added.remove(source)
        }
    }

    override func repointFaulter(to base: ContextBase) {
        faulter?.base = base
    }

    @usableFromInline
    override func cloneBacklinks() -> AnyBacklinks {
        let copy = Backlinks(descriptor: descriptor, sources: sources)
        copy.faulter = faulter?.copy()
        copy.loaded = loaded
        copy.pending = pending
        copy.departed = departed
        return copy
    }

    @usableFromInline
    override func unlinkSources<TargetID>(of target: TargetID, in context: inout Context) {
        guard let target = target as? Target.ID else { return }
        ensure(target)
        guard let sources = sources.removeValue(forKey: target) else { return }
        let forward = context.mutableTable(Source.self).linkTable(key, Target.ID.self)
        for source in sources.ids {
            forward.remove(target, from: source, toMany: key.toMany)
            context.recordUnlink(descriptor, source: source, target: target)
        }
    }

    override func checkInvariants(in context: Context) throws {
        let forward = context.table(Source.self)?.existingLinkTable(key, Target.ID.self)
        for (target, sources) in sources {
            for source in sources.ids where forward?.contains(target, in: source, toMany: key.toMany) != true {
                throw RelataError(
                    code: .invalidRelation, entityType: "\(Source.self)", id: "\(source)", relation: key.nameString,
                    message: "backlink from \(Target.self) \"\(target)\" has no forward link"
                )
            }
        }
    }
}
