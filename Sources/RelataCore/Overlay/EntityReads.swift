import Foundation

/// How one entity type is read from a base: made once per type (``OverlayPlan``) and shared by
/// every context's ``EntityFaulter``, which gives it its own base at each call.
@usableFromInline
final class EntityReads<Entity: EntityModelProtocol>: @unchecked Sendable {
    /// What a read found: the entities decoded (an id once), the rows read, and when each
    /// entity was last saved, where its row keeps it (see ``EntityRecord/updatedAt``).
    @usableFromInline
    struct Found {
        @usableFromInline var entities: [(Entity.ID, Entity)] = []
        @usableFromInline var rows: [EntityRecord] = []
        /// The time of each of ``entities``, in the same order.
        @usableFromInline var times: [Date?] = []
        /// ``readFirst``: how many rows in order came before these, not read.
        @usableFromInline var skipped = 0
        /// ``readFirst``: whether the entities are the answer itself, in order — every row passed
        /// the filters in storage and came in order (see ``FirstEntityRows/isExact``).
        @usableFromInline var isExact = false

        @usableFromInline init() {}
    }

    /// The entities of a batch of ids and the rows read; `nil` on failure.
    @usableFromInline let read: (ContextBase, [Entity.ID]) -> Found?
    /// Every entity of the type, in storage's id order, and the rows; `nil` on failure.
    @usableFromInline let readAll: (ContextBase) -> Found?
    /// The entities of the type whose rows pass a prefilter (and possibly others), in storage's
    /// id order, and the rows; `nil` on failure.
    @usableFromInline let readMatching: (ContextBase, [ColumnFilter]) -> Found?
    /// A page of ``readMatching``: the first rows after a stored id (`nil`: from the first), as
    /// many as asked, and the last one's stored id when there may be more; `nil` on failure.
    @usableFromInline let readPage: (ContextBase, [ColumnFilter], String?, Int) -> (found: Found, last: String?)?
    /// At least the first `count` entities whose rows pass the filters in the order given, after
    /// skipping as many as asked where storage can tell (with the rows whose columns are NULL, or
    /// every row that passes when storage cannot order), and the rows; `nil` on failure.
    @usableFromInline let readFirst: (ContextBase, [ColumnFilter], [ColumnOrder], Int, Int) -> Found?
    /// How many stored entities pass the filters exactly, counted by storage, and the entities
    /// whose rows it could not test (with the rows); `nil` when storage cannot count by these
    /// filters or the read failed.
    @usableFromInline let readCount: (ContextBase, [ColumnFilter]) -> (count: Int, untested: Found)?
    /// What storage's full-text table of the properties holds for the trigrams (the rows of
    /// those at the places given); `nil` when it has none or the read failed.
    @usableFromInline let readFullText: (ContextBase, [String], [String], [Int], [Int]) -> FullTextCandidates?
    /// The rows of a batch of ids, not decoded; `nil` on failure.
    @usableFromInline let rows: (ContextBase, [Entity.ID]) -> [EntityRecord]?
    /// How many entities of the type are stored; `nil` on failure.
    @usableFromInline let count: (ContextBase) -> Int?
    /// The keys the reads of a batch of ids ask storage for.
    @usableFromInline let keys: ([Entity.ID]) -> [EntityKey]
    /// One per to-one relation `Entity` stores in its rows (see ``EntityFaulter/rowLinks``):
    /// filled while the plan is made, never after.
    @usableFromInline var rowLinks: [(EntityTable<Entity>, [Entity.ID]?, [EntityRecord]) -> Void] = []

    @usableFromInline
    init(
        read: @escaping (ContextBase, [Entity.ID]) -> Found?, readAll: @escaping (ContextBase) -> Found?,
        readMatching: @escaping (ContextBase, [ColumnFilter]) -> Found?,
        readPage: @escaping (ContextBase, [ColumnFilter], String?, Int) -> (found: Found, last: String?)?,
        readFirst: @escaping (ContextBase, [ColumnFilter], [ColumnOrder], Int, Int) -> Found?,
        readCount: @escaping (ContextBase, [ColumnFilter]) -> (count: Int, untested: Found)?,
        readFullText: @escaping (ContextBase, [String], [String], [Int], [Int]) -> FullTextCandidates?,
        rows: @escaping (ContextBase, [Entity.ID]) -> [EntityRecord]?, count: @escaping (ContextBase) -> Int?,
        keys: @escaping ([Entity.ID]) -> [EntityKey]
    ) {
        self.read = read
        self.readAll = readAll
        self.readMatching = readMatching
        self.readPage = readPage
        self.readFirst = readFirst
        self.readCount = readCount
        self.readFullText = readFullText
        self.rows = rows
        self.count = count
        self.keys = keys
    }
}
