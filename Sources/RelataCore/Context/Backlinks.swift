/// Type-erased base of ``Backlinks`` so an entity table can hold the backlinks of many relations.
@usableFromInline
class AnyBacklinks: @unchecked Sendable {
    @usableFromInline init() {}
    @usableFromInline func cloneBacklinks() -> AnyBacklinks { fatalError("abstract") }
    /// Removes the links every source holds to `target` (used when the target is erased).
    @usableFromInline func unlinkSources<TargetID>(of target: TargetID, in context: inout Context) {}
    /// Checks that every backlink has its forward link.
    func checkInvariants(in context: Context) throws {}
}

/// The sources of a one-way relation `Source.key → Target`, indexed by target: the other side of
/// a one-way link, so that erasing a target removes the links that point to it in O(sources).
///
/// Unordered (a `Set` per target): removing one source is O(1).
@usableFromInline
final class Backlinks<Source: EntityModelProtocol, Target: EntityModelProtocol>: AnyBacklinks, @unchecked Sendable {
    @usableFromInline let descriptor: RelationDescriptor<Source, Target>
    @usableFromInline @exclusivity(unchecked) var sources: [Target.ID: Set<Source.ID>]
    /// In a context over storage: reads the sources of targets the index does not hold.
    @usableFromInline @exclusivity(unchecked) var faulter: BacklinkFaulter<Source.ID, Target.ID>?
    /// The targets whose sources the index holds whole.
    @usableFromInline @exclusivity(unchecked) var loaded: Set<Target.ID> = []

    @usableFromInline var key: _AnyRelationKey { descriptor.key }

    /// Makes sure the index holds the sources of `target` (read from the base the first time).
    @inlinable
    func ensure(_ target: Target.ID) {
        if faulter != nil { fault(target) }
    }

    @usableFromInline @inline(never)
    func fault(_ target: Target.ID) {
        guard let faulter, !loaded.contains(target), let found = faulter.read([target]) else { return }
        sources[target] = found[target]
        loaded.insert(target)
    }

    /// The sources that link to `target`.
    @inlinable
    func sources(of target: Target.ID) -> Set<Source.ID>? {
        ensure(target)
        return sources[target]
    }

    @usableFromInline
    init(descriptor: RelationDescriptor<Source, Target>, sources: [Target.ID: Set<Source.ID>] = [:]) {
        self.descriptor = descriptor
        self.sources = sources
    }

    @inlinable
    func insert(_ source: Source.ID, for target: Target.ID) {
        ensure(target)
        sources[target, default: []].insert(source)
    }

    @inlinable
    func remove(_ source: Source.ID, for target: Target.ID) {
        ensure(target)
        guard sources[target]?.remove(source) != nil else { return }
        if sources[target]!.isEmpty { sources[target] = nil }
    }

    @usableFromInline
    override func cloneBacklinks() -> AnyBacklinks {
        let copy = Backlinks(descriptor: descriptor, sources: sources)
        copy.faulter = faulter
        copy.loaded = loaded
        return copy
    }

    @usableFromInline
    override func unlinkSources<TargetID>(of target: TargetID, in context: inout Context) {
        guard let target = target as? Target.ID else { return }
        ensure(target)
        guard let sources = sources.removeValue(forKey: target) else { return }
        let forward = context.mutableTable(Source.self).linkTable(key, Target.ID.self)
        for source in sources {
            forward.remove(target, from: source, toMany: key.toMany)
            context.recordUnlink(descriptor, source: source, target: target)
        }
    }

    override func checkInvariants(in context: Context) throws {
        let forward = context.table(Source.self)?.existingLinkTable(key, Target.ID.self)
        for (target, sources) in sources {
            for source in sources where forward?.contains(target, in: source, toMany: key.toMany) != true {
                throw RelataError(
                    code: .invalidRelation, entityType: "\(Source.self)", id: "\(source)", relation: key.nameString,
                    message: "backlink from \(Target.self) \"\(target)\" has no forward link"
                )
            }
        }
    }
}
