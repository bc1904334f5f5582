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

/// Reads the sources of one-way links to targets a ``Backlinks`` index does not hold.
@usableFromInline
final class BacklinkFaulter<SourceID: Hashable & Sendable, TargetID: Hashable & Sendable>: @unchecked Sendable {
    @usableFromInline typealias Load = (ContextBase, [TargetID]) -> [TargetID: Set<SourceID>]?

    /// The base of the context whose index this is (a context that takes the table points it at
    /// its own: `Context.init(over:taking:)`, before it reads;
    /// every read reads it, so it skips run-time exclusivity checks).
    @exclusivity(unchecked) @usableFromInline var base: ContextBase
    /// How the sources are read, shared by every context (see ``OverlayPlan``).
    @usableFromInline let load: Load

    @usableFromInline
    init(base: ContextBase, load: @escaping Load) {
        self.base = base
        self.load = load
    }

    /// A faulter of its own for a clone of the index, reading the same base.
    func copy() -> BacklinkFaulter {
        BacklinkFaulter(base: base, load: load)
    }

    /// The sources of each of a batch of targets; `nil` when the read failed.
    @inlinable
    func read(_ targets: [TargetID]) -> [TargetID: Set<SourceID>]? {
        load(base, targets)
    }
}

/// Reads the entities an ``EntityTable`` does not hold: by id, or every one of the type. The
/// rows read also hold the sources' to-one links, which go to their link tables on the way.
@usableFromInline
final class EntityFaulter<Entity: EntityModelProtocol>: @unchecked Sendable {
    /// The base of the context whose table this is (a context that takes the table points it at
    /// its own: `Context.init(over:taking:)`, before it reads;
    /// every read reads it, so it skips run-time exclusivity checks).
    @exclusivity(unchecked) @usableFromInline var base: ContextBase {
        didSet { placesRowLinks = !base.cacheKeepsRows }
    }
    /// How the type is read, shared by every context (see ``OverlayPlan``).
    @usableFromInline let reads: EntityReads<Entity>
    /// Whether reading entities places their rows' to-one links (``rowLinks``) on the way. Not
    /// over a store's row cache that keeps rows: there a link table asked later reads the same
    /// rows from the cache, and a query pays only for the relations it asks for.
    @exclusivity(unchecked) @usableFromInline private(set) var placesRowLinks: Bool

    @usableFromInline
    init(base: ContextBase, reads: EntityReads<Entity>) {
        self.base = base
        self.reads = reads
        placesRowLinks = !base.cacheKeepsRows
    }

    /// A faulter of its own for a clone of the table, reading the same base.
    func copy() -> EntityFaulter {
        EntityFaulter(base: base, reads: reads)
    }

    /// The entities of a batch of ids (an id without an entity is left out; each once) and the
    /// rows read; `nil` on failure.
    @inlinable
    func read(_ ids: [Entity.ID]) -> EntityReads<Entity>.Found? {
        reads.read(base, ids)
    }

    /// Every entity of the type, in storage's id order, and the rows; `nil` on failure.
    @inlinable
    func readAll() -> EntityReads<Entity>.Found? {
        reads.readAll(base)
    }

    /// The entities whose rows pass `filters` (a prefilter: possibly others too), in storage's id
    /// order, and the rows; `nil` on failure.
    @inlinable
    func readMatching(_ filters: [ColumnFilter]) -> EntityReads<Entity>.Found? {
        reads.readMatching(base, filters)
    }

    /// A page of ``readMatching(_:)``: the rows after the stored id `after` (`nil`: from the
    /// first), `limit` of them in id order, and the last one's stored id when there may be more;
    /// `nil` on failure.
    @inlinable
    func readPage(_ filters: [ColumnFilter], after: String?, limit: Int) -> (found: EntityReads<Entity>.Found, last: String?)? {
        reads.readPage(base, filters, after, limit)
    }

    /// At least the first `count` entities whose rows pass `filters` in `order`, after the first
    /// `skipping` where storage can skip them (see ``EntityReads/readFirst``), and the rows;
    /// `nil` on failure.
    @inlinable
    func readFirst(_ filters: [ColumnFilter], _ order: [ColumnOrder], _ count: Int, skipping: Int = 0) -> EntityReads<Entity>.Found? {
        reads.readFirst(base, filters, order, count, skipping)
    }

    /// How many stored entities pass `filters` exactly, counted by storage, and those it could
    /// not test (see ``EntityReads/readCount``); `nil` when it cannot count by them.
    @inlinable
    func readCount(_ filters: [ColumnFilter]) -> (count: Int, untested: EntityReads<Entity>.Found)? {
        reads.readCount(base, filters)
    }

    /// What storage's full-text table of `properties` holds for `tokens` (the rows holding those
    /// at the places `containing` and none at the places `excluding`); `nil` when storage has
    /// none (or the read failed).
    @inlinable
    func readFullText(_ properties: [String], _ tokens: [String], containing: [Int], excluding: [Int] = []) -> FullTextCandidates? {
        reads.readFullText(base, properties, tokens, containing, excluding)
    }

    /// Runs `body` with its reads of storage in one read transaction.
    func inOneRead<T>(_ body: () -> T) -> T {
        base.reading(probingCache: false, body)
    }

    /// How many entities of the type are stored, counted without reading them; `nil` on failure.
    @inlinable
    func count() -> Int? {
        reads.count(base)
    }

    /// The rows of a batch of ids, not decoded (their to-one links are what is wanted); `nil` on
    /// failure.
    @inlinable
    func rows(_ ids: [Entity.ID]) -> [EntityRecord]? {
        reads.rows(base, ids)
    }

    /// The reads ``rows(_:)`` makes for `ids`.
    @inlinable
    func plannedRows(_ ids: [Entity.ID]) -> PlannedReads {
        PlannedReads(entities: reads.keys(ids))
    }

    /// One per to-one relation `Entity` stores in its rows: puts the links of the rows read (for
    /// the ids asked about, `nil` for all of the type) in the table's link table.
    @inlinable var rowLinks: [(EntityTable<Entity>, [Entity.ID]?, [EntityRecord]) -> Void] {
        reads.rowLinks
    }
}
