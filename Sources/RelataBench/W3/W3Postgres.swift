import Foundation
import PostgresNIO
import Relata
import RelataPostgres

/// W3 on PostgreSQL: a schema built once through a Store (`relata_w3_<S>`) and one by hand with
/// postgres-nio (`baseline_w3_<S>`: a UNIQUE e-mail, B-tree indexes on age, sent_at and is_read, a
/// GIN index on the text's `tsvector`, ranked by `ts_rank`), each query in fresh processes.
enum W3Postgres {
    static func schemas(_ scale: Double) -> (relata: String, baseline: String) {
        let tag = String(scale).replacingOccurrences(of: ".", with: "_")
        return ("relata_w3_\(tag)", "baseline_w3_\(tag)")
    }

    static func run(url: String, scale: Double, runs: Int) async throws {
        let data = W3Data(scale: scale)
        let (relata, baseline) = schemas(scale)
        let built = try await build(url: url, data)
        do {
            let connection = try await PostgresBaselineW1.connect(url)
            for schema in [relata, baseline] { try await LargeStorePostgresW2.vacuumAndAnalyze(connection, schema: schema) }
            try await connection.close()
        }
        print("W3 at S=\(scale) (\(data.description)) on PostgreSQL: median of \(runs) fresh processes")
        print("  \(pad("query", 34))\(pad("Relata", 12))\(pad("by hand", 12))\(pad("ratio", 9))\(pad("round trips", 12))answers")
        for query in W3Bench.queries {
            let mine = try await LargeStoreW2.medians(runs) { try await LargeStoreW2.child("w3-pg-relata-\(query)", path: "\(url)#\(relata)", scale: scale) }
            let hand = try await LargeStoreW2.medians(runs) { try await LargeStoreW2.child("w3-pg-hand-\(query)", path: "\(url)#\(baseline)", scale: scale) }
            W3Bench.printRows(query, mine, hand)
        }
        if let built {
            print("  \(pad("W  build through Store.write", 34))\(pad(W3Bench.formatFine(built.relata), 12))\(pad(W3Bench.formatFine(built.baseline), 12))"
                + "\(LargeStoreW2.ratio(built.relata, built.baseline))  (writes of 1,000; by hand: UNNEST, the same indexes)")
        }
        print("")
    }

    /// Builds both schemas unless a complete build is there; the build times when built now.
    static func build(url: String, _ data: W3Data) async throws -> (relata: Duration, baseline: Duration)? {
        let (relata, baseline) = schemas(data.scale)
        let connection = try await PostgresBaselineW1.connect(url)
        defer { Task { try? await connection.close() } }
        let done = try await connection.query(
            "SELECT count(*)::int8 FROM information_schema.tables WHERE table_schema = \(baseline) AND table_name = 'w3_built'",
            logger: PostgresBaselineW1.logger
        )
        for try await count in done.decode(Int.self) where count > 0 { return nil }
        try await PostgresBaselineW1.run(connection, "DROP SCHEMA IF EXISTS \(relata) CASCADE")
        var start = ContinuousClock.now
        let store = try await Store(backend: PostgresBackend.connect(url: url, configuration: .init(schema: relata)), schema: EntitySchema(W3Bench.entities))
        try await W3Bench.save(data, to: store)
        try await store.close()
        let relataTime = ContinuousClock.now - start
        start = ContinuousClock.now
        try await save(data, on: connection, schema: baseline)
        let baselineTime = ContinuousClock.now - start
        try await PostgresBaselineW1.run(connection, "CREATE TABLE \(baseline).w3_built (at timestamptz)")
        return (relataTime, baselineTime)
    }

    static func save(_ data: W3Data, on connection: PostgresConnection, schema: String) async throws {
        try await PostgresBaselineW1.run(connection, "DROP SCHEMA IF EXISTS \(schema) CASCADE")
        try await PostgresBaselineW1.run(connection, "CREATE SCHEMA \(schema)")
        for statement in [
            "CREATE TABLE \(schema).users (id text PRIMARY KEY, name text NOT NULL, email text NOT NULL UNIQUE, age int8 NOT NULL)",
            "CREATE INDEX ON \(schema).users (age)",
            "CREATE TABLE \(schema).chat (id text PRIMARY KEY)",
            "CREATE TABLE \(schema).chat_user (chat text NOT NULL, \"user\" text NOT NULL, position int8 NOT NULL, PRIMARY KEY (chat, \"user\"))",
            "CREATE INDEX ON \(schema).chat_user (\"user\")",
            """
            CREATE TABLE \(schema).message (id text PRIMARY KEY, text text NOT NULL, sent_at timestamptz NOT NULL, is_read bool NOT NULL,
                author text NOT NULL, chat text NOT NULL, position int8 NOT NULL)
            """,
            "CREATE INDEX ON \(schema).message (sent_at)",
            "CREATE INDEX ON \(schema).message (is_read)",
            "CREATE INDEX ON \(schema).message (chat, position)",
            "CREATE INDEX ON \(schema).message (author)",
            "CREATE INDEX message_text ON \(schema).message USING gin (to_tsvector('simple', text))",
        ] {
            try await PostgresBaselineW1.run(connection, statement)
        }
        let logger = PostgresBaselineW1.logger
        let users = (0..<data.userCount).map(data.user)
        try await PostgresBaselineW1.run(connection, "BEGIN")
        try await connection.query(
            """
            INSERT INTO \(unescaped: schema).users (id, name, email, age)
            SELECT * FROM UNNEST(\(users.map(\.id))::text[], \(users.map(\.name))::text[], \(users.map(\.email))::text[], \(users.map(\.age))::int8[])
            """,
            logger: logger
        )
        try await connection.query("INSERT INTO \(unescaped: schema).chat (id) SELECT * FROM UNNEST(\((0..<data.chatCount).map { "c\($0)" })::text[])", logger: logger)
        var chats: [String] = [], members: [String] = [], positions: [Int] = []
        for i in 0..<data.chatCount {
            for (position, id) in W1Data.members(chat: i, userCount: data.userCount).enumerated() {
                chats.append("c\(i)"); members.append(id); positions.append(position)
            }
        }
        try await connection.query(
            "INSERT INTO \(unescaped: schema).chat_user (chat, \"user\", position) SELECT * FROM UNNEST(\(chats)::text[], \(members)::text[], \(positions)::int8[])",
            logger: logger
        )
        try await PostgresBaselineW1.run(connection, "COMMIT")
        for first in stride(from: 0, to: data.messageCount, by: 1_000) {
            let numbers = Array(first..<min(first + 1_000, data.messageCount))
            try await connection.query(
                """
                INSERT INTO \(unescaped: schema).message (id, text, sent_at, is_read, author, chat, position)
                SELECT * FROM UNNEST(\(numbers.map { "m\($0)" })::text[], \(numbers.map(W3Data.text))::text[], \(numbers.map(W3Data.sentAt))::timestamptz[],
                    \(numbers.map(W3Data.isRead))::bool[], \(numbers.map { W3Data.author($0, chatCount: data.chatCount, userCount: data.userCount) })::text[],
                    \(numbers.map { "c\($0 % data.chatCount)" })::text[], \(numbers.map { $0 / data.chatCount })::int8[])
                """,
                logger: logger
            )
        }
    }

    // MARK: - Children

    static func runChild(_ probe: String, target: String, scale: Double) async throws {
        let parts = target.split(separator: "#", maxSplits: 1).map(String.init)
        let (url, schema) = (parts[0], parts[1])
        let data = W3Data(scale: scale)
        let query = String(probe.suffix(2))
        let before = residentBytes()
        let start = ContinuousClock.now
        if probe.hasPrefix("w3-pg-relata-") {
            let backend = try await PostgresBackend.connect(url: url, configuration: .init(schema: schema))
            let store = try await Store(backend: backend, schema: EntitySchema(W3Bench.entities))
            try await W3Bench.measure(query, data, start: start, before: before, statements: { backend.statementCount }, answer: W3Bench.answer(store, query, data, W3Queries.self)) { email in
                try await store.read { W3Queries.user(email: email, in: $0) }
            }
            try await store.close()
        } else {
            let connection = try await PostgresBaselineW1.connect(url)
            let trips = RoundTrips()
            let answer: @Sendable () async throws -> [String] = {
                try await Self.answer(query, data, connection: connection, schema: schema, trips: trips)
            }
            try await W3Bench.measure(query, data, start: start, before: before, statements: { trips.count }, answer: answer) { email in
                try await ids("SELECT id FROM \(unescaped: schema).users WHERE email = \(email)", connection, trips).first
            }
            try await connection.close()
        }
    }

    final class RoundTrips: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func add() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    static func ids(_ query: PostgresQuery, _ connection: PostgresConnection, _ trips: RoundTrips) async throws -> [String] {
        trips.add()
        var result: [String] = []
        for try await id in try await connection.query(query, logger: PostgresBaselineW1.logger).decode(String.self) { result.append(id) }
        return result
    }

    /// W3's queries by hand with postgres-nio, one statement each (Q8: its transaction).
    static func answer(_ query: String, _ data: W3Data, connection: PostgresConnection, schema: String, trips: RoundTrips) async throws -> [String] {
        let after = data.after
        let newest: PostgresQuery = "SELECT id FROM \(unescaped: schema).message WHERE sent_at > \(after) ORDER BY sent_at DESC, id DESC LIMIT 20"
        switch query {
        case "Q1": return try await ids("SELECT id FROM \(unescaped: schema).users WHERE email = \(data.lookupEmails()[0])", connection, trips)
        case "Q2": return try await ids(newest, connection, trips)
        case "Q3":
            trips.add()
            var count = 0
            for try await value in try await connection.query("SELECT count(*)::int8 FROM \(unescaped: schema).message WHERE NOT is_read", logger: PostgresBaselineW1.logger).decode(Int.self) { count = value }
            return ["\(count)"]
        case "Q4":
            return try await ids(
                """
                SELECT id FROM \(unescaped: schema).users WHERE age BETWEEN \(W3Data.ages.lowerBound) AND \(W3Data.ages.upperBound)
                ORDER BY name, id LIMIT \(W3Data.page.limit) OFFSET \(W3Data.page.offset)
                """, connection, trips)
        case "Q5":
            let words = W3Data.search.split(separator: " ").joined(separator: " | ")
            return try await ids(
                """
                SELECT id FROM \(unescaped: schema).message WHERE to_tsvector('simple', text) @@ to_tsquery('simple', \(words))
                ORDER BY ts_rank(to_tsvector('simple', text), to_tsquery('simple', \(words))) DESC, id LIMIT 20
                """, connection, trips)
        case "Q6":
            return try await ids("SELECT id FROM \(unescaped: schema).message WHERE strpos(text, \(W3Data.scanned)) > 0 ORDER BY id COLLATE \"C\"", connection, trips)
        case "Q7":
            return try await ids(
                """
                SELECT message.id FROM \(unescaped: schema).message JOIN \(unescaped: schema).users ON users.id = message.author
                WHERE message.sent_at > \(after) ORDER BY message.sent_at DESC, message.id DESC LIMIT 20
                """, connection, trips)
        default:
            let newer = W3Bench.newer(data)
            trips.add()
            try await PostgresBaselineW1.run(connection, "BEGIN")
            trips.add()
            try await connection.query(
                """
                INSERT INTO \(unescaped: schema).message (id, text, sent_at, is_read, author, chat, position)
                SELECT id, text, sent_at, false, 'u0', 'c0', -1 FROM UNNEST(\(newer.map(\.id))::text[], \(newer.map(\.text))::text[], \(newer.map(\.sentAt))::timestamptz[]) AS n(id, text, sent_at)
                """,
                logger: PostgresBaselineW1.logger
            )
            let result = try await ids(newest, connection, trips)
            trips.add()
            try await PostgresBaselineW1.run(connection, "ROLLBACK")
            return result
        }
    }
}
