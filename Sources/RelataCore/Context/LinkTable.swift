import OrderedCollections

/// Type-erased base of ``LinkTable`` so tables of every type fit in one array.
@usableFromInline
class AnyLinkTable: @unchecked Sendable {
    @usableFromInline func clone() -> AnyLinkTable { fatalError("abstract") }
    /// Points the table's faulter, if any, at `base` (see `AnyEntityTable.repointFaulters`).
    func repointFaulter(to base: ContextBase) {}
    /// Starts (or stops) recording which sources change.
    @usableFromInline func setTracking(_ on: Bool) {}
    @usableFromInline init() {}
    /// Marks every link of this table and of `old` (a table of the same type) as changed.
    func markAllDirty(comparedTo old: AnyLinkTable?) { fatalError("abstract") }
    /// In a context over storage: reads the links of every one of `sources` (an array of the
    /// table's source ids, passed whole: one cast, not one per id) not held yet, of every source
    /// the table holds only in part (a list appended to without reading it), and of every source
    /// `other` (a table of the same type: what storage holds now) has links for — sources with no
    /// entity included.
    func ensureAll(_ sources: Any, alongside other: AnyLinkTable?) {}
    /// An empty table of the same type.
    func emptyClone() -> AnyLinkTable { fatalError("abstract") }
    /// How many sources the table holds the links of (in a context over storage).
    var heldSourceCount: Int { 0 }
}

/// The links of one relation: source id to its target (to-one) or its targets in position order
/// (to-many, see ``OrderedLinks``).
///
/// To-one relations use `one`, to-many relations `many`; a table never uses both. Hot properties
/// are `@exclusivity(unchecked)`, like those of `EntityTable` (see there).
@usableFromInline
final class LinkTable<SourceID: Hashable & Sendable, TargetID: Hashable & Sendable>: AnyLinkTable, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var one: [SourceID: TargetID] = [:]
    @usableFromInline @exclusivity(unchecked) var many: [SourceID: OrderedLinks<TargetID>] = [:]
    /// The links (source, target) written or removed since tracking began (a Store write), or
    /// `nil` when not tracking. Every mutator below appends what it touches; duplicates are fine.
    @usableFromInline @exclusivity(unchecked) var dirty: ContiguousArray<LinkPair<SourceID, TargetID>>?
    /// In a context over a storage snapshot (see ``ContextBase``): reads the links of sources the
    /// table does not hold yet. `nil` in a context that holds everything (the in-memory
    /// `Context()` and a Store's replica), where the only cost is this `nil` check.
    @usableFromInline @exclusivity(unchecked) var faulter: LinkFaulter<SourceID, TargetID>?
    /// The sources whose links the table holds whole (read from the base or written here).
    @usableFromInline @exclusivity(unchecked) var loaded: Set<SourceID> = []
    /// What a Store write over storage knows of this relation's stored links beyond the links it
    /// holds (see ``LinkWriteOverlay``), made by the first step that needs it (``writing``):
    /// `nil` in a context that holds everything.
    @usableFromInline @exclusivity(unchecked) var write: LinkWriteOverlay<SourceID, TargetID>?

    /// ``write``, made if there is none yet, to be changed in place.
    @inlinable var writing: LinkWriteOverlay<SourceID, TargetID> {
        get { write ?? LinkWriteOverlay() }
        _modify {
            if write == nil { write = LinkWriteOverlay() }
            yield &write!
        }
    }

    @inlinable override init() {}

    init(
        one: [SourceID: TargetID], many: [SourceID: OrderedLinks<TargetID>],
        dirty: ContiguousArray<LinkPair<SourceID, TargetID>>?
    ) {
        self.one = one
        self.many = many
        self.dirty = dirty
    }

    override var heldSourceCount: Int { loaded.count }

    override func repointFaulter(to base: ContextBase) {
        faulter?.base = base
    }

    @usableFromInline override func clone() -> AnyLinkTable {
        let copy = LinkTable(one: one, many: many, dirty: dirty)
        copy.faulter = faulter?.copy()
        copy.loaded = loaded
        copy.write = write
        return copy
    }

    /// The to-one target storage gave for `source`, unless another source claimed it here (see
    /// ``LinkWriteOverlay/claimed``).
    @inlinable
    func unclaimed(_ target: TargetID?, of source: SourceID) -> TargetID? {
        guard let claimed = write?.claimed, !claimed.isEmpty, let target, let claimer = claimed[target], claimer != source else { return target }
        return nil
    }

    /// Drops the targets that left their stored place (``LinkWriteOverlay/departed``) from `stored`, the list of
    /// `source` read from storage — except a target appended to this very list when it left
    /// (storage had it here already): it keeps its stored place instead of the appended one.
    @inlinable
    func dropDeparted(from stored: inout OrderedLinks<TargetID>, of source: SourceID) {
        guard let departed = write?.departed else { return }
        for target in stored.targets {
            guard let appendedTo = departed[target] else { continue }
            if appendedTo == source, write!.storedTails.index(forKey: source) != nil,
                many[source]?.remove(target) == true
            {
                if many[source]!.isEmpty { many[source] = nil }
                writing.departed[target] = nil
            } else {
                _ = stored.remove(target)
            }
        }
    }

    /// Moves `target`, appended to the list of `source` without reading it (see
    /// ``LinkWriteOverlay/storedTails``) though storage had it there already, back to its stored place `key`:
    /// the list is not read for it. A later read of the list finds it there (see
    /// ``dropDeparted(from:of:)``).
    ///
    /// - Returns: Whether the table holds `target`'s place now: `false` when `key` is unknown
    ///   or the appended place is provisional — then the list is to be read.
    @inlinable
    func keepStoredPlace(of target: TargetID, in source: SourceID, at key: PositionKey?) -> Bool {
        if loaded.contains(source) { return true }
        guard let key, holdsAppendedPlace(of: target, in: source) else { return false }
        many[source]!.place(target, at: key)
        return true
    }

    /// Whether ``key(of:in:)`` answers for `target` in the list of `source` without reading the
    /// list — the table holds it whole, or holds `target`'s place in it (appended, or kept at its
    /// stored place, without the rest) — and, when it does, that key: each id looked up once.
    @inlinable
    func heldKey(of target: TargetID, in source: SourceID) -> (held: Bool, key: PositionKey?) {
        if faulter == nil || loaded.contains(source) { return (true, many[source]?.key(of: target)) }
        if let write, write.storedTails.index(forKey: source) != nil, write.provisional.isEmpty || !write.provisional.contains(source),
            let key = many[source]?.key(of: target)
        {
            return (true, key)
        }
        return (false, nil)
    }

    /// Whether the table holds `target` at a place of its own in the part of the list of
    /// `source` it holds without the rest (see ``LinkWriteOverlay/storedTails``), not a provisional one.
    @inlinable
    func holdsAppendedPlace(of target: TargetID, in source: SourceID) -> Bool {
        guard let write else { return false }
        return write.storedTails.index(forKey: source) != nil && (write.provisional.isEmpty || !write.provisional.contains(source))
            && many[source]?.contains(target) == true
    }

    /// Makes sure the links of `source` are here: read from the base the first time, in a
    /// context over a snapshot; nothing otherwise.
    @inlinable @inline(__always)
    func ensure(_ source: SourceID) {
        // The only cost in a context that holds everything: the slow path stays out of line.
        if faulter != nil { fault(source) }
    }

    @inlinable @inline(never)
    func fault(_ source: SourceID) {
        if let faulter, !loaded.contains(source) { faulter.load([source], into: self) }
    }

    /// Reads the links of those of `sources` not held yet, in one batch, each once; `withTargets`:
    /// the targets' entity rows too, in the same statement where storage can (a query about to
    /// resolve them).
    @inlinable
    func ensure(_ sources: some Collection<SourceID>, withTargets: Bool = false) {
        guard let faulter else { return }
        // Each source asked once: a batch names each key once (a source named twice gets its
        // rows twice from storage — a list holding a target twice).
        var asked = Set<SourceID>()
        let missing = sources.filter { !loaded.contains($0) && asked.insert($0).inserted }
        if !missing.isEmpty { faulter.load(missing, into: self, withTargets: withTargets) }
    }

    /// The to-one target of `source`.
    @inlinable @inline(__always)
    func target(of source: SourceID) -> TargetID? {
        ensure(source)
        return one[source]
    }

    /// The to-many targets of `source`, in order.
    @inlinable @inline(__always)
    func list(of source: SourceID) -> OrderedLinks<TargetID>? {
        ensure(source)
        return many[source]
    }

    @usableFromInline override func setTracking(_ on: Bool) { dirty = on ? [] : nil }

    override func emptyClone() -> AnyLinkTable { LinkTable() }

    override func ensureAll(_ sources: Any, alongside other: AnyLinkTable?) {
        guard faulter != nil else { return }
        var all = sources as? [SourceID] ?? []
        all += one.keys.filter { !loaded.contains($0) }
        all += many.keys.filter { !loaded.contains($0) }
        if let other = other.map({ unsafeDowncast($0, to: LinkTable.self) }) {
            all += other.one.keys
            all += other.many.keys
        }
        ensure(all)
    }

    override func markAllDirty(comparedTo old: AnyLinkTable?) {
        var pairs: ContiguousArray<LinkPair<SourceID, TargetID>> = []
        for table in [self, old.map { unsafeDowncast($0, to: LinkTable.self) }] {
            guard let table else { continue }
            for (source, target) in table.one { pairs.append(LinkPair(source: source, target: target)) }
            for (source, targets) in table.many {
                for target in targets.targets { pairs.append(LinkPair(source: source, target: target)) }
            }
        }
        dirty = pairs
    }

    /// Marks the link from `source` to `target` as changed, when tracking.
    @inlinable
    func touch(_ source: SourceID, _ target: TargetID) {
        if dirty != nil { dirty!.append(LinkPair(source: source, target: target)) }
    }

    /// Whether changes are being tracked.
    @inlinable var isTracking: Bool { dirty != nil }

    /// The targets of `source`, in order.
    @inlinable
    func targets(of source: SourceID, toMany: Bool) -> [TargetID] {
        ensure(source)
        if toMany { return many[source]?.targets ?? [] }
        return one[source].map { [$0] } ?? []
    }

    /// Whether `source` links to `target`.
    @inlinable
    func contains(_ target: TargetID, in source: SourceID, toMany: Bool) -> Bool {
        ensure(source)
        return toMany ? (many[source]?.contains(target) ?? false) : one[source] == target
    }

    /// The number of targets of `source`: in a context over storage, a to-many list not held is
    /// counted by storage, not read.
    @inlinable
    func count(of source: SourceID, toMany: Bool) -> Int {
        if toMany, write?.departed.isEmpty != false, let faulter, faulter.counts, !isHeldInPart(source) { return faulter.count([source])?[source] ?? 0 }
        ensure(source)
        return toMany ? (many[source]?.count ?? 0) : (one[source] == nil ? 0 : 1)
    }

    /// The to-many targets of `source` in `page` of its list: in a context over storage, a list
    /// not held is read a page at a time where the relation's side allows it (and not kept);
    /// otherwise the held list is sliced.
    @inlinable
    func targets(of source: SourceID, page: ListPage) -> [TargetID] {
        if write?.departed.isEmpty != false, let faulter, faulter.readsPages, !isHeldInPart(source) { return faulter.page(source, page)?.map { $0.target } ?? [] }
        ensure(source)
        return Array(page.slice(many[source]?.targets ?? []))
    }

    /// The key of `target` in the to-many list of `source`. A target this context appended to a
    /// list it has not read (``appendNew(_:to:using:)``) is answered without reading the list.
    @inlinable
    func key(of target: TargetID, in source: SourceID) -> PositionKey? {
        if let write, !write.storedTails.isEmpty, write.storedTails.index(forKey: source) != nil, write.provisional.isEmpty || !write.provisional.contains(source),
            let key = many[source]?.key(of: target)
        {
            return key
        }
        return list(of: source)?.key(of: target)
    }

    /// Whether the table holds any of `source`'s links: all of them, or the targets this
    /// context appended after a list it has not read.
    @inlinable
    func isHeldInPart(_ source: SourceID) -> Bool {
        loaded.contains(source) || (write.map { !$0.storedTails.isEmpty && $0.storedTails.index(forKey: source) != nil } ?? false)
    }

    /// Sets the to-one link of `source` to `target`; returns the target it replaced, if any.
    @inlinable
    @discardableResult
    func setOne(_ target: TargetID, for source: SourceID) -> TargetID? {
        ensure(source)
        touch(source, target)
        let previous = one.updateValue(target, forKey: source)
        return previous == target ? nil : previous
    }

    /// Removes the link from `source` to `target`, if there is one.
    @inlinable
    func remove(_ target: TargetID, from source: SourceID, toMany: Bool) {
        ensure(source)
        touch(source, target)
        if toMany {
            guard many[source]?.remove(target) == true else { return }
            if many[source]!.isEmpty { many[source] = nil }
        } else if one[source] == target {
            one[source] = nil
        }
    }

    /// Removes `target` from the to-many list of `source` without reading the list, in a
    /// context over storage, for a side whose other side is to-one (storage has `target` in one
    /// list at most): it departs (see ``LinkWriteOverlay/departed``: dropped from the lists read from storage
    /// later), and leaves what this context appended.
    ///
    /// - Returns: `false`, having done nothing, when the table holds the list whole or cannot
    ///   read it a page at a time: then ``remove(_:from:toMany:)`` removes it.
    @inlinable
    func removeWithoutReading(_ target: TargetID, from source: SourceID) -> Bool {
        guard let faulter, faulter.readsPages, !loaded.contains(source) else { return false }
        touch(source, target)
        if many[source]?.remove(target) == true, many[source]!.isEmpty { many[source] = nil }
        writing.departed.updateValue(nil, forKey: target)
        return true
    }

    /// Removes every link of `source` and returns the targets it had, in order.
    @inlinable
    func removeAll(from source: SourceID, toMany: Bool) -> [TargetID] {
        ensure(source)
        let removed: [TargetID]
        if toMany {
            removed = many.removeValue(forKey: source)?.targets ?? []
        } else {
            removed = one.removeValue(forKey: source).map { [$0] } ?? []
        }
        if isTracking { for target in removed { touch(source, target) } }
        return removed
    }
}

/// A link's two ends, for tracking what a write changed.
@usableFromInline
struct LinkPair<SourceID: Hashable & Sendable, TargetID: Hashable & Sendable>: Hashable, Sendable {
    @usableFromInline let source: SourceID
    @usableFromInline let target: TargetID

    @inlinable
    init(source: SourceID, target: TargetID) {
        self.source = source
        self.target = target
    }
}
