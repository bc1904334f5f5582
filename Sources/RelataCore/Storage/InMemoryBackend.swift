import Synchronization

/// A ``StorageBackend`` that keeps rows in memory: for tests and previews, and as the reference
/// every other backend must behave like.
public final class InMemoryBackend: StorageBackend {
    private struct Rows {
        var entities: [EntityKey: EntityRecord] = [:]
        var links: [LinkKey: LinkRecord] = [:]
        var dynamicLinks: Set<DynamicLinkRecord> = []
    }

    private let rows = Mutex(Rows())

    /// An empty backend.
    public init() {}

    public func load(
        entities entity: (EntityRecord) throws -> Void,
        links link: (LinkRecord) throws -> Void,
        dynamicLinks dynamicLink: (DynamicLinkRecord) throws -> Void
    ) throws {
        let (entities, links, dynamicLinks) = rows.withLock {
            (Array($0.entities.values), Array($0.links.values), Array($0.dynamicLinks))
        }
        for record in entities { try entity(record) }
        for record in links { try link(record) }
        for record in dynamicLinks { try dynamicLink(record) }
    }

    public func persist(_ changes: StoreChanges) throws {
        rows.withLock { rows in
            for key in changes.deletedEntities { rows.entities[key] = nil }
            for record in changes.upsertedEntities { rows.entities[EntityKey(type: record.type, id: record.id)] = record }
            for key in changes.deletedLinks { rows.links[key] = nil }
            for record in changes.upsertedLinks { rows.links[record.key] = record }
            for record in changes.deletedDynamicLinks { rows.dynamicLinks.remove(record) }
            for record in changes.insertedDynamicLinks { rows.dynamicLinks.insert(record) }
        }
    }

    public func close() throws {}

    /// The number of stored entity, link and dynamic link rows.
    public var rowCount: (entities: Int, links: Int, dynamicLinks: Int) {
        rows.withLock { ($0.entities.count, $0.links.count, $0.dynamicLinks.count) }
    }
}
