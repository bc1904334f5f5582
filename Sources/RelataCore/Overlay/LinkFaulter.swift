/// Reads the links of sources a ``LinkTable`` does not hold, from a ``ContextBase``: for one
/// side of one relation, made by `Context.init(over:)` where the relation's types are known.
@usableFromInline
final class LinkFaulter<SourceID: Hashable & Sendable, TargetID: Hashable & Sendable>: @unchecked Sendable {
    /// The base of the context whose table this is (a context that takes the table points it at
    /// its own: `Context.init(over:taking:)`, before it reads;
    /// every read reads it, so it skips run-time exclusivity checks).
    @exclusivity(unchecked) @usableFromInline var base: ContextBase
    /// How the side is read, shared by every context (see ``OverlayPlan``).
    @usableFromInline let reads: LinkReads<SourceID, TargetID>

    @usableFromInline
    init(base: ContextBase, reads: LinkReads<SourceID, TargetID>) {
        self.base = base
        self.reads = reads
    }

    /// A faulter of its own for a clone of the table, reading the same base.
    func copy() -> LinkFaulter {
        LinkFaulter(base: base, reads: reads)
    }

    /// The links of a batch of sources: to-one targets, or to-many targets with their keys in
    /// order; `nil` when the read failed (the base keeps the error).
    @inlinable
    func read(_ sources: [SourceID]) -> (one: [SourceID: TargetID], many: [SourceID: OrderedLinks<TargetID>])? {
        reads.read(base, sources)
    }

    /// Whether a to-many source's list can be read a page at a time (``page(_:_:)``): `false` for a
    /// to-one side.
    @inlinable var readsPages: Bool { reads.page != nil }

    /// The targets of one to-many source in a page of its list, with their keys, read by index
    /// without the rest of the list; `nil` for a to-one side, or when the read failed.
    @inlinable
    func page(_ source: SourceID, _ page: ListPage) -> [(target: TargetID, key: PositionKey)]? {
        reads.page?(base, source, page)
    }

    /// Whether to-many sources' targets can be counted without reading them: `false` for a to-one
    /// side.
    @inlinable var counts: Bool { reads.count != nil }

    /// How many targets each of a batch of to-many sources has (a source without any left out),
    /// counted without reading the links; `nil` for a to-one side, or when the read failed.
    @inlinable
    func count(_ sources: [SourceID]) -> [SourceID: Int]? {
        reads.count?(base, sources)
    }

    /// Whether the tails of to-many sources' lists can be read in one batch: `false` for a to-one
    /// side.
    @inlinable var readsTails: Bool { reads.tails != nil }

    /// The last key of each of a batch of to-many sources' lists (a source with an empty list
    /// left out), read in one batch; `nil` for a to-one side, or when the read failed.
    @inlinable
    func tails(_ sources: [SourceID]) -> [SourceID: PositionKey]? {
        reads.tails?(base, sources)
    }

    /// The reads ``tails(_:)`` makes for `sources`.
    @inlinable
    func plannedTails(_ sources: [SourceID]) -> PlannedReads {
        reads.plannedTails?(sources) ?? PlannedReads()
    }

    /// Puts the links of `sources` in `table` (replacing what it held for them: only sources it
    /// does not hold whole are asked for) and notes them as held — a source given twice once;
    /// `withTargets`: the targets' rows are read in the same statement where the side can
    /// (``readWithTargets``).
    @inlinable
    func load(_ sources: [SourceID], into table: LinkTable<SourceID, TargetID>, withTargets: Bool = false) {
        // The targets' rows come with the links where reads are round trips (see
        // `ContextBase.joinsLinkedRows`) and the side can.
        assert(Set(sources).count == sources.count, "a batch names each source once")
        let load = withTargets && base.joinsLinkedRows ? reads.readWithTargets ?? reads.read : reads.read
        guard let links = load(base, sources) else { return }
        if !links.one.isEmpty, table.write?.readStored != true { table.writing.readStored = true }
        // A source not held has no link in the table, but for targets appended to its list
        // before the list was read (``LinkWriteOverlay/storedTails``): a source without stored links
        // costs the loaded mark alone.
        let hasOne = !links.one.isEmpty, hasMany = !links.many.isEmpty
        table.loaded.reserveCapacity(table.loaded.count + sources.count)
        for source in sources {
            // Placed once: a second time would put back the stored list over what the first
            // placed in it (targets appended before the list was read).
            guard table.loaded.insert(source).inserted else { continue }
            if hasOne, let target = links.one[source] { table.one[source] = table.unclaimed(target, of: source) }
            var stored = hasMany ? links.many[source] : nil
            if table.write?.departed.isEmpty == false, stored != nil { table.dropDeparted(from: &stored!, of: source) }
            if table.write?.storedTails.isEmpty == false, table.write?.storedTails.removeValue(forKey: source) != nil {
                // Targets appended after the list before it was read: placed in it at their keys.
                var list = stored ?? OrderedLinks()
                if table.write?.provisional.isEmpty == false, table.write?.provisional.remove(source) != nil {
                    // Appended with provisional keys: placed after the list just read.
                    table.placeProvisional(of: source, after: list.keys.last, into: &list)
                } else if let appended = table.many[source] {
                    for (target, key) in zip(appended.targets, appended.keys) { list.place(target, at: key) }
                }
                table.many[source] = list.isEmpty ? nil : list
            } else if let stored {
                table.many[source] = stored
            }
        }
    }
}
