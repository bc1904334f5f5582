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
