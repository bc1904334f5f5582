import ChatExample
import Foundation
import GRDB
import Relata
import RelataCore
import Testing

/// A damaged change log record never leaves a store silently stale: a store that meets one drops
/// every row it kept (counted in `fullReloads`) and reads storage again; a row another program
/// damaged is a typed error where it is read, never a store answering from an old state with no
/// sign (a store that loads everything: its catch-up fails, visible in `followError`).
@Suite("Hardening: damaged change log records", .serialized)
struct DamagedLogRecordTests {
    typealias Message = ChatExample.Message
    static let schema = EntitySchema(ChatExample.User.self, ChatExample.Chat.self, Message.self, ChatExample.Attachment.self)

    static func damage(_ path: String, _ sql: String) async throws {
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in try db.execute(sql: sql) }
        try queue.close()
    }

    @Test("A log record that does not decode: the lagging store reloads everything, once, and its writes go on")
    func damagedRecordReloads() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try await Store(backend: SQLiteBackend(path: path), schema: Self.schema, followInterval: nil)
        let lagging = try await Store(backend: SQLiteBackend(path: path), schema: Self.schema, followInterval: nil)
        try await writer.write { try ChatExample.Chat(id: "c").save(to: &$0) }
        try await writer.write { try Message(id: "m1", text: "t", author: .id("u"), chat: .id("c")).save(to: &$0) }
        try await Self.damage(path, "UPDATE relata_log SET record = x'ff0102' WHERE seq = (SELECT max(seq) FROM relata_log)")
        try await lagging.refresh()
        #expect(lagging.fullReloads == 1)
        #expect(lagging.context.ids(of: "c", \ChatExample.Chat.$messages) == ["m1"], "current, not stale")
        try await lagging.write { try Message(id: "m2", text: "t", author: .id("u"), chat: .id("c")).save(to: &$0) }
        try await writer.write { try Message(id: "m3", text: "t", author: .id("u"), chat: .id("c")).save(to: &$0) }
        #expect(writer.context.ids(of: "c", \ChatExample.Chat.$messages) == ["m1", "m2", "m3"])
        #expect(writer.fullReloads == 0, "the record was after what the writer had")
        try await writer.close()
        try await lagging.close()
    }

    @Test("A zeroed log record, or one missing from the middle of the log: the lagging store drops its cache, once, and reads what is stored", arguments: [
        "UPDATE relata_log SET record = zeroblob(length(record)) WHERE seq = (SELECT max(seq) FROM relata_log)",
        "UPDATE relata_log SET record = x'' WHERE seq = (SELECT max(seq) FROM relata_log)",
        "DELETE FROM relata_log WHERE seq = (SELECT max(seq) FROM relata_log) - 1",
    ])
    func zeroedOrMissingRecord(damage: String) async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try await Store(backend: SQLiteBackend(path: path), schema: Self.schema, followInterval: nil)
        let lagging = try await Store(backend: SQLiteBackend(path: path), schema: Self.schema, followInterval: nil)
        try await writer.write { try ChatExample.Chat(id: "c").save(to: &$0) }
        // The lagging store caches the chat's (empty) list, then misses two commits to it.
        #expect(try await lagging.read { $0.ids(of: "c", \ChatExample.Chat.$messages) } == [])
        try await writer.write { try Message(id: "m1", text: "t", author: .id("u"), chat: .id("c")).save(to: &$0) }
        try await writer.write { try ChatExample.Chat(id: "d").save(to: &$0) }
        try await Self.damage(path, damage)
        try await lagging.refresh()
        #expect(lagging.fullReloads == 1, "the damage is seen and counted")
        #expect(try await lagging.read { $0.ids(of: "c", \ChatExample.Chat.$messages) } == ["m1"], "current, not stale")
        try await writer.close()
        try await lagging.close()
    }

    /// Another program commits a row that does not decode with the model, as a store would: the
    /// row and a log record naming it, in one transaction. Returns the row's good payload.
    static func commitUndecodable(_ queue: DatabaseQueue, table: String) async throws -> Data? {
        let good = try await queue.read { db in try Data.fetchOne(db, sql: "SELECT payload FROM \(table) WHERE id = 'm1'") }
        try await commitPayload(Data([0x00, 0xFF, 0x00, 0xFF]), queue, table: table)
        return good
    }

    /// Another program commits `payload` as message m1's, with a log record naming the row.
    static func commitPayload(_ payload: Data?, _ queue: DatabaseQueue, table: String) async throws {
        var touched = StoreChanges()
        touched.deletedEntities = [EntityKey(type: Message.storedTypeName, id: "m1")]
        let keys = ChangeLogRecord(touching: touched)
        try await queue.write { db in
            let previous = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM relata_log") ?? 0
            let record = StoredChangeLogRecord(keys, after: previous).encoded()
            try db.execute(sql: "UPDATE \(table) SET payload = ? WHERE id = 'm1'", arguments: [payload])
            try db.execute(sql: "INSERT INTO relata_log (origin, at, record) VALUES ('other', ?, ?)", arguments: [Date().timeIntervalSince1970, record])
        }
    }

    @Test("A row another program damaged: the read of it is a typed error, other reads and writes go on, and its repair is seen")
    func damagedRowIsAnErrorWhereRead() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try await Store(backend: SQLiteBackend(path: path), schema: Self.schema, followInterval: nil)
        let follower = try await Store(backend: SQLiteBackend(path: path), schema: Self.schema, followInterval: .milliseconds(5))
        try await writer.write { try ChatExample.Chat(id: "c").save(to: &$0) }
        try await writer.write { try Message(id: "m1", text: "t", author: .id("u"), chat: .id("c")).save(to: &$0) }
        try await waitUntil(seconds: 10) { follower.context.entity(Message.self, id: "m1") != nil }
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let table = try #require(try await queue.read { db in try LegacyStoreFile.entityTable(db, Message.storedTypeName) })
        let good = try await Self.commitUndecodable(queue, table: table)
        try await waitUntil(seconds: 10) { (try? follower.read { $0.entity(Message.self, id: "m1") }) == nil }
        let error = #expect(throws: RelataError.self) { try follower.read { $0.entity(Message.self, id: "m1") } }
        #expect(error?.code == .undecodableRecord && error?.id == "m1", "\(String(describing: error))")
        #expect(follower.followError == nil, "following reads no row")
        // A write that reads the row fails with the error rather than write over it; one that
        // does not goes on.
        await #expect(throws: RelataError.self) {
            try await follower.write { context in _ = context.entity(Message.self, id: "m1") }
        }
        try await follower.write { try ChatExample.Chat(id: "d").save(to: &$0) }
        #expect(try await follower.read { $0.entity(ChatExample.Chat.self, id: "c") } != nil, "other rows read")
        // The other program writes the row well-formed again: the follower reads it.
        try await Self.commitPayload(good, queue, table: table)
        try await waitUntil(seconds: 10) { (try? follower.read { $0.entity(Message.self, id: "m1") })?.text == "t" }
        #expect(try await follower.read { $0.entity(Message.self, id: "m1") }?.text == "t")
        try await writer.close()
        try await follower.close()
    }
}
