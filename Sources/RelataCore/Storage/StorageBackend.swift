import Foundation

/// Where a ``Store`` keeps its data: the embedded SQLite file of `RelataSQLite` (the default), an
/// in-memory backend for tests and previews (``InMemoryBackend``), or your own.
///
/// A backend sees rows, never entity types: ``EntityRecord``s (type name, id as text, encoded
/// value, to-one links), ``LinkRecord``s (one row per to-many link or linked pair, with position
/// keys) and ``DynamicLinkRecord``s (one row per dynamic relationship).
///
/// **The storage is the truth; every Store is a replica of it.** Several stores (in one process
/// or many) may use one storage at once. Each write runs inside ``write(_:)``, which holds the
/// storage's write lock: the store first reads the commits it has not applied yet
/// (``StorageReader/changes(since:)``), runs its closure on the newest state, then persists
/// exactly what the write changed (``StoreChanges``) together with one ``ChangeLogRecord``
/// (``StorageTransaction/persist(_:origin:)``). Between writes, a store follows the storage
/// through ``read(_:)``, woken by ``hasNewCommits()``.
///
/// A store calls these methods one at a time, on its writer queue: a thread of its own, never
/// one of Swift's cooperative pool, so a backend may block (wait for a lock, for I/O, for a
/// database driver) inside them. Check a backend with `RelataStoreConformance`.
public protocol StorageBackend: Sendable {
    /// Runs `body` in one read transaction: what it reads comes from one committed state.
    ///
    /// - Throws: What `body` throws, or ``RelataError`` when the storage cannot be read.
    func read<T>(_ body: (any StorageReader) throws -> T) throws -> T

    /// Runs `body` holding the storage's write lock, in one transaction that commits when `body`
    /// returns and rolls back when it throws. Waits for the lock while another writer holds it
    /// (up to a timeout the backend documents; past it, throws ``RelataError`` with code
    /// ``RelataError/Code/storeBusy``).
    ///
    /// - Throws: What `body` throws, or ``RelataError`` (code ``RelataError/Code/storageFailed``,
    ///   ``RelataError/Code/storeBusy``); the stored data is then exactly as before the call.
    func write<T>(_ body: (any StorageTransaction) throws -> T) throws -> T

    /// Whether another connection may have committed since the last call: a cheap hint for the
    /// follower (SQLite: `PRAGMA data_version`), never a promise. Return `true` when unsure.
    func hasNewCommits() throws -> Bool

    /// Releases the storage. The backend is not used afterwards.
    func close() throws
}

extension StorageBackend {
    public func hasNewCommits() throws -> Bool { true }

    /// Streams every stored row in one read transaction (see ``StorageReader/load(entities:links:dynamicLinks:)``).
    ///
    /// - Returns: The sequence of the last commit the rows include.
    @discardableResult
    public func load(
        entities entity: (EntityRecord) throws -> Void,
        links link: (LinkRecord) throws -> Void,
        dynamicLinks dynamicLink: (DynamicLinkRecord) throws -> Void
    ) throws -> Int64 {
        try read { try $0.load(entities: entity, links: link, dynamicLinks: dynamicLink) }
    }

    /// Persists `changes` in one write transaction, with their log record (origin `""`).
    ///
    /// - Returns: The commit's sequence.
    @discardableResult
    public func persist(_ changes: StoreChanges) throws -> Int64 {
        try write { try $0.persist(changes, origin: "") }
    }
}

/// Reads a storage inside one transaction of ``StorageBackend/read(_:)`` or
/// ``StorageBackend/write(_:)``.
public protocol StorageReader {
    /// Streams every stored row: entities first, then links, then dynamic links.
    ///
    /// - Parameters:
    ///   - entity: Called once per stored entity.
    ///   - link: Called once per stored link; the links of one source through one relation
    ///     should come together (they are then placed in one step).
    ///   - dynamicLink: Called once per stored dynamic relationship.
    /// - Returns: The sequence of the last commit the rows include (`0` when there was none).
    /// - Throws: ``RelataError`` when the storage cannot be read.
    func load(
        entities entity: (EntityRecord) throws -> Void,
        links link: (LinkRecord) throws -> Void,
        dynamicLinks dynamicLink: (DynamicLinkRecord) throws -> Void
    ) throws -> Int64

    /// The commits after `sequence`: the keys they touched and the rows stored under those keys
    /// now; `nil` when there is none. When the log no longer holds every such commit (pruned),
    /// the result says ``CommittedChanges/needsReload`` and carries no rows.
    func changes(since sequence: Int64) throws -> CommittedChanges?
}

/// Reads and writes a storage inside the one transaction of ``StorageBackend/write(_:)``, which
/// holds the write lock.
public protocol StorageTransaction: StorageReader {
    /// Writes the rows of one commit and its ``ChangeLogRecord`` (naming the rows' keys, see
    /// ``ChangeLogRecord/init(touching:)``), which gets the next sequence. May also remove log
    /// records older than the backend's retention.
    ///
    /// - Parameters:
    ///   - changes: What the write changed.
    ///   - origin: Who made the commit (a Store's ``Store/origin``), kept in the log record.
    /// - Returns: The commit's sequence.
    func persist(_ changes: StoreChanges, origin: String) throws -> Int64
}

/// One stored entity row: the entity, and the links of its to-one relations.
///
/// A to-one link (a one-way to-one relation, or the to-one side that stores a mutual pair) lives
/// in the row of its source, so saving an entity with its to-one links writes one row. A source
/// that has such links but no entity (a link saved to an id never saved) has a row with an empty
/// payload. Backends store both fields as they are and hand them back on load.
public struct EntityRecord: Sendable, Hashable {
    /// The entity type's name (see ``EntitySchema``).
    public var type: String
    /// The id, as text (`EntityRecord.idText(_:)`).
    public var id: String
    /// The normalized entity in Relata's keyed binary form (rows written before version 4 of
    /// the SQLite format hold JSON); empty when the row only holds links.
    public var payload: Data
    /// The to-one links of this source, in Relata's own form; `nil` when it has none.
    public var links: Data?

    /// A record.
    public init(type: String, id: String, payload: Data, links: Data? = nil) {
        self.type = type
        self.id = id
        self.payload = payload
        self.links = links
    }
}

/// Identifies one stored entity.
public struct EntityKey: Sendable, Hashable {
    /// The entity type's name.
    public var type: String
    /// The id, as text.
    public var id: String

    /// A key.
    public init(type: String, id: String) {
        self.type = type
        self.id = id
    }
}

/// One stored link: `source` (of type `type`) links to `target` through `relation`.
///
/// A mutual relation is stored once per linked pair, on one side: the to-one side of a
/// one-to-many relation (keyed by the "many" entity, so the rows a write adds sit together),
/// otherwise the side whose type name, then relation name, comes first. The row carries the
/// position of `target` among the targets of
/// `source` and, in `inversePosition`, the position of `source` among the targets of `target`
/// when the inverse is to-many. One-way relations and relations that are their own inverse have
/// one row per link.
///
/// Link rows hold to-many links only: a to-one link is kept in its source's ``EntityRecord``
/// (``EntityRecord/links``). Rows of to-one links written by earlier versions are read, then
/// moved into the entity rows when the store opens.
public struct LinkRecord: Sendable, Hashable {
    /// The source entity type's name.
    public var type: String
    /// The relation's property name.
    public var relation: String
    /// The source id, as text.
    public var source: String
    /// The target id, as text.
    public var target: String
    /// The position key of the target among the source's targets (to-many relations only).
    public var position: String?
    /// The position key of the source among the target's targets, for a mutual relation whose
    /// inverse is to-many.
    public var inversePosition: String?

    /// A record.
    public init(type: String, relation: String, source: String, target: String, position: String?, inversePosition: String? = nil) {
        self.type = type
        self.relation = relation
        self.source = source
        self.target = target
        self.position = position
        self.inversePosition = inversePosition
    }

    /// The identity of the link (everything but its position).
    public var key: LinkKey { LinkKey(type: type, relation: relation, source: source, target: target) }
}

/// Identifies one stored link.
public struct LinkKey: Sendable, Hashable {
    /// The stored name of the type that declares the relation.
    public var type: String
    /// The relation's name.
    public var relation: String
    /// The id of the source entity, as text.
    public var source: String
    /// The id of the target entity, as text.
    public var target: String

    /// A key.
    public init(type: String, relation: String, source: String, target: String) {
        self.type = type
        self.relation = relation
        self.source = source
        self.target = target
    }
}

/// One stored dynamic relationship (see ``DynamicRelationKind``): `source` owns `target`
/// (`kind` `"owns"`), or the two are freely related (`kind` `"free"`, stored once per pair).
public struct DynamicLinkRecord: Sendable, Hashable {
    /// `"owns"` or `"free"`.
    public var kind: String
    /// The source entity type's name.
    public var sourceType: String
    /// The source id, as text.
    public var source: String
    /// The target entity type's name.
    public var targetType: String
    /// The target id, as text.
    public var target: String

    /// A record.
    public init(kind: String, sourceType: String, source: String, targetType: String, target: String) {
        self.kind = kind
        self.sourceType = sourceType
        self.source = source
        self.targetType = targetType
        self.target = target
    }
}

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
