import Synchronization

/// A ``StorageBackend`` that keeps rows in memory: for tests and previews, and as the reference
/// every other backend must behave like.
public final class InMemoryBackend: StorageBackend {
    private struct Rows {
        var entities: [EntityKey: EntityRecord] = [:]
        var links: [LinkKey: LinkRecord] = [:]
    }

    private let rows = Mutex(Rows())

    /// An empty backend.
    public init() {}

    public func load(entities entity: (EntityRecord) throws -> Void, links link: (LinkRecord) throws -> Void) async throws {
        let (entities, links) = rows.withLock { (Array($0.entities.values), Array($0.links.values)) }
        for record in entities { try entity(record) }
        for record in links { try link(record) }
    }

    public func persist(_ changes: StoreChanges) async throws {
        rows.withLock { rows in
            for key in changes.deletedEntities { rows.entities[key] = nil }
            for record in changes.upsertedEntities { rows.entities[EntityKey(type: record.type, id: record.id)] = record }
            for key in changes.deletedLinks { rows.links[key] = nil }
            for record in changes.upsertedLinks { rows.links[record.key] = record }
        }
    }

    public func close() async throws {}

    /// The number of stored entity and link rows.
    public var rowCount: (entities: Int, links: Int) {
        rows.withLock { ($0.entities.count, $0.links.count) }
    }
}
