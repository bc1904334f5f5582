import Foundation

/// Reads a storage inside one transaction of ``StorageBackend/read(_:)`` or
/// ``StorageBackend/write(_:)``.
///
/// A backend answers a few questions about rows — every row (``load(entities:links:dynamicLinks:)``),
/// rows by key in batches (``fetchEntities(_:)``, ``fetchLinks(of:)``, ``fetchDynamicLinks(_:)``)
/// and the change log (``logBounds()``, ``logEntries(after:)``); what a store does with the log
/// (``changes(since:)``: which commits it missed, a damaged record, a pruned log) is written once,
/// above every backend.
///
/// A batch of keys names each key once (Relata makes sure of it): a backend need not remove
/// repeated keys, and one that answers a repeated key twice returns its rows twice.
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

    /// The stored rows of those of `keys` that exist, in any order; one statement (or round
    /// trip) for the whole batch.
    func fetchEntities(_ keys: [EntityKey]) throws -> [EntityRecord]

    /// Every link row of each of `sources`: the rows of one source together, in position order
    /// (a row without a position first; ties by target, bytewise); one statement for the whole
    /// batch.
    func fetchLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord]

    /// The link rows of `source` in `page` of its list (the rows ``fetchLinks(of:)`` returns for
    /// it, in that order), read by index: a page of a long list reads the page's rows only. The
    /// default implementation reads the whole list and slices it.
    func fetchLinks(of source: LinkSourceKey, page: ListPage) throws -> [LinkRecord]

    /// Every link stored through each target's `type` and `relation` (the side that stores the
    /// links) to its `target`: a to-many relation's link rows, or a to-one relation's links from
    /// the entity rows of `type` (with no `position`). The sources of one target come together,
    /// in their order in the target's list (``LinkRecord/inverseOrder(_:_:)``); one statement per
    /// relation for the whole batch, read by index.
    func fetchSources(of targets: [LinkTargetKey]) throws -> [LinkRecord]

    /// The links ``fetchSources(of:)`` returns for `target`, in `page` of them (their order is
    /// the target's list), read by index: a page of a long list reads the page's rows only. The
    /// default implementation reads them all and slices them.
    func fetchSources(of target: LinkTargetKey, page: ListPage) throws -> [LinkRecord]

    /// What ``fetchSources(of:)`` returns, with the entity rows of the links' sources (of each
    /// key's `type`): a query resolving the entities of a relation reads both in one statement.
    /// The default implementation fetches the links, then the rows.
    func fetchSourcesAndRows(of targets: [LinkTargetKey]) throws -> LinkedRows

    /// What ``fetchLinks(of:)`` returns, with the entity rows of the links' targets, of
    /// `targetType`: a query resolving the entities of a relation reads both in one statement.
    /// The default implementation fetches the links, then the rows.
    func fetchLinksAndRows(of sources: [LinkSourceKey], targetType: String) throws -> LinkedRows

    /// How many links ``fetchSources(of:)`` would return for each of `targets` (a target without
    /// any is left out), counted on the index.
    func fetchSourceCounts(of targets: [LinkTargetKey]) throws -> [LinkTargetKey: Int]

    /// The last link of each of `sources`' lists (what ``fetchLinks(of:page:)`` gives for
    /// `.last(1)`): what appending after each list needs, read by index in one statement per
    /// relation; a source whose list is empty has none. The default implementation asks for each
    /// source's page.
    func fetchLastLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord]

    /// The last link of each of `targets`' lists of sources (what ``fetchSources(of:page:)``
    /// gives for `.last(1)`), read by index in one statement per relation. The default
    /// implementation asks for each target's page.
    func fetchLastSources(of targets: [LinkTargetKey]) throws -> [LinkRecord]

    /// Up to `limit` entity rows of `type` whose ids come after `id` (all of them when `nil`),
    /// in id order — the ids' UTF-8 bytes compared as unsigned bytes, on every backend — so that
    /// pages read one after another visit every row of the type once.
    func fetchEntities(of type: String, after id: String?, limit: Int) throws -> [EntityRecord]

    /// How many link rows each of `sources` has (a source without rows is left out); one
    /// statement for the whole batch, counted on the link index, never by reading the rows.
    func fetchLinkCounts(of sources: [LinkSourceKey]) throws -> [LinkSourceKey: Int]

    /// How many entities of `type` are stored: rows that hold an entity (``EntityRecord/hasEntity``),
    /// counted without reading them (SQLite and PostgreSQL keep the counts in a table their writes
    /// maintain).
    func fetchEntityCount(of type: String) throws -> Int

    /// Those of `links` that are stored; one statement for the whole batch.
    func fetchDynamicLinks(_ links: [DynamicLinkRecord]) throws -> [DynamicLinkRecord]

    /// Every stored dynamic relationship whose source or target is one of `ends`, each once; one
    /// statement for the whole batch, read by index.
    func fetchDynamicLinks(of ends: [EntityKey]) throws -> [DynamicLinkRecord]

    /// Whether any dynamic relationship is stored: `false` tells a context that every
    /// ``fetchDynamicLinks(of:)`` would answer nothing, so an erasure of many entities skips
    /// reading theirs. One statement, read by index. The default answers `true`, which is
    /// always right (it only costs those reads).
    func holdsDynamicLinks() throws -> Bool

    /// What the storage holds, by kind (see ``StorageInventory``): read from a catalog where the
    /// backend has one, never row by row there; the default implementation reads every row.
    func inventory() throws -> StorageInventory

    /// How many links `relation` (a relation the ``inventory()`` lists) stores: the rows of its
    /// link table, or its type's entity rows whose column for it holds a target. Called at open
    /// for the relations a schema does not know, to count them in ``Store/ignoredRecords``.
    func fetchLinkCount(of relation: StorageInventory.Relation) throws -> Int

    /// The newest sequence in the change log, and the newest sequence whose record is gone.
    func logBounds() throws -> ChangeLogBounds

    /// The change log's records after `sequence`, oldest first. A record whose origin or bytes
    /// cannot be read comes with `nil` there (the store then reloads every row).
    func logEntries(after sequence: Int64) throws -> [ChangeLogEntry]

    /// The backend's commit token (``StorageBackend/commitToken()``) as of this transaction's
    /// state: a later `commitToken()` equal to it says nothing was committed since, so a new
    /// read may answer from the rows the store cached as of this transaction's newest commit
    /// without opening one. Read in the transaction, it costs no transaction of its own (SQLite:
    /// `PRAGMA data_version` on the transaction's connection). The default answers `nil` (the
    /// store then never answers a new read from its cache alone); a backend answers it when its
    /// `commitToken()` answers.
    func commitToken() throws -> Int64?

    /// Tells the reader the reads that come next: a backend whose reads are round trips may send
    /// them now, together, and answer those calls from what came back (the PostgreSQL backend
    /// does, in a write). The calls that follow must answer exactly as without it; a failure
    /// shows in them. The default implementation does nothing.
    func prefetch(_ reads: PlannedReads)

    /// Whether storage holds the indexes `indexes` declares (by type name) and no other, so that
    /// ``StorageTransaction/keepIndexes(_:)`` would change nothing: a ``Store`` asks it when it
    /// opens, and takes the write lock to keep them only when it does not (an open then waits
    /// for no other process's write). The default says no.
    func holdsIndexes(_ indexes: [String: [StoredIndex]]) throws -> Bool
}

extension StorageReader {
    public func prefetch(_ reads: PlannedReads) {}

    public func commitToken() throws -> Int64? { nil }

    public func holdsIndexes(_ indexes: [String: [StoredIndex]]) throws -> Bool { false }

    public func fetchLinks(of source: LinkSourceKey, page: ListPage) throws -> [LinkRecord] {
        Array(page.slice(try fetchLinks(of: [source])))
    }

    public func fetchSources(of target: LinkTargetKey, page: ListPage) throws -> [LinkRecord] {
        Array(page.slice(try fetchSources(of: [target])))
    }

    public func fetchSourcesAndRows(of targets: [LinkTargetKey]) throws -> LinkedRows {
        let links = try fetchSources(of: targets)
        return LinkedRows(links: links, entities: try rows(of: links.map { EntityKey(type: $0.type, id: $0.source) }))
    }

    public func fetchLinksAndRows(of sources: [LinkSourceKey], targetType: String) throws -> LinkedRows {
        let links = try fetchLinks(of: sources)
        return LinkedRows(links: links, entities: try rows(of: links.map { EntityKey(type: targetType, id: $0.target) }))
    }

    /// The rows of `keys`, each asked for once (none asked for when there is no key).
    private func rows(of keys: [EntityKey]) throws -> [EntityRecord] {
        let unique = Array(Set(keys))
        return unique.isEmpty ? [] : try fetchEntities(unique)
    }

    /// `true`: storage may hold dynamic relationships (see ``StorageReader/holdsDynamicLinks()``).
    public func holdsDynamicLinks() throws -> Bool { true }

    public func fetchLastLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord] {
        try Set(sources).flatMap { try fetchLinks(of: $0, page: .last(1)) }
    }

    public func fetchLastSources(of targets: [LinkTargetKey]) throws -> [LinkRecord] {
        try Set(targets).flatMap { try fetchSources(of: $0, page: .last(1)) }
    }

    /// The commits after `sequence`: the keys they touched and the rows stored under those keys
    /// now; `nil` when there is none. When the log no longer holds every such commit (pruned),
    /// or holds a record that cannot be read, the result says ``CommittedChanges/needsReload``
    /// and carries no rows.
    public func changes(since sequence: Int64) throws -> CommittedChanges? {
        try changes(since: sequence, bounds: try logBounds())
    }

    /// ``changes(since:)``, with the log's `bounds` read already in this transaction (and its
    /// records, when `log` answers).
    func changes(since sequence: Int64, bounds: ChangeLogBounds, log: ChangeLogCursor.Read? = nil) throws -> CommittedChanges? {
        guard bounds.last > sequence else { return nil }
        // Pruned, damaged or missing records cannot say what their commits touched: the rows
        // themselves are the truth, so the store loads them all again.
        guard case .commits(let commits) = try ChangeLogCursor.commits(after: sequence, bounds: bounds, in: self, known: log) else {
            return CommittedChanges.reload(at: bounds.last)
        }
        var changes = CommittedChanges(sequence: bounds.last)
        for commit in commits {
            guard let origin = commit.origin else { return CommittedChanges.reload(at: bounds.last) }
            changes.origins.append(origin)
            changes.touched.formUnion(commit.record)
        }
        let entities = Array(Set(changes.touched.entities))
        if !entities.isEmpty { changes.entities = try fetchEntities(entities) }
        let sources = Array(Set(changes.touched.linkSources))
        if !sources.isEmpty { changes.links = try fetchLinks(of: sources) }
        let dynamicLinks = Array(Set(changes.touched.dynamicLinks))
        if !dynamicLinks.isEmpty { changes.dynamicLinks = try fetchDynamicLinks(dynamicLinks) }
        return changes
    }
}
