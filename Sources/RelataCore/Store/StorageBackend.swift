import Foundation

/// Where a ``Store`` keeps its data: the embedded SQLite file of `RelataSQLite` (the default), an
/// in-memory backend for tests and previews (``InMemoryBackend``), or your own.
///
/// A backend sees rows, never entity types: ``EntityRecord``s (type name, id as text, encoded
/// value), ``LinkRecord``s (one row per link of each side of a relation, with the position key
/// of to-many sides) and ``DynamicLinkRecord``s (one row per dynamic relationship). The ``Store`` hands it exactly what each write changed (``StoreChanges``) and
/// expects it to persist that atomically.
public protocol StorageBackend: Sendable {
    /// Streams every stored row: entities first, then links, then dynamic links.
    ///
    /// - Parameters:
    ///   - entity: Called once per stored entity.
    ///   - link: Called once per stored link; the links of one source through one relation
    ///     should come together (they are then placed in one step).
    ///   - dynamicLink: Called once per stored dynamic relationship.
    /// - Throws: ``RelataError`` when the storage cannot be read.
    func load(
        entities entity: (EntityRecord) throws -> Void,
        links link: (LinkRecord) throws -> Void,
        dynamicLinks dynamicLink: (DynamicLinkRecord) throws -> Void
    ) async throws

    /// Persists one write: all of `changes` or, when it throws, none of them.
    ///
    /// - Throws: ``RelataError`` with code ``RelataError/Code/storageFailed``; the stored data is
    ///   then exactly as before the call.
    func persist(_ changes: StoreChanges) async throws

    /// Releases the storage. The backend is not used afterwards.
    func close() async throws
}

/// One stored entity.
public struct EntityRecord: Sendable, Hashable {
    /// The entity type's name (see ``EntitySchema``).
    public var type: String
    /// The id, as text (``EntityRecord/idText(_:)``).
    public var id: String
    /// The normalized entity, JSON-encoded (relations are stored as links, not here).
    public var payload: Data

    /// A record.
    public init(type: String, id: String, payload: Data) {
        self.type = type
        self.id = id
        self.payload = payload
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
    public var type: String
    public var relation: String
    public var source: String
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
