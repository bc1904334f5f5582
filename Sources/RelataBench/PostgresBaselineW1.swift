import Foundation
import Logging
import PostgresNIO

/// The hand-written postgres-nio baseline of W1 on PostgreSQL: the same normalized tables as the
/// GRDB baseline (one per type, to-one relations as columns, one link table per to-many
/// relation), written with arrays bound and expanded by `UNNEST` — one statement per table per
/// write, as a careful author would — and read back with three queries per chat.
enum PostgresBaselineW1 {
    static let logger = Logger(label: "relata-bench.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    static func connect(_ url: String) async throws -> PostgresConnection {
        guard let components = URLComponents(string: url), let host = components.host else { throw BenchError("not a PostgreSQL URL") }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let configuration = PostgresConnection.Configuration(
            host: host, port: components.port ?? 5432, username: components.user ?? "postgres", password: components.password,
            database: database.isEmpty ? nil : database, tls: .disable
        )
        return try await PostgresConnection.connect(configuration: configuration, id: 9, logger: logger)
    }

    static func run(_ connection: PostgresConnection, _ sql: String) async throws {
        try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
    }

    /// Creates the tables in `schema` (dropped first) and saves W1: users and chats in one
    /// transaction, then one transaction per 1,000 messages.
    ///
    /// `matched` adds the indexes Relata keeps (as ``GRDBBaselineW1/matchedIndexes``): the message's
    /// author and the admin link table's user.
    static func save(_ input: FloorW1.Input, on connection: PostgresConnection, schema: String, matched: Bool = false) async throws {
        try await run(connection, "DROP SCHEMA IF EXISTS \(schema) CASCADE")
        try await run(connection, "CREATE SCHEMA \(schema)")
        for statement in [
            "CREATE TABLE \(schema).users (id text PRIMARY KEY, name text NOT NULL)",
            "CREATE TABLE \(schema).chat (id text PRIMARY KEY)",
            "CREATE TABLE \(schema).chat_user (chat text NOT NULL, \"user\" text NOT NULL, position int8 NOT NULL, PRIMARY KEY (chat, \"user\"))",
            "CREATE INDEX ON \(schema).chat_user (\"user\")",
            "CREATE TABLE \(schema).chat_admin (chat text NOT NULL, \"user\" text NOT NULL, position int8 NOT NULL, PRIMARY KEY (chat, \"user\"))",
            """
            CREATE TABLE \(schema).message (id text PRIMARY KEY, text text NOT NULL, author text NOT NULL, chat text NOT NULL,
                position int8 NOT NULL, reply_to text)
            """,
            "CREATE INDEX ON \(schema).message (chat, position)",
            "CREATE INDEX ON \(schema).message (reply_to)",
            "CREATE TABLE \(schema).attachment (id text PRIMARY KEY, kind text NOT NULL, message text NOT NULL UNIQUE)",
        ] + (matched ? ["CREATE INDEX ON \(schema).message (author)", "CREATE INDEX ON \(schema).chat_admin (\"user\")"] : []) {
            try await run(connection, statement)
        }
        try await run(connection, "BEGIN")
        try await connection.query(
            "INSERT INTO \(unescaped: schema).users (id, name) SELECT * FROM UNNEST(\(input.users.map(\.0.id))::text[], \(input.users.map(\.0.name))::text[])",
            logger: logger
        )
        try await connection.query("INSERT INTO \(unescaped: schema).chat (id) SELECT * FROM UNNEST(\(input.chats.map(\.0.id))::text[])", logger: logger)
        for (table, members) in [("chat_user", input.chats.map { ($0.0.id, $0.users) }), ("chat_admin", input.chats.map { ($0.0.id, $0.admins) })] {
            var chats: [String] = [], users: [String] = [], positions: [Int] = []
            for (chat, ids) in members {
                for (position, id) in ids.enumerated() {
                    chats.append(chat)
                    users.append(id)
                    positions.append(position)
                }
            }
            try await connection.query(
                "INSERT INTO \(unescaped: schema).\(unescaped: table) (chat, \"user\", position) SELECT * FROM UNNEST(\(chats)::text[], \(users)::text[], \(positions)::int8[])",
                logger: logger
            )
        }
        try await run(connection, "COMMIT")
        var next: [String: Int] = [:]
        for start in stride(from: 0, to: input.messages.count, by: 1_000) {
            let batch = input.messages[start..<min(start + 1_000, input.messages.count)]
            var ids: [String] = [], texts: [String] = [], authors: [String] = [], chats: [String] = [], positions: [Int] = []
            var replies: [String] = []
            var attachmentIDs: [String] = [], kinds: [String] = [], owners: [String] = []
            for (row, author, chat, file, replyTo) in batch {
                let position = next[chat, default: 0]
                next[chat] = position + 1
                ids.append(row.id)
                texts.append(row.text)
                authors.append(author)
                chats.append(chat)
                positions.append(position)
                replies.append(replyTo ?? "")
                if let file {
                    attachmentIDs.append(file.id)
                    kinds.append(file.kind.absoluteString)
                    owners.append(row.id)
                }
            }
            try await run(connection, "BEGIN")
            try await connection.query(
                """
                INSERT INTO \(unescaped: schema).message (id, text, author, chat, position, reply_to)
                SELECT id, text, author, chat, position, NULLIF(reply_to, '')
                FROM UNNEST(\(ids)::text[], \(texts)::text[], \(authors)::text[], \(chats)::text[], \(positions)::int8[], \(replies)::text[])
                AS k(id, text, author, chat, position, reply_to)
                """,
                logger: logger
            )
            try await connection.query(
                "INSERT INTO \(unescaped: schema).attachment (id, kind, message) SELECT * FROM UNNEST(\(attachmentIDs)::text[], \(kinds)::text[], \(owners)::text[])",
                logger: logger
            )
            try await run(connection, "COMMIT")
        }
    }

    /// Chats c0…c(n-1) with their messages (attachment, author id, replies) and users; returns
    /// the messages read.
    static func resolve(on connection: PostgresConnection, schema: String, chats: Int) async throws -> Int {
        try await resolve(on: connection, schema: schema, chats: 0..<chats)
    }

    /// The chats of `chats` (by number), read as ``resolve(on:schema:chats:)-(_,_,Int)`` reads them.
    static func resolve(on connection: PostgresConnection, schema: String, chats: Range<Int>) async throws -> Int {
        var count = 0
        for i in chats {
            let chat = "c\(i)"
            var ids: [String] = []
            let messages = try await connection.query(
                """
                SELECT m.id, m.text, m.author, a.id, a.kind FROM \(unescaped: schema).message m
                LEFT JOIN \(unescaped: schema).attachment a ON a.message = m.id WHERE m.chat = \(chat) ORDER BY m.position
                """,
                logger: logger
            )
            for try await (id, _, _, _, _) in messages.decode((String, String, String, String?, String?).self) { ids.append(id) }
            let replies = try await connection.query(
                "SELECT id, text, author, reply_to FROM \(unescaped: schema).message WHERE reply_to = ANY(\(ids)::text[])", logger: logger
            )
            for try await _ in replies.decode((String, String, String, String).self) {}
            let users = try await connection.query(
                """
                SELECT u.id, u.name FROM \(unescaped: schema).chat_user cu JOIN \(unescaped: schema).users u ON u.id = cu."user"
                WHERE cu.chat = \(chat) ORDER BY cu.position
                """,
                logger: logger
            )
            for try await _ in users.decode((String, String).self) {}
            count += ids.count
        }
        return count
    }

    /// Deletes chats c0…c(n-1) with their messages and attachments, clearing replies to them,
    /// in one transaction; returns the messages left.
    static func delete(on connection: PostgresConnection, schema: String, chats: Int) async throws -> Int {
        let ids = (0..<chats).map { "c\($0)" }
        try await run(connection, "BEGIN")
        try await connection.query(
            """
            DELETE FROM \(unescaped: schema).attachment WHERE message IN (SELECT id FROM \(unescaped: schema).message WHERE chat = ANY(\(ids)::text[]))
            """,
            logger: logger
        )
        try await connection.query(
            """
            UPDATE \(unescaped: schema).message SET reply_to = NULL
            WHERE reply_to IN (SELECT id FROM \(unescaped: schema).message WHERE chat = ANY(\(ids)::text[]))
            """,
            logger: logger
        )
        try await connection.query("DELETE FROM \(unescaped: schema).message WHERE chat = ANY(\(ids)::text[])", logger: logger)
        try await connection.query("DELETE FROM \(unescaped: schema).chat_user WHERE chat = ANY(\(ids)::text[])", logger: logger)
        try await connection.query("DELETE FROM \(unescaped: schema).chat_admin WHERE chat = ANY(\(ids)::text[])", logger: logger)
        try await connection.query("DELETE FROM \(unescaped: schema).chat WHERE id = ANY(\(ids)::text[])", logger: logger)
        try await run(connection, "COMMIT")
        let left = try await connection.query("SELECT count(*)::int8 FROM \(unescaped: schema).message", logger: logger)
        for try await count in left.decode(Int.self) { return count }
        return 0
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
