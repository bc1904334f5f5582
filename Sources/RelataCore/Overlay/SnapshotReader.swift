/// A reader that answers only what is unchanged since a snapshot: every fetch whose rows a later
/// commit touched (see ``SnapshotChanges``) throws ``RelataError/Code/staleSnapshot`` instead of
/// returning rows of a newer state.
struct SnapshotReader: ColumnFilteringReader {
    let reader: any StorageReader
    let changes: SnapshotChanges

    private func stale(_ type: String, _ id: String? = nil, relation: String? = nil) -> RelataError {
        let what = changes.unknowable ? "the change log no longer says what changed" : "a later commit changed it"
        return RelataError(
            code: .staleSnapshot, entityType: type, id: id, relation: relation,
            message: "this context answers as of sequence \(changes.sequence) and had not read this yet; \(what): take a new context from the store"
        )
    }

    private func check<Key>(_ keys: [Key], in touched: Set<Key>, _ error: (Key) -> RelataError) throws {
        if changes.unknowable, let key = keys.first { throw error(key) }
        for key in keys where touched.contains(key) { throw error(key) }
    }

    func load(
        entities entity: (EntityRecord) throws -> Void, links link: (LinkRecord) throws -> Void,
        dynamicLinks dynamicLink: (DynamicLinkRecord) throws -> Void
    ) throws -> Int64 {
        guard changes.isUnchanged else { throw stale("Store") }
        return try reader.load(entities: entity, links: link, dynamicLinks: dynamicLink)
    }

    func fetchEntities(_ keys: [EntityKey]) throws -> [EntityRecord] {
        try check(keys, in: changes.entities) { stale($0.type, $0.id) }
        return try reader.fetchEntities(keys)
    }

    func fetchLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord] {
        try check(sources, in: changes.linkSources) { stale($0.type, $0.source, relation: $0.relation) }
        return try reader.fetchLinks(of: sources)
    }

    func fetchLinks(of source: LinkSourceKey, page: ListPage) throws -> [LinkRecord] {
        try check([source], in: changes.linkSources) { stale($0.type, $0.source, relation: $0.relation) }
        return try reader.fetchLinks(of: source, page: page)
    }

    func fetchSources(of targets: [LinkTargetKey]) throws -> [LinkRecord] {
        try check(targets, in: changes.linkTargets) { stale($0.type, $0.target, relation: $0.relation) }
        return try reader.fetchSources(of: targets)
    }

    func fetchSources(of target: LinkTargetKey, page: ListPage) throws -> [LinkRecord] {
        try check([target], in: changes.linkTargets) { stale($0.type, $0.target, relation: $0.relation) }
        return try reader.fetchSources(of: target, page: page)
    }

    func fetchSourcesAndRows(of targets: [LinkTargetKey]) throws -> LinkedRows {
        try check(targets, in: changes.linkTargets) { stale($0.type, $0.target, relation: $0.relation) }
        return unchangedRows(try reader.fetchSourcesAndRows(of: targets))
    }

    func fetchLinksAndRows(of sources: [LinkSourceKey], targetType: String) throws -> LinkedRows {
        try check(sources, in: changes.linkSources) { stale($0.type, $0.source, relation: $0.relation) }
        return unchangedRows(try reader.fetchLinksAndRows(of: sources, targetType: targetType))
    }

    /// `found` without the rows of entities changed since the snapshot: fetching one of those
    /// by itself then refuses it, as any other read of it does.
    private func unchangedRows(_ found: LinkedRows) -> LinkedRows {
        guard !changes.entities.isEmpty else { return found }
        var found = found
        found.entities.removeAll { changes.entities.contains(EntityKey(type: $0.type, id: $0.id)) }
        return found
    }

    func fetchSourceCounts(of targets: [LinkTargetKey]) throws -> [LinkTargetKey: Int] {
        try check(targets, in: changes.linkTargets) { stale($0.type, $0.target, relation: $0.relation) }
        return try reader.fetchSourceCounts(of: targets)
    }

    func fetchEntities(of type: String, after id: String?, limit: Int) throws -> [EntityRecord] {
        try check([type], in: changes.entityTypes) { stale($0) }
        return try reader.fetchEntities(of: type, after: id, limit: limit)
    }

    func fetchEntities(of type: String, matching filters: [ColumnFilter], after id: String?, limit: Int) throws -> [EntityRecord] {
        try check([type], in: changes.entityTypes) { stale($0) }
        return try reader.fetchEntities(of: type, prefiltered: filters, after: id, limit: limit)
    }

    func fetchFirstEntities(
        of type: String, matching filters: [ColumnFilter], orderedBy order: [ColumnOrder], count: Int, skipping: Int
    ) throws -> FirstEntityRows? {
        try check([type], in: changes.entityTypes) { stale($0) }
        return try reader.fetchFirstEntities(of: type, prefiltered: filters, orderedBy: order, count: count, skipping: skipping)
    }

    func countEntities(of type: String, matching filters: [ColumnFilter]) throws -> ColumnCount? {
        try check([type], in: changes.entityTypes) { stale($0) }
        return try reader.countEntities(of: type, prefiltered: filters)
    }

    func fetchFullText(of type: String, properties: [String], tokens: [String], containing: [Int], excluding: [Int]) throws -> FullTextCandidates? {
        try check([type], in: changes.entityTypes) { stale($0) }
        return try reader.fetchFullTextCandidates(of: type, properties: properties, tokens: tokens, containing: containing, excluding: excluding)
    }

    func fetchLastLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord] {
        try check(sources, in: changes.linkSources) { stale($0.type, $0.source, relation: $0.relation) }
        return try reader.fetchLastLinks(of: sources)
    }

    func fetchLastSources(of targets: [LinkTargetKey]) throws -> [LinkRecord] {
        try check(targets, in: changes.linkTargets) { stale($0.type, $0.target, relation: $0.relation) }
        return try reader.fetchLastSources(of: targets)
    }

    func fetchLinkCounts(of sources: [LinkSourceKey]) throws -> [LinkSourceKey: Int] {
        try check(sources, in: changes.linkSources) { stale($0.type, $0.source, relation: $0.relation) }
        return try reader.fetchLinkCounts(of: sources)
    }

    func fetchEntityCount(of type: String) throws -> Int {
        try check([type], in: changes.entityTypes) { stale($0) }
        return try reader.fetchEntityCount(of: type)
    }

    func fetchDynamicLinks(_ links: [DynamicLinkRecord]) throws -> [DynamicLinkRecord] {
        try check(links, in: changes.dynamicLinks) { stale($0.sourceType, $0.source, relation: "dynamic \($0.kind)") }
        return try reader.fetchDynamicLinks(links)
    }

    func fetchDynamicLinks(of ends: [EntityKey]) throws -> [DynamicLinkRecord] {
        try check(ends, in: changes.dynamicEnds) { stale($0.type, $0.id, relation: "dynamic") }
        return try reader.fetchDynamicLinks(of: ends)
    }

    func logBounds() throws -> ChangeLogBounds { try reader.logBounds() }

    func logEntries(after sequence: Int64) throws -> [ChangeLogEntry] { try reader.logEntries(after: sequence) }
}
