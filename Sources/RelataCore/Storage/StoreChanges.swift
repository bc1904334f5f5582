/// What one ``Store`` write changed, as rows: entities stored or erased, links written (new or
/// moved) or removed. Never the whole context.
public struct StoreChanges: Sendable {
    /// Entities stored (new or changed), with their new value.
    public var upsertedEntities: [EntityRecord] = []
    /// Entities erased.
    public var deletedEntities: [EntityKey] = []
    /// Links created or moved (a moved link has a new position).
    public var upsertedLinks: [LinkRecord] = []
    /// Links removed.
    public var deletedLinks: [LinkKey] = []
    /// Dynamic relationships created.
    public var insertedDynamicLinks: [DynamicLinkRecord] = []
    /// Dynamic relationships removed.
    public var deletedDynamicLinks: [DynamicLinkRecord] = []
    /// The targets whose to-one sources changed: the old and the new target of each to-one link
    /// the write set, moved or removed (their rows are in ``upsertedEntities`` or
    /// ``deletedEntities``, but only the new target is in the row). The change log names them, so
    /// other stores know which lists of sources to read again.
    public var toOneTargets: [LinkTargetKey] = []
    /// For each row of ``upsertedEntities`` that storage held before (by its key), the to-one
    /// relations whose link the write left as stored — the same target at the same place —
    /// where the write knew it for certain: storage may leave their columns as they are (SQLite
    /// rewrites the index of every column an update sets, whatever its value).
    @usableFromInline package var unchangedToOne: [EntityKey: Set<String>] = [:]
    /// The indexes each type whose rows the write stores declares (none: an empty list), by
    /// type name: storage makes those it lacks and drops those of the type no longer declared.
    public var indexes: [String: [StoredIndex]] = [:]

    /// No change.
    public init() {}

    /// Whether the write changed nothing.
    public var isEmpty: Bool {
        count == 0
    }

    /// The number of rows the write touches.
    public var count: Int {
        upsertedEntities.count + deletedEntities.count + upsertedLinks.count + deletedLinks.count
            + insertedDynamicLinks.count + deletedDynamicLinks.count
    }
}
