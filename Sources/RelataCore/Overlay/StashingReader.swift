/// A reader for one read transaction of a ``ContextBase`` that keeps the entity rows read with
/// links (``StorageReader/fetchSourcesAndRows(of:)``, ``StorageReader/fetchLinksAndRows(of:targetType:)``)
/// and answers the fetch of those entities that follows from them: a query resolving a relation
/// with its entities reads each level in one statement, with or without a row cache.
///
/// Made per transaction and dropped with it: the rows are as of the transaction's snapshot.
struct StashingReader: ColumnFilteringReader {
    let reader: any StorageReader
    private let stash = Stash()

    init(_ reader: any StorageReader) {
        self.reader = reader
    }

    private final class Stash {
        var rows: [EntityKey: EntityRecord] = [:]
    }

    private func keep(_ found: LinkedRows) -> LinkedRows {
        for record in found.entities { stash.rows[EntityKey(type: record.type, id: record.id)] = record }
        return found
    }

    func fetchSourcesAndRows(of targets: [LinkTargetKey]) throws -> LinkedRows {
        keep(try reader.fetchSourcesAndRows(of: targets))
    }

    func fetchLinksAndRows(of sources: [LinkSourceKey], targetType: String) throws -> LinkedRows {
        keep(try reader.fetchLinksAndRows(of: sources, targetType: targetType))
    }

    /// Rows read with links come from the stash (each once: the entity is then held by the
    /// context that asked); the others from storage.
    func fetchEntities(_ keys: [EntityKey]) throws -> [EntityRecord] {
        guard !stash.rows.isEmpty else { return try reader.fetchEntities(keys) }
        var found: [EntityRecord] = [], missing: [EntityKey] = []
        for key in keys {
            if let record = stash.rows.removeValue(forKey: key) { found.append(record) } else { missing.append(key) }
        }
        return missing.isEmpty ? found : found + (try reader.fetchEntities(missing))
    }

    // Passed on as they are.

    func prefetch(_ reads: PlannedReads) { reader.prefetch(reads) }

    func load(
        entities entity: (EntityRecord) throws -> Void, links link: (LinkRecord) throws -> Void,
        dynamicLinks dynamicLink: (DynamicLinkRecord) throws -> Void
    ) throws -> Int64 {
        try reader.load(entities: entity, links: link, dynamicLinks: dynamicLink)
    }

    func fetchLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord] { try reader.fetchLinks(of: sources) }
    func fetchLinks(of source: LinkSourceKey, page: ListPage) throws -> [LinkRecord] { try reader.fetchLinks(of: source, page: page) }
    func fetchSources(of targets: [LinkTargetKey]) throws -> [LinkRecord] { try reader.fetchSources(of: targets) }
    func fetchSources(of target: LinkTargetKey, page: ListPage) throws -> [LinkRecord] { try reader.fetchSources(of: target, page: page) }
    func fetchSourceCounts(of targets: [LinkTargetKey]) throws -> [LinkTargetKey: Int] { try reader.fetchSourceCounts(of: targets) }
    func fetchLastLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord] { try reader.fetchLastLinks(of: sources) }
    func fetchLastSources(of targets: [LinkTargetKey]) throws -> [LinkRecord] { try reader.fetchLastSources(of: targets) }
    func fetchEntities(of type: String, after id: String?, limit: Int) throws -> [EntityRecord] {
        try reader.fetchEntities(of: type, after: id, limit: limit)
    }
    func fetchEntities(of type: String, matching filters: [ColumnFilter], after id: String?, limit: Int) throws -> [EntityRecord] {
        try reader.fetchEntities(of: type, prefiltered: filters, after: id, limit: limit)
    }

    func fetchFirstEntities(
        of type: String, matching filters: [ColumnFilter], orderedBy order: [ColumnOrder], count: Int, skipping: Int
    ) throws -> FirstEntityRows? {
        try reader.fetchFirstEntities(of: type, prefiltered: filters, orderedBy: order, count: count, skipping: skipping)
    }

    func countEntities(of type: String, matching filters: [ColumnFilter]) throws -> ColumnCount? {
        try reader.countEntities(of: type, prefiltered: filters)
    }

    func fetchFullText(of type: String, properties: [String], tokens: [String], containing: [Int], excluding: [Int]) throws -> FullTextCandidates? {
        return try reader.fetchFullTextCandidates(of: type, properties: properties, tokens: tokens, containing: containing, excluding: excluding)
    }
    func fetchLinkCounts(of sources: [LinkSourceKey]) throws -> [LinkSourceKey: Int] { try reader.fetchLinkCounts(of: sources) }
    func fetchEntityCount(of type: String) throws -> Int { try reader.fetchEntityCount(of: type) }
    func fetchDynamicLinks(_ links: [DynamicLinkRecord]) throws -> [DynamicLinkRecord] { try reader.fetchDynamicLinks(links) }
    func fetchDynamicLinks(of ends: [EntityKey]) throws -> [DynamicLinkRecord] { try reader.fetchDynamicLinks(of: ends) }
    func holdsDynamicLinks() throws -> Bool { try reader.holdsDynamicLinks() }
    func inventory() throws -> StorageInventory { try reader.inventory() }
    func fetchLinkCount(of relation: StorageInventory.Relation) throws -> Int { try reader.fetchLinkCount(of: relation) }
    func logBounds() throws -> ChangeLogBounds { try reader.logBounds() }
    func logEntries(after sequence: Int64) throws -> [ChangeLogEntry] { try reader.logEntries(after: sequence) }
}
