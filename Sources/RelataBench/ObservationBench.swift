import Foundation
import Relata
import RelataPostgres
import Synchronization

/// Observation costs: how soon an observer of a 100,000-message chat hears of one appended
/// message, and what 1,000 observers of other chats add to a commit.
enum ObservationBench {
    static let entities: [any EntityModelProtocol.Type] = [User.self, Chat.self, Message.self, Attachment.self]

    /// `postgres`: also a store on the PostgreSQL server at that URL (in a schema
    /// `relata_bench_observation`, dropped before and after).
    static func run(runs: Int, postgres: String? = nil) async throws {
        print("Observation (times from the write's start)")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("relata-bench-observation.sqlite").path
        removeDatabase(path)
        defer { removeDatabase(path) }
        try await listChange("in-memory store", Store(backend: InMemoryBackend(), schema: EntitySchema(entities), followInterval: nil))
        try await listChange("SQLite store", Store(backend: SQLiteBackend(path: path), schema: EntitySchema(entities), followInterval: nil))
        if let postgres {
            let schema = "relata_bench_observation"
            let connection = try await PostgresBaselineW1.connect(postgres)
            try await PostgresBaselineW1.run(connection, "DROP SCHEMA IF EXISTS \(schema) CASCADE")
            let backend = try await PostgresBackend.connect(url: postgres, configuration: .init(schema: schema))
            try await listChange("PostgreSQL store", Store(backend: backend, schema: EntitySchema(entities), followInterval: nil))
            try await PostgresBaselineW1.run(connection, "DROP SCHEMA IF EXISTS \(schema) CASCADE")
            try await connection.close()
        }

        // Commits to one chat, with and without 1,000 observers of other chats, interleaved.
        var without: [Duration] = [], with: [Duration] = []
        for _ in 0..<max(runs, 3) {
            without.append(try await commits(observers: 0))
            with.append(try await commits(observers: 1_000))
        }
        let a = without.sorted()[without.count / 2], b = with.sorted()[with.count / 2]
        print("  500 commits to one chat of an in-memory store: \(format(a)) with no observer, \(format(b)) with 1,000 observers of other chats (\(String(format: "%.2f", b.milliseconds / a.milliseconds))x; observers idle until the last commit is handed on)")
        print("")
    }

    /// How soon an observer of a 100,000-message chat of `store` hears of one appended message.
    static func listChange(_ name: String, _ store: Store) async throws {
        try await store.write { context in
            try Chat(id: "big").save(to: &context)
            for i in 0..<100_000 { try Message(id: "m\(i)", text: "message \(i)", author: .id("u"), chat: .id("big")).save(to: &context) }
        }
        let delivered = Mutex<[ContinuousClock.Instant]>([])
        let changes = store.observeChanges(of: \Chat.$messages, "big")
        let listening = Task {
            for try await change in changes where !change.isInitial {
                let now = ContinuousClock.now
                delivered.withLock { $0.append(now) }
                precondition(change.insertions.count == 1 && change.count > 100_000)
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        var latencies: [Duration] = [], writes: [Duration] = []
        for i in 0..<200 {
            let before = delivered.withLock { $0.count }
            let start = ContinuousClock.now
            try await store.write { try Message(id: "new\(i)", text: "new", author: .id("u"), chat: .id("big")).save(to: &$0) }
            writes.append(ContinuousClock.now - start)
            while delivered.withLock({ $0.count }) == before { await Task.yield() }
            latencies.append(delivered.withLock { $0.last! } - start)
        }
        listening.cancel()
        func p(_ values: [Duration], _ q: Double) -> String { format(values.sorted()[min(values.count - 1, Int(Double(values.count) * q))]) }
        print("  \(name): one message appended to a 100,000-message chat → its ListChange delivered: p50 \(p(latencies, 0.5)), p99 \(p(latencies, 0.99)) (the write itself: p50 \(p(writes, 0.5)); 200 writes)")
        try await store.close()
    }

    /// The time of 500 writes to chat "x" with `observers` observers of other chats registered,
    /// until the observation queue has handed on the last commit.
    static func commits(observers: Int) async throws -> Duration {
        let store = try await Store(backend: InMemoryBackend(), schema: EntitySchema(entities), followInterval: nil)
        try await store.write { context in
            for i in 0..<1_000 { try Chat(id: "c\(i)").save(to: &context) }
            try Chat(id: "x").save(to: &context)
        }
        var iterators: [StoreObservation<Int>.Iterator] = []
        for i in 0..<observers {
            let iterator = store.observe { $0.count(of: "c\(i)", \Chat.$messages) }.makeAsyncIterator()
            _ = try await iterator.next()
            iterators.append(iterator)
        }
        let last = store.observe { $0.count(of: "x", \Chat.$messages) }.makeAsyncIterator()
        _ = try await last.next()
        let start = ContinuousClock.now
        for i in 0..<500 {
            try await store.write { try Message(id: "m\(i)", text: "hi", author: .id("u"), chat: .id("x")).save(to: &$0) }
        }
        while try await last.next() != 500 {}
        let time = ContinuousClock.now - start
        withExtendedLifetime(iterators) {}
        return time
    }
}
