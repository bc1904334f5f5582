import Foundation
import GRDB
import Relata
@testable import RelataSQLite
import Testing

/// The entity counts a SQLite store keeps in `relata_count`, which `count(of:)` reads: kept by
/// the writer from the rows it writes (format 11; triggers before).
@Suite("SQLite entity counts")
struct SQLiteEntityCountTests {
    static let entities: [any EntityModelProtocol.Type] = [User.self, Chat.self, Message.self, Attachment.self]

    /// What a store's `count(of:)` answers for each type, a fresh read each.
    static func counts(_ store: Store) async throws -> [Int] {
        try await store.read { context in
            [context.count(of: User.self), context.count(of: Chat.self), context.count(of: Message.self), context.count(of: Attachment.self)]
        }
    }

    /// The rows of each type's view (which shows the rows that hold an entity), counted by SQL.
    static func viewCounts(_ path: String) async throws -> [Int] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try await queue.read { db in
            try ["User", "Chat", "Message", "Attachment"].map { name in
                let view = try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE type = 'view' AND name LIKE ?", arguments: ["%.\(name)"])
                guard let view else { return 0 }
                return try Int.fetchOne(db, sql: "SELECT count(*) FROM \(TableCatalog.quoted(view))") ?? 0
            }
        }
    }

    /// One random write: new and saved-again users, chats listing messages not saved yet (rows
    /// that hold only a link), messages (some of them those), attachments, and deletions of
    /// users, messages and chats (cascading to their messages and attachments).
    static func randomWrite(_ context: inout Context, _ random: inout SeededGenerator) throws {
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            try User(id: "u\(Int.random(in: 0..<12, using: &random))", name: "User \(Int.random(in: 0..<100, using: &random))").save(to: &context)
        }
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let messages = (0..<Int.random(in: 0...3, using: &random)).map { _ in "m\(Int.random(in: 0..<30, using: &random))" }
            try Chat(id: "c\(Int.random(in: 0..<5, using: &random))", messages: .ids(messages)).save(to: &context)
        }
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            let id = "m\(Int.random(in: 0..<30, using: &random))"
            let (author, chat) = ("u\(Int.random(in: 0..<12, using: &random))", "c\(Int.random(in: 0..<5, using: &random))")
            if Bool.random(using: &random) {
                let attachment = Attachment(id: "a\(id)", kind: .file(url: URL(string: "https://example.com/\(id)")!))
                try Message(id: id, text: "text", author: .id(author), chat: .id(chat), attachment: .relation(attachment)).save(to: &context)
            } else {
                try Message(id: id, text: "text", author: .id(author), chat: .id(chat)).save(to: &context)
            }
        }
        switch Int.random(in: 0..<5, using: &random) {
        case 0: try User.delete(id: "u\(Int.random(in: 0..<12, using: &random))", from: &context)
        case 1: try Message.delete(ids: (0..<3).map { _ in "m\(Int.random(in: 0..<30, using: &random))" }, from: &context)
        case 2: try Chat.delete(id: "c\(Int.random(in: 0..<5, using: &random))", from: &context)
        default: break
        }
    }

    @Test("count(of:) stays exact through inserts, saves again, rows that only hold links, deletions and cascades")
    func randomWrites() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Store(path: path, entities: User.self, Chat.self, Message.self, Attachment.self)
        var expected = Context()
        var random = SeededGenerator(seed: 11)
        var written = 0
        for round in 0..<60 {
            // Each write draws from a generator of its own, so the store's and the model's are the same.
            let seed = random.next()
            // The same write on the in-memory `Context`, whose counts are the truth.
            do {
                var copy = expected
                var generator = SeededGenerator(seed: seed)
                try Self.randomWrite(&copy, &generator)
                expected = copy
            } catch {
                // A write the model refuses is refused by the store too; both stay as they were.
                await #expect(throws: (any Error).self) {
                    try await store.write { context in
                        var generator = SeededGenerator(seed: seed)
                        try Self.randomWrite(&context, &generator)
                    }
                }
                continue
            }
            try await store.write { context in
                var generator = SeededGenerator(seed: seed)
                try Self.randomWrite(&context, &generator)
            }
            written += 1
            let truth = [expected.count(of: User.self), expected.count(of: Chat.self), expected.count(of: Message.self), expected.count(of: Attachment.self)]
            #expect(try await Self.counts(store) == truth, "round \(round)")
            #expect(try await Self.viewCounts(path) == truth, "round \(round): the rows that hold an entity")
        }
        #expect(written > 40, "most writes were accepted")
        try await store.close()
        // A new store reads the counts the writes kept.
        let reopened = try await Store(path: path, entities: User.self, Chat.self, Message.self, Attachment.self)
        #expect(try await Self.counts(reopened) == [expected.count(of: User.self), expected.count(of: Chat.self), expected.count(of: Message.self), expected.count(of: Attachment.self)])
        try await reopened.close()
    }

    @Test("A file of format 10 loses its count triggers once, keeps its counts, and later writes count each entity once")
    func upgradeDropsTriggers() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Store(path: path, entities: User.self, Chat.self)
        try await store.write { context in
            for i in 0..<5 { try User(id: "u\(i)", name: "User \(i)").save(to: &context) }
            try Chat(id: "c0").save(to: &context)
        }
        try await store.close()
        // What format 10 wrote: the same tables, with the triggers that kept the counts.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            for (number, table) in try Row.fetchAll(db, sql: "SELECT number, 'e' || number FROM relata_table WHERE kind = 'entity'").map({ ($0[0] as Int64, $0[1] as String) }) {
                try db.execute(
                    sql: """
                        CREATE TRIGGER \(table)_insert AFTER INSERT ON \(table) WHEN length(NEW.payload) > 0
                        BEGIN UPDATE relata_count SET count = count + 1 WHERE number = \(number); END;
                        CREATE TRIGGER \(table)_update AFTER UPDATE OF payload ON \(table) WHEN (length(OLD.payload) > 0) <> (length(NEW.payload) > 0)
                        BEGIN UPDATE relata_count SET count = count + (CASE WHEN length(NEW.payload) > 0 THEN 1 ELSE -1 END) WHERE number = \(number); END;
                        CREATE TRIGGER \(table)_delete AFTER DELETE ON \(table) WHEN length(OLD.payload) > 0
                        BEGIN UPDATE relata_count SET count = count - 1 WHERE number = \(number); END;
                        """
                )
            }
            try db.execute(sql: "UPDATE relata_meta SET value = '10' WHERE key = 'version'")
        }
        try queue.close()
        let upgraded = try await Store(path: path, entities: User.self, Chat.self)
        #expect(try await upgraded.read { [$0.count(of: User.self), $0.count(of: Chat.self)] } == [5, 1])
        try await upgraded.write { context in
            for i in 3..<8 { try User(id: "u\(i)", name: "User \(i) again").save(to: &context) }
            try User.delete(id: "u0", from: &context)
        }
        // Triggers left in place would count each of these rows a second time.
        #expect(try await upgraded.read { $0.count(of: User.self) } == 7)
        try await upgraded.close()
        let check = try DatabaseQueue(path: path)
        let (triggers, version) = try await check.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"),
             try String.fetchOne(db, sql: "SELECT value FROM relata_meta WHERE key = 'version'"))
        }
        try check.close()
        #expect(triggers == 0 && version == "\(SQLiteSchema.version)")
    }
}
