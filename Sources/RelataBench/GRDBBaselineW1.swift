import Foundation
import GRDB

/// The GRDB baseline of W1 operation 5: the same rows in plain tables (one per type, to-one
/// relations as columns, one link table per to-many relation), written and read by hand.
///
/// *Minimal*: the indexes its own reads need. *Matched*: also the indexes Relata keeps — every
/// to-one relation indexed from its target (`message.author`) and every link table from both ends
/// (`chat_admin.user`) — so a write maintains the same index entries a Store's does.
enum GRDBBaselineW1 {
    /// The indexes the matched baseline adds to the minimal one.
    static let matchedIndexes = """
        CREATE INDEX message_author ON message (author);
        CREATE INDEX chat_admin_user ON chat_admin (user);
        """

    static func save(_ input: FloorW1.Input, path: String, matched: Bool = false) throws {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.prepareDatabase { try $0.execute(sql: "PRAGMA synchronous = NORMAL") }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE user (id TEXT PRIMARY KEY, name TEXT NOT NULL);
                    CREATE TABLE chat (id TEXT PRIMARY KEY);
                    CREATE TABLE chat_user (chat TEXT NOT NULL, user TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (chat, user));
                    CREATE INDEX chat_user_user ON chat_user (user);
                    CREATE TABLE chat_admin (chat TEXT NOT NULL, user TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (chat, user));
                    CREATE TABLE message (
                        id TEXT PRIMARY KEY, text TEXT NOT NULL, author TEXT NOT NULL, chat TEXT NOT NULL,
                        position INTEGER NOT NULL, reply_to TEXT
                    );
                    CREATE INDEX message_chat ON message (chat, position);
                    CREATE INDEX message_reply_to ON message (reply_to);
                    CREATE TABLE attachment (id TEXT PRIMARY KEY, kind TEXT NOT NULL, message TEXT NOT NULL UNIQUE);
                    """
            )
            if matched { try db.execute(sql: matchedIndexes) }
            let user = try db.makeStatement(sql: "INSERT INTO user (id, name) VALUES (?, ?)")
            for (row, _) in input.users { try user.execute(arguments: [row.id, row.name]) }
            let chat = try db.makeStatement(sql: "INSERT INTO chat (id) VALUES (?)")
            let member = try db.makeStatement(sql: "INSERT INTO chat_user (chat, user, position) VALUES (?, ?, ?)")
            let admin = try db.makeStatement(sql: "INSERT INTO chat_admin (chat, user, position) VALUES (?, ?, ?)")
            for (row, users, admins) in input.chats {
                try chat.execute(arguments: [row.id])
                for (position, id) in users.enumerated() { try member.execute(arguments: [row.id, id, position]) }
                for (position, id) in admins.enumerated() { try admin.execute(arguments: [row.id, id, position]) }
            }
        }
        var positions: [String: Int] = [:]
        for start in stride(from: 0, to: input.messages.count, by: 1_000) {
            let batch = input.messages[start..<min(start + 1_000, input.messages.count)]
            try queue.write { db in
                let message = try db.cachedStatement(
                    sql: "INSERT INTO message (id, text, author, chat, position, reply_to) VALUES (?, ?, ?, ?, ?, ?)"
                )
                let attachment = try db.cachedStatement(sql: "INSERT INTO attachment (id, kind, message) VALUES (?, ?, ?)")
                for (row, author, chat, file, replyTo) in batch {
                    let position = positions[chat, default: 0]
                    positions[chat] = position + 1
                    try message.execute(arguments: [row.id, row.text, author, chat, position, replyTo])
                    if let file { try attachment.execute(arguments: [file.id, file.kind.absoluteString, row.id]) }
                }
            }
        }
        try queue.close()
    }

    static func open(path: String) throws -> DatabaseQueue {
        try DatabaseQueue(path: path)
    }

    /// Chats c0…c(n-1) with messages (attachment, author id, replies) and users; returns messages.
    static func resolve(_ queue: DatabaseQueue, chats: Int) throws -> Int {
        try resolve(queue, chats: 0..<chats)
    }

    /// The chats of `chats` (by number), as ``resolve(_:chats:)-(_,Int)`` reads them.
    static func resolve(_ queue: DatabaseQueue, chats: Range<Int>) throws -> Int {
        try queue.read { try resolve($0, chats: chats) }
    }

    /// The chats of `chats` resolved in `db` (inside a read the caller opened).
    static func resolve(_ db: Database, chats: Range<Int>) throws -> Int {
        var count = 0
        let chat = try db.makeStatement(sql: "SELECT id FROM chat WHERE id = ?")
        let messages = try db.makeStatement(
            sql: "SELECT id, text, author FROM message WHERE chat = ? ORDER BY position"
        )
        let attachment = try db.makeStatement(sql: "SELECT id, kind FROM attachment WHERE message = ?")
        let replies = try db.makeStatement(sql: "SELECT id, text, author FROM message WHERE reply_to = ?")
        let users = try db.makeStatement(
            sql: "SELECT user.id, user.name FROM chat_user JOIN user ON user.id = chat_user.user WHERE chat_user.chat = ? ORDER BY position"
        )
        for i in chats {
            guard try String.fetchOne(chat, arguments: ["c\(i)"]) != nil else { continue }
            let rows = try Row.fetchAll(messages, arguments: ["c\(i)"])
            for row in rows {
                let id: String = row[0]
                _ = try Row.fetchOne(attachment, arguments: [id])
                _ = try Row.fetchAll(replies, arguments: [id])
            }
            _ = try Row.fetchAll(users, arguments: ["c\(i)"])
            count += rows.count
        }
        return count
    }
}
