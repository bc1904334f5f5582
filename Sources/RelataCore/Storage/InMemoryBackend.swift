import Foundation
import Synchronization

/// A ``StorageBackend`` that keeps rows in memory: for tests and previews, and as the reference
/// every other backend must behave like.
///
/// Several stores opened on one `InMemoryBackend` share it like processes share a SQLite file:
/// each is a replica that catches up under the write lock and follows the others' commits.
public final class InMemoryBackend: StorageBackend {
    private struct Rows {
        var entities: [EntityKey: EntityRecord] = [:]
        var links: [LinkSourceKey: [String: LinkRecord]] = [:]
        var dynamicLinks: Set<DynamicLinkRecord> = []
        var log: [(sequence: Int64, origin: String, at: TimeInterval, record: ChangeLogRecord)] = []
        var sequence: Int64 = 0
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

    public func read<T>(_ body: (any StorageReader) throws -> T) throws -> T {
        try body(Transaction(backend: self))
    }

    public func write<T>(_ body: (any StorageTransaction) throws -> T) throws -> T {
        guard writeLock.lock(before: Date(timeIntervalSinceNow: busyTimeout.seconds(atMost: 1e12))) else {
            throw RelataError(code: .storeBusy, entityType: "Store", message: "another write held the in-memory store longer than \(busyTimeout)")
        }
        defer { writeLock.unlock() }
        let transaction = Transaction(backend: self)
        let result = try body(transaction)
        rows.withLock { rows in
            for (changes, origin) in transaction.pending { Self.commit(changes, origin: origin, to: &rows, keeping: logRetention) }
        }
        return result
    }

    public func close() throws {}

    /// The number of stored entity, link and dynamic link rows.
    public var rowCount: (entities: Int, links: Int, dynamicLinks: Int) {
        rows.withLock { ($0.entities.count, $0.links.values.reduce(0) { $0 + $1.count }, $0.dynamicLinks.count) }
    }

    private static func commit(_ changes: StoreChanges, origin: String, to rows: inout Rows, keeping retention: LogRetention) {
        for key in changes.deletedEntities { rows.entities[key] = nil }
        for record in changes.upsertedEntities { rows.entities[EntityKey(type: record.type, id: record.id)] = record }
        for key in changes.deletedLinks {
            let source = LinkSourceKey(type: key.type, relation: key.relation, source: key.source)
            rows.links[source]?[key.target] = nil
            if rows.links[source]?.isEmpty == true { rows.links[source] = nil }
        }
        for record in changes.upsertedLinks {
            rows.links[LinkSourceKey(type: record.type, relation: record.relation, source: record.source), default: [:]][record.target] = record
        }
        for record in changes.deletedDynamicLinks { rows.dynamicLinks.remove(record) }
        for record in changes.insertedDynamicLinks { rows.dynamicLinks.insert(record) }
        rows.sequence += 1
        let now = Date().timeIntervalSince1970
        rows.log.append((rows.sequence, origin, now, ChangeLogRecord(touching: changes)))
        // A prefix only (see LogRetention).
        let cutoff = retention.cutoff(now: now)
        let expired = rows.log.last { $0.at < cutoff }?.sequence
        let bound = retention.pruneBound(last: rows.sequence, newestExpired: expired)
        if let keep = rows.log.firstIndex(where: { $0.sequence > bound }) { rows.log.removeFirst(keep) }
    }

    private final class Transaction: StorageTransaction {
        let backend: InMemoryBackend
        var pending: [(StoreChanges, String)] = []

        init(backend: InMemoryBackend) {
            self.backend = backend
        }

        func load(
            entities entity: (EntityRecord) throws -> Void,
            links link: (LinkRecord) throws -> Void,
            dynamicLinks dynamicLink: (DynamicLinkRecord) throws -> Void
        ) throws -> Int64 {
            let (entities, links, dynamicLinks, sequence) = backend.rows.withLock {
                (Array($0.entities.values), $0.links.values.flatMap(\.values), Array($0.dynamicLinks), $0.sequence)
            }
            for record in entities { try entity(record) }
            for record in links { try link(record) }
            for record in dynamicLinks { try dynamicLink(record) }
            return sequence
        }

        func changes(since sequence: Int64) throws -> CommittedChanges? {
            backend.rows.withLock { rows -> CommittedChanges? in
                guard rows.sequence > sequence else { return nil }
                var changes = CommittedChanges(sequence: rows.sequence)
                guard let first = rows.log.first, first.sequence <= sequence + 1 else {
                    changes.needsReload = true
                    return changes
                }
                for entry in rows.log where entry.sequence > sequence {
                    changes.touched.formUnion(entry.record)
                    changes.origins.append(entry.origin)
                }
                for key in Set(changes.touched.entities) {
                    if let record = rows.entities[key] { changes.entities.append(record) }
                }
                for source in Set(changes.touched.linkSources) {
                    changes.links += rows.links[source]?.values ?? [:].values
                }
                changes.dynamicLinks = Set(changes.touched.dynamicLinks).filter(rows.dynamicLinks.contains).map { $0 }
                return changes
            }
        }

        func persist(_ changes: StoreChanges, origin: String) throws -> Int64 {
            pending.append((changes, origin))
            return backend.rows.withLock { $0.sequence } + Int64(pending.count)
        }
    }
}
