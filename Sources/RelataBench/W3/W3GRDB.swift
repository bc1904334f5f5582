import Foundation
import GRDB

/// W3's baseline on SQLite: GRDB by hand, tables with the indexes W3 declares (a UNIQUE e-mail,
/// B-tree indexes on age, sentAt and isRead, an FTS5 table with the trigram tokenizer for the
/// text, ranked by `bm25()`), and the link indexes a hand-written schema keeps.
enum W3GRDB {
    static let schema = """
        CREATE TABLE user (id TEXT PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL UNIQUE, age INTEGER NOT NULL);
        CREATE INDEX user_age ON user (age);
        CREATE TABLE chat (id TEXT PRIMARY KEY);
        CREATE TABLE chat_user (chat TEXT NOT NULL, user TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (chat, user));
        CREATE INDEX chat_user_user ON chat_user (user);
        CREATE TABLE message (
            id TEXT PRIMARY KEY, text TEXT NOT NULL, sent_at REAL NOT NULL, is_read INTEGER NOT NULL,
            author TEXT NOT NULL, chat TEXT NOT NULL, position INTEGER NOT NULL
        );
        CREATE INDEX message_sent_at ON message (sent_at);
        CREATE INDEX message_is_read ON message (is_read);
        CREATE INDEX message_chat ON message (chat, position);
        CREATE INDEX message_author ON message (author);
        CREATE VIRTUAL TABLE message_text USING fts5 (text, content = 'message', content_rowid = 'rowid', tokenize = 'trigram');
        """

    /// Writes W3's data at `path`: users and chats in one transaction, then one per 1,000 messages.
    static func save(_ data: W3Data, path: String) throws {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.prepareDatabase { try $0.execute(sql: "PRAGMA synchronous = NORMAL") }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.write { db in
            try db.execute(sql: schema)
            let user = try db.makeStatement(sql: "INSERT INTO user (id, name, email, age) VALUES (?, ?, ?, ?)")
            let chat = try db.makeStatement(sql: "INSERT INTO chat (id) VALUES (?)")
            let member = try db.makeStatement(sql: "INSERT INTO chat_user (chat, user, position) VALUES (?, ?, ?)")
            for i in 0..<data.userCount { try user.execute(arguments: ["u\(i)", "User \(i)", W3Data.email(i), W3Data.age(i)]) }
            for i in 0..<data.chatCount {
                try chat.execute(arguments: ["c\(i)"])
                for (position, id) in W1Data.members(chat: i, userCount: data.userCount).enumerated() {
                    try member.execute(arguments: ["c\(i)", id, position])
                }
            }
        }
        for start in stride(from: 0, to: data.messageCount, by: 1_000) {
            try queue.write { db in
                let message = try db.cachedStatement(
                    sql: "INSERT INTO message (id, text, sent_at, is_read, author, chat, position) VALUES (?, ?, ?, ?, ?, ?, ?)"
                )
                let text = try db.cachedStatement(sql: "INSERT INTO message_text (rowid, text) VALUES (last_insert_rowid(), ?)")
                for j in start..<min(start + 1_000, data.messageCount) {
                    let body = W3Data.text(j)
                    try message.execute(arguments: [
                        "m\(j)", body, W3Data.sentAt(j).timeIntervalSince1970, W3Data.isRead(j),
                        W3Data.author(j, chatCount: data.chatCount, userCount: data.userCount), "c\(j % data.chatCount)", j / data.chatCount,
                    ])
                    try text.execute(arguments: [body])
                }
            }
        }
        try queue.close()
    }

    // MARK: The queries, by hand

    static func user(email: String, _ db: Database) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT id FROM user WHERE email = ?"), arguments: [email])
    }

    static func newest(after date: Date, _ db: Database) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: "SELECT id FROM message WHERE sent_at > ? ORDER BY sent_at DESC, id DESC LIMIT 20"),
            arguments: [date.timeIntervalSince1970]
        )
    }

    static func unread(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM message WHERE is_read = 0")) ?? 0
    }

    static func agedPage(_ db: Database) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: "SELECT id FROM user WHERE age BETWEEN ? AND ? ORDER BY name, id LIMIT ? OFFSET ?"),
            arguments: [W3Data.ages.lowerBound, W3Data.ages.upperBound, W3Data.page.limit, W3Data.page.offset]
        )
    }

    /// The best matches, ranked by `bm25()` over trigrams (any word of `words` may match, as
    /// SwiftletModel's fuzzy `matches` lets any trigram match).
    static func search(_ words: String, _ db: Database) throws -> [String] {
        let pattern = words.split(separator: " ").map { "\"\($0)\"" }.joined(separator: " OR ")
        return try String.fetchAll(
            db.cachedStatement(sql: """
                SELECT message.id FROM message_text JOIN message ON message.rowid = message_text.rowid
                WHERE message_text MATCH ? ORDER BY bm25(message_text) LIMIT 20
                """),
            arguments: [pattern]
        )
    }

    static func scan(_ text: String, _ db: Database) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: "SELECT id FROM message WHERE instr(text, ?) > 0 ORDER BY id"), arguments: [text])
    }

    /// Q7: Q2's messages with their author's and chat's rows.
    static func newestNested(after date: Date, _ db: Database) throws -> [Row] {
        try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT message.id, message.text, message.sent_at, message.is_read, user.id, user.name, user.email, user.age, message.chat
                FROM message JOIN user ON user.id = message.author
                WHERE message.sent_at > ? ORDER BY message.sent_at DESC, message.id DESC LIMIT 20
                """),
            arguments: [date.timeIntervalSince1970]
        )
    }
}
