import Foundation
import Relata
import RelataPostgres

/// W1 on PostgreSQL: save through a `Store` (one write per 1,000 messages), reopen, resolve,
/// delete 100 chats — beside the hand-written postgres-nio baseline in the same run — then
/// several processes on one database.
enum PostgresW1 {
    static func run(url: String, scales: [Double], runs: Int, writesPerProcess: Int) async throws {
        for s in scales { try await runScale(s, url: url, runs: runs) }
        try await SharedStoreBench.run(writesPerProcess: writesPerProcess, postgres: url)
        let connection = try await PostgresBaselineW1.connect(url)
        for schema in ["relata_bench_w1", "baseline_bench_w1", "relata_bench_writers_1", "relata_bench_writers_2", "relata_bench_writers_4",
                       "relata_bench_visibility", "relata_bench_quiet"] {
            try await PostgresBaselineW1.run(connection, "DROP SCHEMA IF EXISTS \(schema) CASCADE")
        }
        try await connection.close()
    }

    /// W1's save alone, into a fresh schema (profiling).
    static func saveOnly(_ data: W1Data, url: String) async throws {
        let connection = try await PostgresBaselineW1.connect(url)
        try await PostgresBaselineW1.run(connection, "DROP SCHEMA IF EXISTS relata_bench_w1 CASCADE")
        try await connection.close()
        let backend = try await PostgresBackend.connect(url: url, configuration: .init(schema: "relata_bench_w1"))
        let store = try await Store(backend: backend, schema: EntitySchema(PersistW1.entities))
        try await PersistW1.save(data, to: store)
        try await store.close()
    }

    static func runScale(_ s: Double, url: String, runs: Int) async throws {
        let data = W1Data(scale: s)
        let input = FloorW1.Input(data)
        let chats = min(100, data.chatCount)
        let schema = "relata_bench_w1", baselineSchema = "baseline_bench_w1"
        let configuration = PostgresBackend.Configuration(schema: schema)
        var relata: [String: [Duration]] = [:], baseline: [String: [Duration]] = [:]
        var resolved = (relata: 0, baseline: 0), left = (relata: 0, baseline: 0)
        let connection = try await PostgresBaselineW1.connect(url)
        for _ in 0..<runs {
            try await PostgresBaselineW1.run(connection, "DROP SCHEMA IF EXISTS \(schema) CASCADE")
            var start = ContinuousClock.now
            let writer = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: EntitySchema(PersistW1.entities))
            try await PersistW1.save(data, to: writer)
            try await writer.close()
            relata["save", default: []].append(ContinuousClock.now - start)
            start = ContinuousClock.now
            let store = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: EntitySchema(PersistW1.entities))
            relata["open", default: []].append(ContinuousClock.now - start)
            relata["resolve", default: []].append(median(runs: 15) { resolved.relata = RelataW1.resolve(store.context, chats: chats) })
            start = ContinuousClock.now
            try await store.write { try RelataW1.delete(&$0, chats: chats) }
            relata["delete", default: []].append(ContinuousClock.now - start)
            left.relata = store.context.count(of: Message.self)
            try await store.close()

            start = ContinuousClock.now
            try await PostgresBaselineW1.save(input, on: connection, schema: baselineSchema, matched: true)
            baseline["save matched", default: []].append(ContinuousClock.now - start)
            start = ContinuousClock.now
            try await PostgresBaselineW1.save(input, on: connection, schema: baselineSchema)
            baseline["save", default: []].append(ContinuousClock.now - start)
            var times: [Duration] = []
            for _ in 0..<5 {
                start = ContinuousClock.now
                resolved.baseline = try await PostgresBaselineW1.resolve(on: connection, schema: baselineSchema, chats: chats)
                times.append(ContinuousClock.now - start)
            }
            baseline["resolve", default: []].append(times.sorted()[2])
            start = ContinuousClock.now
            left.baseline = try await PostgresBaselineW1.delete(on: connection, schema: baselineSchema, chats: chats)
            baseline["delete", default: []].append(ContinuousClock.now - start)
        }
        try await connection.close()
        precondition(resolved.relata == resolved.baseline, "resolve: Relata \(resolved.relata) ≠ baseline \(resolved.baseline)")
        precondition(left.relata == left.baseline, "delete: Relata left \(left.relata) ≠ baseline \(left.baseline)")
        func middle(_ times: [Duration]?) -> Duration? { times.map { $0.sorted()[$0.count / 2] } }
        print("W1 on PostgreSQL at S=\(s) (\(data.description)): Store beside postgres-nio by hand, median of \(runs) runs")
        print("  \(pad("op", 14))\(pad("Relata", 12))\(pad("baseline", 12))ratio")
        let notes = [
            "save": "  (one write per 1,000 messages; the baseline binds arrays and expands them with UNNEST too)",
            "save matched": "  (the baseline with the indexes Relata keeps)",
            "open": "  (connects, reads the catalog and the log; loads no row; the baseline keeps nothing)",
            "resolve": "  (\(resolved.relata) messages: median of 15 on one context over storage, the first reading PostgreSQL; the baseline 3 queries per chat)",
            "delete": "  (100 chats cascading, in one write; \(left.relata) messages left)",
        ]
        for op in ["save", "save matched", "open", "resolve", "delete"] {
            let r = middle(relata[op == "save matched" ? "save" : op])!
            guard let b = middle(baseline[op]) else {
                print("  \(pad(op, 14))\(pad(format(r), 12))\(pad("-", 12))-\(notes[op]!)")
                continue
            }
            let ratio = String(format: "%.2f", r.milliseconds / max(b.milliseconds, 0.0001))
            print("  \(pad(op, 14))\(pad(format(r), 12))\(pad(format(b), 12))Relata/baseline \(ratio)x\(notes[op]!)")
        }
        print("")
    }
}
