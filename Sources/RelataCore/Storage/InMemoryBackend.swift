import Foundation
import Synchronization

/// A ``StorageBackend`` that keeps rows in memory: for tests and previews, and as the reference
/// every other backend must behave like.
///
/// Several stores opened on one `InMemoryBackend` share it like processes share a SQLite file:
/// each is a replica that catches up under the write lock and follows the others' commits.
public final class InMemoryBackend: StorageBackend {
    /// `true`: the in-memory backend stands in for a server in tests, so that a Store write's
    /// batched reads (see ``StorageBackend/readsCostRoundTrips``) are checked on it too.
    public var readsCostRoundTrips: Bool { true }

    private struct Rows {
        var entities: [EntityKey: EntityRecord] = [:]
        var links: [LinkSourceKey: [String: LinkRecord]] = [:]
        var dynamicLinks: Set<DynamicLinkRecord> = []
        /// The sources of each target through each relation (link rows and to-one columns): the
        /// index a SQL backend reads sources by.
        var sources: [LinkTargetKey: Set<String>] = [:]
        /// The last source of a target's list, for the targets whose last source was asked for:
        /// kept by every commit (a later source replaces it; a change of the last source itself
        /// drops it, to be found again), so appending to a long list does not walk it.
        var lastSources: [LinkTargetKey: LinkRecord] = [:]
        var log: [(sequence: Int64, origin: String, at: TimeInterval, record: ChangeLogRecord)] = []
        var sequence: Int64 = 0

        /// The link from `source` to the target of `key`: its link row, or its to-one column.
        func link(_ key: LinkTargetKey, from source: String) -> LinkRecord? {
            if let row = links[LinkSourceKey(type: key.type, relation: key.relation, source: source)]?[key.target] { return row }
            guard let link = entities[EntityKey(type: key.type, id: source)]?.toOne.first(where: { $0.relation == key.relation }) else {
                return nil
            }
            return LinkRecord(type: key.type, relation: key.relation, source: source, target: link.target, position: nil, inversePosition: link.inversePosition)
        }
    }

    private let rows = Mutex(Rows())
    private let writeLock = NSLock()
    /// Which change log records are kept: older ones are removed as commits are made.
    public let logRetention: LogRetention
    /// How long ``write(_:)`` waits for another writer before it throws ``RelataError/Code/storeBusy``.
    public let busyTimeout: Duration

    /// An empty backend.
    ///
    /// - Parameters:
    ///   - logRetention: Which change log records are kept.
    ///   - busyTimeout: How long a write waits for another one to finish.
    public init(logRetention: LogRetention = .standard, busyTimeout: Duration = .seconds(30)) {
        self.logRetention = logRetention
        self.busyTimeout = busyTimeout
    }

    /// Runs `body` on the rows as they are now: later commits do not change what it reads.
    public func read<T>(_ body: (any StorageReader) throws -> T) throws -> T {
        try body(Transaction(backend: self, rows: rows.withLock { $0 }))
    }

    public func write<T>(_ body: (any StorageTransaction) throws -> T) throws -> T {
        guard writeLock.lock(before: Date(timeIntervalSinceNow: busyTimeout.seconds(atMost: 1e12))) else {
            throw RelataError(code: .storeBusy, entityType: "Store", message: "another write held the in-memory store longer than \(busyTimeout)")
        }
        defer { writeLock.unlock() }
        var transaction: Transaction? = Transaction(backend: self, rows: rows.withLock { $0 })
        let result = try body(transaction!)
        let pending = transaction!.pending
        // The transaction's copy of the rows goes before the commit changes them: held, it would
        // make the commit copy every table it touches (all of a type's rows, per write).
        transaction = nil
        rows.withLock { rows in
            for (changes, record, origin) in pending { Self.commit(changes, record: record, origin: origin, to: &rows, keeping: logRetention) }
        }
        return result
    }

    public func close() throws {}

    /// Keeps lists' last sources found by a transaction that read the newest commit.
    private func remember(lastSources found: [LinkTargetKey: LinkRecord], asOf sequence: Int64) {
        rows.withLock { rows in
            guard rows.sequence == sequence else { return }
            rows.lastSources.merge(found) { $1 }
        }
    }

    /// The sequence of the newest commit: every commit changes it.
    public func commitToken() throws -> Int64? {
        rows.withLock { $0.sequence }
    }

    /// The number of stored entity, link and dynamic link rows.
    public var rowCount: (entities: Int, links: Int, dynamicLinks: Int) {
        rows.withLock { ($0.entities.count, $0.links.values.reduce(0) { $0 + $1.count }, $0.dynamicLinks.count) }
    }

    private static func commit(_ changes: StoreChanges, record: ChangeLogRecord, origin: String, to rows: inout Rows, keeping retention: LogRetention) {
        var touched: [(LinkTargetKey, String)] = []
        func index(_ type: String, _ relation: String, _ source: String, _ target: String, _ present: Bool) {
            let key = LinkTargetKey(type: type, relation: relation, target: target)
            if rows.lastSources[key] != nil { touched.append((key, source)) }
            if present {
                rows.sources[key, default: []].insert(source)
            } else {
                rows.sources[key]?.remove(source)
                if rows.sources[key]?.isEmpty == true { rows.sources[key] = nil }
            }
        }
        func replace(_ key: EntityKey, with record: EntityRecord?) {
            for link in rows.entities[key]?.toOne ?? [] { index(key.type, link.relation, key.id, link.target, false) }
            rows.entities[key] = record
            for link in record?.toOne ?? [] { index(key.type, link.relation, key.id, link.target, true) }
        }
        for key in changes.deletedEntities { replace(key, with: nil) }
        for record in changes.upsertedEntities { replace(EntityKey(type: record.type, id: record.id), with: record) }
        for key in changes.deletedLinks {
            let source = LinkSourceKey(type: key.type, relation: key.relation, source: key.source)
            rows.links[source]?[key.target] = nil
            if rows.links[source]?.isEmpty == true { rows.links[source] = nil }
            index(key.type, key.relation, key.source, key.target, false)
        }
        for record in changes.upsertedLinks {
            rows.links[LinkSourceKey(type: record.type, relation: record.relation, source: record.source), default: [:]][record.target] = record
            index(record.type, record.relation, record.source, record.target, true)
        }
        for (key, source) in touched {
            guard let last = rows.lastSources[key] else { continue }
            if last.source == source {
                rows.lastSources[key] = nil
            } else if let link = rows.link(key, from: source), LinkRecord.inverseOrder(last, link) {
                rows.lastSources[key] = link
            }
        }
        for record in changes.deletedDynamicLinks { rows.dynamicLinks.remove(record) }
        for record in changes.insertedDynamicLinks { rows.dynamicLinks.insert(record) }
        rows.sequence += 1
        let now = Date().timeIntervalSince1970
        rows.log.append((rows.sequence, origin, now, record))
        // A prefix only (see LogRetention).
        let cutoff = retention.cutoff(now: now)
        let unexpired = rows.log.first { $0.at >= cutoff }?.sequence
        let bound = retention.pruneBound(last: rows.sequence, firstUnexpired: unexpired)
        if let keep = rows.log.firstIndex(where: { $0.sequence > bound }) { rows.log.removeFirst(keep) }
    }

    private final class Transaction: StorageTransaction {
        let backend: InMemoryBackend
        /// The committed rows when the transaction began (copy-on-write: a copy costs nothing
        /// until a commit changes the backend's rows).
        let rows: Rows
        var pending: [(StoreChanges, ChangeLogRecord, String)] = []

        init(backend: InMemoryBackend, rows: Rows) {
            self.backend = backend
            self.rows = rows
        }

        func load(
            entities entity: (EntityRecord) throws -> Void,
            links link: (LinkRecord) throws -> Void,
            dynamicLinks dynamicLink: (DynamicLinkRecord) throws -> Void
        ) throws -> Int64 {
            for record in rows.entities.values { try entity(record) }
            for records in rows.links.values { for record in records.values { try link(record) } }
            for record in rows.dynamicLinks { try dynamicLink(record) }
            return rows.sequence
        }

        func fetchEntities(_ keys: [EntityKey]) throws -> [EntityRecord] {
            keys.compactMap { rows.entities[$0] }
        }

        func fetchLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord] {
            sources.flatMap { source in
                (rows.links[source].map { Array($0.values) } ?? []).sorted(by: LinkRecord.positionOrder)
            }
        }

        func fetchSources(of targets: [LinkTargetKey]) throws -> [LinkRecord] {
            let found = sources(of: targets)
            return targets.flatMap { (found[$0] ?? []).sorted(by: LinkRecord.inverseOrder) }
        }

        /// The last link of each list: O(n) for a list of n, not a sort of it.
        func fetchLastLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord] {
            Set(sources).compactMap { rows.links[$0]?.values.max(by: LinkRecord.positionOrder) }
        }

        /// The last source of each target's list: kept by the backend once found (O(n) for a
        /// list of n the first time, then O(1) while its last source stays).
        func fetchLastSources(of targets: [LinkTargetKey]) throws -> [LinkRecord] {
            var lasts: [LinkRecord] = [], found: [LinkTargetKey: LinkRecord] = [:]
            for key in Set(targets) {
                if let last = rows.lastSources[key] {
                    lasts.append(last)
                } else if let last = (rows.sources[key] ?? []).compactMap({ rows.link(key, from: $0) }).max(by: LinkRecord.inverseOrder) {
                    lasts.append(last)
                    found[key] = last
                }
            }
            if !found.isEmpty { backend.remember(lastSources: found, asOf: rows.sequence) }
            return lasts
        }

        func fetchSourceCounts(of targets: [LinkTargetKey]) throws -> [LinkTargetKey: Int] {
            sources(of: targets).mapValues(\.count).filter { $0.value > 0 }
        }

        /// The links to each of `targets`, found through the sources index.
        private func sources(of targets: [LinkTargetKey]) -> [LinkTargetKey: [LinkRecord]] {
            var found: [LinkTargetKey: [LinkRecord]] = [:]
            for key in Set(targets) {
                for source in rows.sources[key] ?? [] {
                    if let link = rows.link(key, from: source) { found[key, default: []].append(link) }
                }
            }
            return found
        }

        func holdsDynamicLinks() throws -> Bool { !rows.dynamicLinks.isEmpty }

        func fetchDynamicLinks(of ends: [EntityKey]) throws -> [DynamicLinkRecord] {
            let ends = Set(ends)
            return rows.dynamicLinks.filter {
                ends.contains(EntityKey(type: $0.sourceType, id: $0.source)) || ends.contains(EntityKey(type: $0.targetType, id: $0.target))
            }
        }

        func fetchEntities(of type: String, after id: String?, limit: Int) throws -> [EntityRecord] {
            let page = rows.entities.values.filter { record in
                record.type == type && (id.map { $0.utf8.lexicographicallyPrecedes(record.id.utf8) } ?? true)
            }
            return Array(page.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }.prefix(max(0, limit)))
        }

        func fetchLinkCounts(of sources: [LinkSourceKey]) throws -> [LinkSourceKey: Int] {
            var counts: [LinkSourceKey: Int] = [:]
            for source in sources { if let links = rows.links[source], !links.isEmpty { counts[source] = links.count } }
            return counts
        }

        func fetchEntityCount(of type: String) throws -> Int {
            rows.entities.values.count { $0.type == type && $0.hasEntity }
        }

        func fetchDynamicLinks(_ links: [DynamicLinkRecord]) throws -> [DynamicLinkRecord] {
            links.filter(rows.dynamicLinks.contains)
        }

        /// The sequence of the newest commit this transaction's rows hold (``InMemoryBackend/commitToken()``).
        func commitToken() throws -> Int64? {
            rows.sequence
        }

        func logBounds() throws -> ChangeLogBounds {
            ChangeLogBounds(last: rows.sequence, pruned: (rows.log.first?.sequence ?? rows.sequence + 1) - 1)
        }

        func logEntries(after sequence: Int64) throws -> [ChangeLogEntry] {
            // Sequences have no gaps here: each record follows the one before it.
            rows.log.filter { $0.sequence > sequence }.map {
                ChangeLogEntry(sequence: $0.sequence, origin: $0.origin, record: StoredChangeLogRecord($0.record, after: $0.sequence - 1).encoded())
            }
        }

        func persist(_ changes: StoreChanges, record: ChangeLogRecord, origin: String) throws -> Int64 {
            pending.append((changes, record, origin))
            return rows.sequence + Int64(pending.count)
        }
    }
}
