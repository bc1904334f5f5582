import Foundation
import PostgresNIO
import Relata
import RelataPostgres

/// Workload W2 on PostgreSQL: W1's data at a large scale in a schema built once and reused
/// (`relata_w2_<S>` through a Store, `baseline_w2_<S>` by hand with postgres-nio); each figure in a
/// fresh process beside its baseline from the same run. The schemas are kept for later runs.
enum LargeStorePostgresW2 {
    static func schemas(_ scale: Double) -> (relata: String, baseline: String) {
        let tag = String(scale).replacingOccurrences(of: ".", with: "_")
        return ("relata_w2_\(tag)", "baseline_w2_\(tag)")
    }

    static func run(url: String, scale: Double, small: Double, runs: Int) async throws {
        for s in [small, scale] {
            if let (relata, baseline) = try await build(url: url, scale: s) {
                print("W2 schemas at S=\(s) built: Store \(format(relata)), postgres-nio by hand \(format(baseline)) (ratio \(LargeStoreW2.ratio(relata, baseline)))")
            }
        }
        let data = W1Data(scale: scale)
        let (relata, baseline) = schemas(scale), (smallRelata, smallBaseline) = schemas(small)
        // Statistics, as autovacuum would gather them on live tables: without them the planner
        // guesses, and joins against a batch of keys may scan a million rows (Store and baseline).
        do {
            let connection = try await PostgresBaselineW1.connect(url)
            for schema in [relata, baseline, smallRelata, smallBaseline] { try await vacuumAndAnalyze(connection, schema: schema) }
            try await connection.close()
        }
        func child(_ probe: String, _ schema: String, _ s: Double) async throws -> LargeStoreW2.Figures {
            try await LargeStoreW2.child(probe, path: "\(url)#\(schema)", scale: s)
        }
        // Each round runs every side once, in turn (see `LargeStoreW2.interleaved`).
        let reads = try await LargeStoreW2.interleaved(runs, [
            { try await child("w2-pg-relata-read", relata, scale) },
            { try await child("w2-pg-baseline-read", baseline, scale) },
            { try await child("w2-pg-relata-read", smallRelata, small) },
            { try await child("w2-pg-baseline-read", smallBaseline, small) },
        ])
        let (read, hand, smallRead, smallHand) = (reads[0], reads[1], reads[2], reads[3])
        let memory = try await LargeStoreW2.medians(1) { try await child("w2-context-resolve", relata, scale) }
        precondition(read["resolved"] == hand["resolved"], "resolve: Relata \(read["resolved"] ?? -1) ≠ baseline \(hand["resolved"] ?? -1)")
        let table = LargeStoreW2.Table()
        print("W2 on PostgreSQL at S=\(scale) (\(data.description)): median of \(runs) fresh processes a figure, the sides of each ratio in turn")
        table.header()
        table.row("open at S=\(scale)", read.time("open"), hand.time("open"), "  (baseline: one connection + SELECT count(*))")
        table.row("open at S=\(small)", smallRead.time("open"), smallHand.time("open"))
        table.row("open S=\(scale) / open S=\(small)", read.time("open"), smallRead.time("open"), "  (Relata against itself)")
        table.memory("RSS after open", read["rss-open"]! - read["rss-before"]!, hand["rss-open"]! - hand["rss-before"]!)
        table.row("cold resolve (\(data.chatCount / 100) chats)", read.time("cold"), hand.time("cold"), "  (by hand: 3 queries per chat; \(read["resolved"]!) messages)")
        table.count("  round trips", read["statements-cold"]!, hand["statements-cold"]!, "(the Store's at open: \(read["statements-open"]!))")
        table.memory("RSS after cold resolve", read["rss-cold"]! - read["rss-before"]!, hand["rss-cold"]! - hand["rss-before"]!)
        table.row("warm resolve (the same chats)", read.time("warm"), memory.time("warm"), "  (baseline: the in-memory Context)")
        table.count("  round trips", read["statements-warm"]!, 0, "(per resolve)")
        table.row("first resolve of another 1%", read.time("other"), hand.time("other"))
        table.memory("peak RSS (VmHWM)", read["rss-peak"]!, hand["rss-peak"]!, "  (whole process)")
        // Point writes, delete and visibility change the store: they run on copies of the kept schemas.
        let (relataCopy, baselineCopy) = ("relata_w2_copy", "baseline_w2_copy")
        let connection = try await PostgresBaselineW1.connect(url)
        try await copySchema(connection, from: relata, to: relataCopy)
        try await copySchema(connection, from: baseline, to: baselineCopy)
        let write = try await child("w2-pg-relata-write", relataCopy, scale)
        let handWrite = try await child("w2-pg-baseline-write", baselineCopy, scale)
        table.row("point write p50 (1,000 writes)", write.time("p50"), handWrite.time("p50"), "  (one message appended to c\(data.chatCount / 2))")
        table.row("point write p99", write.time("p99"), handWrite.time("p99"))
        table.row("point write max", write.time("max"), handWrite.time("max"), "  (first write after open: \(format(write.time("first"))))")
        let delete = try await child("w2-pg-relata-delete", relataCopy, scale)
        let handDelete = try await child("w2-pg-baseline-delete", baselineCopy, scale)
        precondition(delete["left"] == handDelete["left"], "delete: Relata left \(delete["left"] ?? -1) ≠ baseline \(handDelete["left"] ?? -1)")
        table.row("delete \(data.chatCount / 100) chats with cascade", delete.time("delete"), handDelete.time("delete"), "  (by hand: 6 statements in one transaction; \(delete["left"]!) messages left)")
        try await copySchema(connection, from: relata, to: relataCopy)
        let big = try await SharedStoreBench.visibility(path: "\(url)#\(relataCopy)", commits: 200)
        try await PostgresBaselineW1.run(connection, "DROP SCHEMA IF EXISTS relata_w2_visibility CASCADE")
        let fresh = try await SharedStoreBench.visibility(path: "\(url)#relata_w2_visibility", commits: 200)
        table.row("another process's commit seen, p50", LargeStoreW2.percentile(big, 0.5), LargeStoreW2.percentile(fresh, 0.5), "  (woken by NOTIFY; baseline: a store of 1,000 messages)")
        table.row("another process's commit seen, p99", LargeStoreW2.percentile(big, 0.99), LargeStoreW2.percentile(fresh, 0.99))
        let inMB = { (bytes: Int) in Double(bytes) / 1_048_576 }
        // W1's resolve has 6 query nodes (chat, messages, attachment, author id, replies, users).
        Target.report([
            Target("open at S=\(scale) within 1.5x of open at S=\(small)", read.time("open").milliseconds / smallRead.time("open").milliseconds, 1.5, "x"),
            Target("RSS after open within 20 MB of before", inMB(read["rss-open"]! - read["rss-before"]!), 20, " MB"),
            Target("RSS after the cold resolve within 60 MB", inMB(read["rss-cold"]! - read["rss-before"]!), 60, " MB"),
            Target("round trips per nested chat query at most 7 (nodes + 1)", Double(read["statements-cold"]!) / Double(data.chatCount / 100), 7, ""),
            Target("another process's commit seen, p99 at most 20 ms", LargeStoreW2.percentile(big, 0.99).milliseconds, 20, " ms"),
        ])
        for schema in [relataCopy, baselineCopy, "relata_w2_visibility"] {
            try await PostgresBaselineW1.run(connection, "DROP SCHEMA IF EXISTS \(schema) CASCADE")
        }
        try await connection.close()
        print("")
    }

    /// Builds the schemas of `scale` unless a complete build is there; the times, or `nil`.
    static func build(url: String, scale: Double) async throws -> (Duration, Duration)? {
        let (relata, baseline) = schemas(scale)
        let connection = try await PostgresBaselineW1.connect(url)
        defer { Task { try? await connection.close() } }
        let marker = try await connection.query("SELECT pg_catalog.to_regclass(\(baseline + ".w2_built_format2"))::text", logger: PostgresBaselineW1.logger)
        for try await name in marker.decode(String?.self) where name != nil { return nil }
        try await PostgresBaselineW1.run(connection, "DROP SCHEMA IF EXISTS \(relata) CASCADE")
        try await PostgresBaselineW1.run(connection, "DROP SCHEMA IF EXISTS \(baseline) CASCADE")
        let data = W1Data(scale: scale)
        var start = ContinuousClock.now
        let store = try await Store(backend: PostgresBackend.connect(url: url, configuration: .init(schema: relata)), schema: EntitySchema(PersistW1.entities))
        try await PersistW1.save(data, to: store)
        try await store.close()
        let relataTime = ContinuousClock.now - start
        start = ContinuousClock.now
        try await PostgresBaselineW1.save(FloorW1.Input(data), on: connection, schema: baseline)
        let baselineTime = ContinuousClock.now - start
        try await PostgresBaselineW1.run(connection, "CREATE TABLE \(baseline).w2_built_format2 (at timestamptz)")
        return (relataTime, baselineTime)
    }

    /// Vacuums every table of `schema` and gathers its statistics (`VACUUM (ANALYZE)`), on both
    /// sides alike: what autovacuum does to a database after a bulk load. Before it, the first
    /// reads of freshly written rows set their hint bits (writing pages), and an autovacuum could
    /// start in the middle of a run: W3's full-text query took 10–15x longer in the first two
    /// runs after a build, on both sides.
    static func vacuumAndAnalyze(_ connection: PostgresConnection, schema: String) async throws {
        let rows = try await connection.query(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = \(schema) AND table_type = 'BASE TABLE'",
            logger: PostgresBaselineW1.logger
        )
        var tables: [String] = []
        for try await name in rows.decode(String.self) { tables.append(name) }
        for table in tables { try await PostgresBaselineW1.run(connection, "VACUUM (ANALYZE) \(schema).\(table)") }
    }

    /// Copies every table of schema `source` (rows, defaults, keys and indexes) into a new schema
    /// `copy`, and gathers the copies' statistics.
    static func copySchema(_ connection: PostgresConnection, from source: String, to copy: String) async throws {
        try await PostgresBaselineW1.run(connection, "DROP SCHEMA IF EXISTS \(copy) CASCADE")
        try await PostgresBaselineW1.run(connection, "CREATE SCHEMA \(copy)")
        let rows = try await connection.query(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = \(source) AND table_type = 'BASE TABLE'",
            logger: PostgresBaselineW1.logger
        )
        var tables: [String] = []
        for try await name in rows.decode(String.self) where name != "w2_built_format2" { tables.append(name) }
        for table in tables {
            try await PostgresBaselineW1.run(connection, "CREATE TABLE \(copy).\(table) (LIKE \(source).\(table) INCLUDING ALL)")
            try await PostgresBaselineW1.run(connection, "INSERT INTO \(copy).\(table) SELECT * FROM \(source).\(table)")
        }
        try await vacuumAndAnalyze(connection, schema: copy)
        // The schema's functions and triggers (a Store's entity counts), once the rows are in.
        var definitions: [String] = []
        let functions = try await connection.query(
            "SELECT pg_catalog.pg_get_functiondef(p.oid) FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = \(source)",
            logger: PostgresBaselineW1.logger
        )
        for try await definition in functions.decode(String.self) { definitions.append(definition) }
        let triggers = try await connection.query(
            """
            SELECT pg_catalog.pg_get_triggerdef(t.oid) FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = \(source) AND NOT t.tgisinternal
            """,
            logger: PostgresBaselineW1.logger
        )
        for try await definition in triggers.decode(String.self) { definitions.append(definition) }
        for definition in definitions {
            let moved = definition.replacingOccurrences(of: "\"\(source)\".", with: "\"\(copy)\".").replacingOccurrences(of: "\(source).", with: "\(copy).")
            try await PostgresBaselineW1.run(connection, moved)
        }
    }

    static func runChild(_ probe: String, target: String, scale: Double) async throws {
        let parts = target.split(separator: "#", maxSplits: 1).map(String.init)
        let (url, schema) = (parts[0], parts[1])
        let chats = Int(1_000 * scale), users = Int(1_000 * scale)
        let first = 0..<(chats / 100), second = (chats / 100)..<(2 * chats / 100)
        let say = LargeStoreW2.say as (String, Duration) -> Void
        switch probe {
        case "w2-pg-relata-read":
            let before = residentBytes()
            var start = ContinuousClock.now
            let backend = try await PostgresBackend.connect(url: url, configuration: .init(schema: schema))
            let store = try await Store(backend: backend, schema: EntitySchema(PersistW1.entities))
            _ = try! await store.read { $0.entity(Chat.self, id: "c0") != nil }
            say("open", ContinuousClock.now - start)
            LargeStoreW2.say("rss-before", before)
            LargeStoreW2.say("rss-open", residentBytes())
            var statements = backend.statementCount
            LargeStoreW2.say("statements-open", statements)
            for (name, range) in [("cold", first), ("other", second)] {
                start = ContinuousClock.now
                let resolved = try! await store.read { RelataW1.resolve($0, chats: range) }
                say(name, ContinuousClock.now - start)
                LargeStoreW2.say("statements-\(name)", backend.statementCount - statements)
                statements = backend.statementCount
                if name == "cold" {
                    LargeStoreW2.say("resolved", resolved)
                    LargeStoreW2.say("rss-cold", residentBytes())
                    statements = backend.statementCount
                    say("warm", median(runs: 5) { _ = try! store.read { RelataW1.resolve($0, chats: first) } })
                    LargeStoreW2.say("statements-warm", (backend.statementCount - statements) / 5)
                    statements = backend.statementCount
                }
            }
            LargeStoreW2.say("rss-peak", peakResidentBytes())
            try await store.close()
        case "w2-pg-baseline-read":
            let before = residentBytes()
            var start = ContinuousClock.now
            let connection = try await PostgresBaselineW1.connect(url)
            let count = try await connection.query("SELECT count(*)::int8 FROM \(unescaped: schema).message", logger: PostgresBaselineW1.logger)
            for try await _ in count.decode(Int.self) {}
            say("open", ContinuousClock.now - start)
            LargeStoreW2.say("rss-before", before)
            LargeStoreW2.say("rss-open", residentBytes())
            start = ContinuousClock.now
            LargeStoreW2.say("resolved", try await PostgresBaselineW1.resolve(on: connection, schema: schema, chats: first))
            say("cold", ContinuousClock.now - start)
            LargeStoreW2.say("statements-cold", 3 * first.count)  // three queries per chat, by construction
            LargeStoreW2.say("rss-cold", residentBytes())
            start = ContinuousClock.now
            _ = try await PostgresBaselineW1.resolve(on: connection, schema: schema, chats: second)
            say("other", ContinuousClock.now - start)
            LargeStoreW2.say("rss-peak", peakResidentBytes())
            try await connection.close()
        case "w2-pg-relata-write":
            let store = try await Store(backend: PostgresBackend.connect(url: url, configuration: .init(schema: schema)), schema: EntitySchema(PersistW1.entities))
            LargeStoreW2.report(try await LargeStoreW2.pointWrites(store, chats: chats, users: users, prefix: "w2-\(UUID().uuidString.prefix(8))"))
            try await store.close()
        case "w2-pg-relata-delete":
            let store = try await Store(backend: PostgresBackend.connect(url: url, configuration: .init(schema: schema)), schema: EntitySchema(PersistW1.entities))
            let start = ContinuousClock.now
            try await store.write { try RelataW1.delete(&$0, chats: first.count) }
            say("delete", ContinuousClock.now - start)
            LargeStoreW2.say("left", try! await store.read { $0.count(of: Message.self) })
            try await store.close()
        case "w2-pg-baseline-delete":
            let connection = try await PostgresBaselineW1.connect(url)
            let start = ContinuousClock.now
            let left = try await PostgresBaselineW1.delete(on: connection, schema: schema, chats: first.count)
            say("delete", ContinuousClock.now - start)
            LargeStoreW2.say("left", left)
            try await connection.close()
        case "w2-pg-baseline-write":
            let connection = try await PostgresBaselineW1.connect(url)
            let chat = "c\(chats / 2)", run = UUID().uuidString.prefix(8)
            let author = W1Data.members(chat: chats / 2, userCount: users)[0]
            var times: [Duration] = []
            for i in 0..<1_000 {
                let start = ContinuousClock.now
                let id = "w2-\(run)-\(i)", text = "point \(i)"
                try await connection.query(
                    """
                    INSERT INTO \(unescaped: schema).message (id, text, author, chat, position, reply_to)
                    SELECT \(id), \(text), \(author), \(chat), coalesce(max(position), -1) + 1, NULL FROM \(unescaped: schema).message WHERE chat = \(chat)
                    """,
                    logger: PostgresBaselineW1.logger
                )
                times.append(ContinuousClock.now - start)
            }
            try await connection.close()
            LargeStoreW2.report(times)
        default:
            throw SharedStoreBench.Failure(lines: ["unknown probe \(probe)"])
        }
    }
}
