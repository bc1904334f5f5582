/// How a ``ContextBase`` reads one transaction of storage, or its store's row cache alone.
///
/// - Rows read with links (``StorageReader/fetchSourcesAndRows(of:)``,
///   ``StorageReader/fetchLinksAndRows(of:targetType:)``) are kept for the fetch of those
///   entities that follows: a query resolving a relation with its entities reads each level in
///   one statement, with or without a row cache.
/// - With a ``RowCache``, the keys it holds as of the transaction's sequence are answered from it,
///   the others fetched in one batch and kept. With no transaction (``cacheOnly(_:at:)``), a
///   fetch that misses throws ``Miss``, so a read whose rows are all cached opens no transaction.
///
/// Made per transaction and dropped with it: what it keeps is as of the transaction's snapshot.
struct TransactionReader: ColumnFilteringReader {
    /// A fetch that the cache cannot answer alone.
    struct Miss: Error {}

    let reader: (any StorageReader)?
    let cache: RowCache?
    /// The sequence the cache's answers are as of, checked at each fetch (0 without a cache).
    let sequence: Int64
    private let stash = Stash()

    /// Entity rows read with links, until fetched (each once: the entity is then held by the
    /// context that asked).
    private final class Stash {
        var rows: [EntityKey: EntityRecord] = [:]
    }

    /// A reader of `reader` alone.
    init(_ reader: any StorageReader) {
        self.reader = reader
        cache = nil
        sequence = 0
    }

    /// A reader of `reader` through `cache`, as of `sequence` (the transaction's, which the cache
    /// was brought up to).
    init(_ reader: any StorageReader, cache: RowCache, at sequence: Int64) {
        self.reader = reader
        self.cache = cache
        self.sequence = sequence
    }

    private init(cache: RowCache, at sequence: Int64) {
        reader = nil
        self.cache = cache
        self.sequence = sequence
    }

    /// A reader answering from `cache` alone, as of `sequence`.
    static func cacheOnly(_ cache: RowCache, at sequence: Int64) -> TransactionReader {
        TransactionReader(cache: cache, at: sequence)
    }

    private func source() throws -> any StorageReader {
        guard let reader else { throw Miss() }
        return reader
    }

    /// What the cache holds is not asked for: the fetches answer it from the cache.
    func prefetch(_ reads: PlannedReads) {
        guard let source = try? source() else { return }
        guard let cache else { return source.prefetch(reads) }
        var missed = PlannedReads()
        if !reads.entities.isEmpty {
            let hits = cache.entities(reads.entities, at: sequence)
            missed.entities = Self.missed(reads.entities, hits)
        }
        if !reads.lastSources.isEmpty {
            let hits = cache.lastSources(reads.lastSources, at: sequence)
            missed.lastSources = Self.missed(reads.lastSources, hits)
        }
        if !reads.lastLinks.isEmpty {
            let hits = cache.lastLinks(reads.lastLinks, at: sequence)
            missed.lastLinks = Self.missed(reads.lastLinks, hits)
        }
        if !missed.isEmpty { source.prefetch(missed) }
    }

    /// Rows read with links come from the stash, those the cache holds from it (a key asked
    /// twice gives its row twice then), the others from storage.
    func fetchEntities(_ keys: [EntityKey]) throws -> [EntityRecord] {
        guard !stash.rows.isEmpty else { return try fetchEntities(unstashed: keys) }
        var found: [EntityRecord] = [], missing: [EntityKey] = []
        for key in keys {
            if let record = stash.rows.removeValue(forKey: key) { found.append(record) } else { missing.append(key) }
        }
        return missing.isEmpty ? found : found + (try fetchEntities(unstashed: missing))
    }

    /// The rows of `keys` from the cache, or from storage.
    private func fetchEntities(unstashed keys: [EntityKey]) throws -> [EntityRecord] {
        guard let cache else { return try source().fetchEntities(keys) }
        let hits = cache.entities(keys, at: sequence)
        var found: [EntityRecord] = []
        var missing: [EntityKey] = []
        found.reserveCapacity(keys.count)
        for (index, key) in keys.enumerated() {
            if let hit = hits?[index] {
                if let row = hit { found.append(row) }
            } else {
                missing.append(key)
            }
        }
        guard !missing.isEmpty else { return found }
        if missing.count > 1 { missing = Array(Set(missing)) }
        let read = try source().fetchEntities(missing)
        // Kept: the rows read, and the keys without one as absent (found by a set only when
        // some are).
        var rows: [(EntityKey, EntityRecord?)] = read.map { (EntityKey(type: $0.type, id: $0.id), $0) }
        if read.count < missing.count {
            let present = Set(rows.map { $0.0 })
            rows += missing.filter { !present.contains($0) }.map { ($0, nil) }
        }
        cache.insert(entities: rows, at: sequence)
        found += read
        return found
    }

    func fetchLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord] {
        guard let cache else { return try source().fetchLinks(of: sources) }
        return try lists(
            sources, hits: cache.links(sources, at: sequence), fetch: { try source().fetchLinks(of: $0) },
            key: { LinkSourceKey(type: $0.type, relation: $0.relation, source: $0.source) }, keep: { cache.insert(links: $0, at: sequence) }
        )
    }

    /// A list the cache holds is sliced; a page of another is read from storage and not kept
    /// (the cache holds whole lists only).
    func fetchLinks(of source: LinkSourceKey, page: ListPage) throws -> [LinkRecord] {
        if let list = cache?.links([source], at: sequence)?[0] { return Array(page.slice(list)) }
        return try self.source().fetchLinks(of: source, page: page)
    }

    func fetchSources(of target: LinkTargetKey, page: ListPage) throws -> [LinkRecord] {
        if let list = cache?.sources([target], at: sequence)?[0] { return Array(page.slice(list)) }
        return try source().fetchSources(of: target, page: page)
    }

    func fetchSources(of targets: [LinkTargetKey]) throws -> [LinkRecord] {
        guard let cache else { return try source().fetchSources(of: targets) }
        return try lists(
            targets, hits: cache.sources(targets, at: sequence), fetch: { try source().fetchSources(of: $0) },
            key: { LinkTargetKey(type: $0.type, relation: $0.relation, target: $0.target) }, keep: { cache.insert(sources: $0, at: sequence) }
        )
    }

    func fetchSourcesAndRows(of targets: [LinkTargetKey]) throws -> LinkedRows {
        guard let cache else { return stashRows(try source().fetchSourcesAndRows(of: targets)) }
        return try linked(
            targets, hits: cache.sources(targets, at: sequence), fetch: { try source().fetchSourcesAndRows(of: $0) },
            key: { LinkTargetKey(type: $0.type, relation: $0.relation, target: $0.target) }, end: { EntityKey(type: $0.type, id: $0.source) },
            keep: { cache.insert(sources: $0, at: sequence) }
        )
    }

    func fetchLinksAndRows(of sources: [LinkSourceKey], targetType: String) throws -> LinkedRows {
        guard let cache else { return stashRows(try source().fetchLinksAndRows(of: sources, targetType: targetType)) }
        return try linked(
            sources, hits: cache.links(sources, at: sequence), fetch: { try source().fetchLinksAndRows(of: $0, targetType: targetType) },
            key: { LinkSourceKey(type: $0.type, relation: $0.relation, source: $0.source) }, end: { EntityKey(type: targetType, id: $0.target) },
            keep: { cache.insert(links: $0, at: sequence) }
        )
    }

    /// Stashes the entity rows read with links, for the fetch that follows (with a cache, those
    /// it does not keep).
    private func stashRows(_ found: LinkedRows) -> LinkedRows {
        for record in found.entities { stash.rows[EntityKey(type: record.type, id: record.id)] = record }
        return found
    }

    /// The link rows of each of `keys` as ``lists(_:hits:fetch:key:keep:)`` reads them, with
    /// the entity rows at their `end` for the lists fetched (kept in the cache, an end without a
    /// row as absent); the rows of the lists the cache held are fetched when asked for (from the
    /// cache, most often).
    private func linked<Key: Hashable>(
        _ keys: [Key], hits: [[LinkRecord]?]?, fetch: ([Key]) throws -> LinkedRows, key: (LinkRecord) -> Key,
        end: (LinkRecord) -> EntityKey, keep: ([(Key, [LinkRecord])]) -> Void
    ) throws -> LinkedRows {
        var entities: [EntityRecord] = []
        let links = try lists(keys, hits: hits, fetch: { missing in
            let found = try fetch(missing)
            // Every end with a row (most often all of them: no set), and the others as absent.
            var rows: [(EntityKey, EntityRecord?)] = found.entities.map { (EntityKey(type: $0.type, id: $0.id), $0) }
            if found.entities.count < found.links.count {
                let present = Set(rows.lazy.map { $0.0 })
                var absent = Set<EntityKey>()
                for record in found.links {
                    let key = end(record)
                    if !present.contains(key), absent.insert(key).inserted { rows.append((key, nil)) }
                }
            }
            // What the cache does not keep is stashed for the fetch that follows (a store that
            // keeps no rows, or a level larger than the cache).
            if cache?.insert(entities: rows, at: sequence) != true { _ = stashRows(found) }
            entities = found.entities
            return found.links
        }, key: key, keep: keep)
        return LinkedRows(links: links, entities: entities)
    }

    /// The link rows of each of `keys` (a source's, or a target's), each key's once, in the
    /// order of `keys`: `hits` from the cache (aligned with `keys`), the others fetched in one
    /// batch, grouped by `key` and kept.
    ///
    /// The SQLite and PostgreSQL backends give a batch's rows grouped by key, in the order of the
    /// keys asked for: the rows are grouped by walking both in turn, comparing keys, and by a
    /// dictionary only when they come in another order.
    private func lists<Key: Hashable>(
        _ keys: [Key], hits: [[LinkRecord]?]?, fetch: ([Key]) throws -> [LinkRecord], key: (LinkRecord) -> Key,
        keep: ([(Key, [LinkRecord])]) -> Void
    ) throws -> [LinkRecord] {
        // Each key once (a set only for a batch of several).
        var unique = keys.count > 1 ? Set<Key>(minimumCapacity: keys.count) : []
        var asked: [(index: Int, key: Key)] = []
        asked.reserveCapacity(keys.count)
        for (index, key) in keys.enumerated() where keys.count == 1 || unique.insert(key).inserted { asked.append((index, key)) }
        var missing: [Key] = []
        for (index, key) in asked where hits?[index] == nil { missing.append(key) }
        var read: [[LinkRecord]] = []
        if !missing.isEmpty {
            read = Self.grouped(try fetch(missing), by: missing, key: key)
            keep(Array(zip(missing, read)))
        }
        var result: [LinkRecord] = []
        var next = 0
        for (index, _) in asked {
            if let hit = hits?[index] {
                result += hit
            } else {
                result += read[next]
                next += 1
            }
        }
        return result
    }

    /// `records` grouped by `key`, a group per key of `keys` (distinct), in their order.
    static func grouped<Key: Hashable>(_ records: [LinkRecord], by keys: [Key], key: (LinkRecord) -> Key) -> [[LinkRecord]] {
        var groups = [[LinkRecord]](repeating: [], count: keys.count)
        var slot = 0, start = 0
        // In order: each run of one key's rows is its group (keys without rows skipped).
        while start < records.endIndex {
            let runKey = key(records[start])
            while slot < keys.count, keys[slot] != runKey { slot += 1 }
            guard slot < keys.count else { break }
            var end = start + 1
            while end < records.endIndex, key(records[end]) == runKey { end += 1 }
            groups[slot] = Array(records[start..<end])
            slot += 1
            start = end
        }
        guard start < records.endIndex else { return groups }
        // In another order: by a dictionary.
        var byKey: [Key: [LinkRecord]] = [:]
        for record in records { byKey[key(record), default: []].append(record) }
        return keys.map { byKey[$0] ?? [] }
    }

    func holdsDynamicLinks() throws -> Bool { try source().holdsDynamicLinks() }

    func fetchDynamicLinks(of ends: [EntityKey]) throws -> [DynamicLinkRecord] {
        guard let cache else { return try source().fetchDynamicLinks(of: ends) }
        let hits = cache.dynamicLinks(ends, at: sequence) ?? [:]
        let missing = Array(Set(ends.filter { hits[$0] == nil }))
        var rows = hits
        if !missing.isEmpty {
            var read: [EntityKey: [DynamicLinkRecord]] = Dictionary(uniqueKeysWithValues: missing.map { ($0, []) })
            for record in try source().fetchDynamicLinks(of: missing) {
                for end in [EntityKey(type: record.sourceType, id: record.source), EntityKey(type: record.targetType, id: record.target)] where read[end] != nil {
                    read[end]!.append(record)
                }
            }
            cache.insert(dynamic: read, at: sequence)
            rows.merge(read) { old, _ in old }
        }
        var seen = Set<DynamicLinkRecord>()
        return Set(ends).flatMap { rows[$0] ?? [] }.filter { seen.insert($0).inserted }
    }

    // Not cached: read from storage.

    func load(
        entities entity: (EntityRecord) throws -> Void, links link: (LinkRecord) throws -> Void,
        dynamicLinks dynamicLink: (DynamicLinkRecord) throws -> Void
    ) throws -> Int64 {
        try source().load(entities: entity, links: link, dynamicLinks: dynamicLink)
    }

    func fetchSourceCounts(of targets: [LinkTargetKey]) throws -> [LinkTargetKey: Int] { try source().fetchSourceCounts(of: targets) }

    func fetchEntities(of type: String, after id: String?, limit: Int) throws -> [EntityRecord] {
        try source().fetchEntities(of: type, after: id, limit: limit)
    }

    func fetchEntities(of type: String, matching filters: [ColumnFilter], after id: String?, limit: Int) throws -> [EntityRecord] {
        try source().fetchEntities(of: type, prefiltered: filters, after: id, limit: limit)
    }

    /// Through a cache, where storage pages ids (``ColumnFilteringReader/fetchFirstIDs(of:matching:orderedBy:count:skipping:)``),
    /// the rows of the page are read by id, through the cache: a page read again reads no row.
    func fetchFirstEntities(
        of type: String, matching filters: [ColumnFilter], orderedBy order: [ColumnOrder], count: Int, skipping: Int
    ) throws -> FirstEntityRows? {
        let source = try source()
        guard cache != nil, let paging = source as? any ColumnFilteringReader,
            let first = try paging.fetchFirstIDs(of: type, matching: filters, orderedBy: order, count: count, skipping: skipping)
        else {
            return try source.fetchFirstEntities(of: type, prefiltered: filters, orderedBy: order, count: count, skipping: skipping)
        }
        return try first.rows(of: type) { try fetchEntities($0) }
    }

    func countEntities(of type: String, matching filters: [ColumnFilter]) throws -> ColumnCount? {
        try source().countEntities(of: type, prefiltered: filters)
    }

    func fetchFullText(of type: String, properties: [String], tokens: [String], containing: [Int], excluding: [Int]) throws -> FullTextCandidates? {
        return try source().fetchFullTextCandidates(of: type, properties: properties, tokens: tokens, containing: containing, excluding: excluding)
    }

    func fetchLinkCounts(of sources: [LinkSourceKey]) throws -> [LinkSourceKey: Int] { try source().fetchLinkCounts(of: sources) }

    /// The tails the cache holds (a list's last row, or its tail alone) come from it; the others
    /// from storage, in one batch, and are kept when they are few (see `ListTails`) — never
    /// those of empty lists: a write reads the empty lists of every entity it makes, and appends
    /// to few of them again.
    func fetchLastLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord] {
        guard let cache else { return try source().fetchLastLinks(of: sources) }
        return try lastRows(sources, hits: cache.lastLinks(sources, at: sequence), keptIn: cache, fetch: { try source().fetchLastLinks(of: $0) }) { read in
            ListTails(lastLinks: Dictionary(read.map { (LinkSourceKey(type: $0.type, relation: $0.relation, source: $0.source), $0) }) { _, last in last })
        }
    }

    func fetchLastSources(of targets: [LinkTargetKey]) throws -> [LinkRecord] {
        guard let cache else { return try source().fetchLastSources(of: targets) }
        return try lastRows(targets, hits: cache.lastSources(targets, at: sequence), keptIn: cache, fetch: { try source().fetchLastSources(of: $0) }) { read in
            ListTails(lastSources: Dictionary(read.map { (LinkTargetKey(type: $0.type, relation: $0.relation, target: $0.target), $0) }) { _, last in last })
        }
    }

    /// The tails of `keys`' lists: `hits` (aligned with `keys`), the others fetched in one batch
    /// and kept in `cache`, as `tails` makes them, when they are few.
    private func lastRows<Key: Hashable>(
        _ keys: [Key], hits: [LinkRecord??]?, keptIn cache: RowCache, fetch: ([Key]) throws -> [LinkRecord], tails: ([LinkRecord]) -> ListTails
    ) throws -> [LinkRecord] {
        let missing = Self.missed(keys, hits)
        guard !missing.isEmpty else { return Self.tails(keys, hits) }
        let read = try fetch(missing)
        if missing.count <= RowCache.keptTailsPerWrite { cache.insert(tails: tails(read), at: sequence) }
        return Self.tails(keys, hits) + read
    }

    /// The keys the cache missed (`hits` aligned with `keys`; `nil`: all of them), each once.
    private static func missed<Key: Hashable, Hit>(_ keys: [Key], _ hits: [Hit?]?) -> [Key] {
        Array(Set(keys.indices.filter { hits?[$0] == nil }.map { keys[$0] }))
    }

    /// The cached last row of each list of `keys` (`hits` aligned with them), each key's once.
    private static func tails<Key: Hashable>(_ keys: [Key], _ hits: [LinkRecord??]?) -> [LinkRecord] {
        guard let hits else { return [] }
        var seen = Set<Key>()
        return keys.indices.compactMap { index in hits[index].flatMap { seen.insert(keys[index]).inserted ? $0 : nil } }
    }

    func fetchEntityCount(of type: String) throws -> Int { try source().fetchEntityCount(of: type) }

    func inventory() throws -> StorageInventory { try source().inventory() }

    func fetchLinkCount(of relation: StorageInventory.Relation) throws -> Int { try source().fetchLinkCount(of: relation) }

    func fetchDynamicLinks(_ links: [DynamicLinkRecord]) throws -> [DynamicLinkRecord] { try source().fetchDynamicLinks(links) }

    func logBounds() throws -> ChangeLogBounds { try source().logBounds() }

    func logEntries(after sequence: Int64) throws -> [ChangeLogEntry] { try source().logEntries(after: sequence) }
}
