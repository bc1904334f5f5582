import Foundation
import GRDB
import Relata
@testable import RelataSQLite
import Testing

@Suite("SQLite store files")
struct SQLiteStoreFileTests {
    static func temporaryPath(_ name: String = "store.sqlite") throws -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (directory, directory.appendingPathComponent(name).path)
    }

    @Test("A file that is not a SQLite database opens with a clear error and is not modified")
    func notSQLite() async throws {
        let (directory, path) = try Self.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = Data("these are my notes, not a database\n".utf8)
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = await #expect(throws: RelataError.self) { try await Store(path: path, entities: User.self) }
        #expect(error?.code == .notAStore)
        #expect(error?.message.contains(path) == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test("A SQLite database of another application opens with a clear error and is not modified")
    func foreignDatabase() async throws {
        let (directory, path) = try Self.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = try DatabaseQueue(path: path)
        try await queue.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('hello')") }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = await #expect(throws: RelataError.self) { try await Store(path: path, entities: User.self) }
        #expect(error?.code == .notAStore)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("A damaged store opens with a clear error and is not modified")
    func corrupted() async throws {
        let (directory, path) = try Self.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Store(path: path, entities: User.self, Chat.self, Message.self, Attachment.self)
        try await store.write { context in
            for i in 0..<2_000 { try User(id: "u\(i)", name: String(repeating: "x", count: 100)).save(to: &context) }
        }
        try await store.close()
        // Overwrite pages after the first (schema) page with garbage.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.count > 40_000)
        for offset in stride(from: 8_192, to: bytes.count - 100, by: 4_096) {
            bytes.replaceSubrange(offset..<(offset + 64), with: Data(repeating: 0xA5, count: 64))
        }
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = await #expect(throws: RelataError.self) {
            try await Store(path: path, entities: User.self, Chat.self, Message.self, Attachment.self)
        }
        #expect(error?.code == .corruptedStore || error?.code == .undecodableRecord, "\(String(describing: error))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test("A new file is created with its schema; an empty file becomes a store")
    func creates() async throws {
        let (directory, path) = try Self.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let store = try await Store(path: path, entities: User.self)
        try await store.save(User.bob)
        try await store.close()
        let reopened = try await Store(path: path, entities: User.self)
        #expect(reopened.context.entity(User.self, id: "1")?.name == "Bob")
        try await reopened.save(User(id: "2", name: "Alice"))
        try await reopened.close()
        // Reopening a current store leaves its journal mode alone: it stays WAL.
        let queue = try DatabaseQueue(path: path)
        #expect(try await queue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        try queue.close()
    }

    /// A file as version 1 of the library wrote it (before dynamic relationships).
    static func writeVersion1Store(at path: String, version: Int = 1) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('relata-v1');
                    CREATE TABLE relata_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    INSERT INTO relata_meta (key, value) VALUES ('format', 'relata'), ('version', '\(version)');
                    CREATE TABLE relata_entity (type TEXT NOT NULL, id TEXT NOT NULL, payload BLOB NOT NULL, PRIMARY KEY (type, id)) WITHOUT ROWID;
                    CREATE TABLE relata_link (
                        type TEXT NOT NULL, relation TEXT NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL, position TEXT,
                        PRIMARY KEY (type, relation, source, target)
                    ) WITHOUT ROWID;
                    INSERT INTO relata_entity VALUES ('Drawer', 'a', CAST('{"id":"a","name":"A"}' AS BLOB));
                    INSERT INTO relata_entity VALUES ('Sheet', '1', CAST('{"id":1,"path":"/1"}' AS BLOB));
                    """
            )
        }
        try queue.close()
    }

    @Test("A format 6 file opens with every entity, to-one and to-many link and position it held, and is of the current format after")
    func upgradesFormat6() async throws {
        let (directory, path) = try Self.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Store(backend: SQLiteBackend(path: path), schema: StoreHarness.schema)
        try await store.write { try LegacyStoreFile.saveUpgradeFixture(&$0) }
        let expected = StoreConformanceTests.dumped(store.context)
        try await store.close()
        try await LegacyStoreFile.downgrade(path, version: 6)
        let upgraded = try await Store(backend: SQLiteBackend(path: path), schema: StoreHarness.schema)
        #expect(StoreConformanceTests.dumped(upgraded.context) == expected)
        try upgraded.context.checkInvariants()
        try await upgraded.write { try Message(id: "m9", text: "new", author: .id("2"), chat: .id("c")).save(to: &$0) }
        try await upgraded.close()
        let again = try await Store(backend: SQLiteBackend(path: path), schema: StoreHarness.schema)
        #expect(again.context.ids(of: "c", \Chat.$messages) == ["m4", "m1", "m2", "m3", "m9"])
        try await again.close()
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let (version, old) = try await queue.read { db in
            (try String.fetchOne(db, sql: "SELECT value FROM relata_meta WHERE key = 'version'"), try db.tableExists("relata_entity") || db.tableExists("relata_link"))
        }
        #expect(version == "\(SQLiteSchema.version)" && !old, "the current format, the old tables gone")
    }

    @Test("A version 1 store is upgraded when opened, and then keeps dynamic relationships")
    func upgradesVersion1() async throws {
        let (directory, path) = try Self.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.writeVersion1Store(at: path)
        let store = try await Store(path: path, entities: Drawer.self, Sheet.self, Tombstone.self)
        #expect(store.context.entity(Sheet.self, id: 1)?.path == "/1")
        try await store.write {
            try Drawer(id: "a").relate(.owns, Sheet(id: 1), in: &$0)
            try Drawer(id: "b", name: "B").save(to: &$0)
        }
        try await store.close()
        let reopened = try await Store(path: path, entities: Drawer.self, Sheet.self, Tombstone.self)
        #expect(reopened.context.related(Drawer(id: "a").reference, .owns) == [Sheet(id: 1).reference])
        #expect(reopened.context.entity(Drawer.self, id: "b")?.name == "B")
        try await reopened.close()
        let queue = try DatabaseQueue(path: path)
        #expect(try await queue.read { try String.fetchOne($0, sql: "SELECT value FROM relata_meta WHERE key = 'version'") } == "\(SQLiteSchema.version)")
        // Version 1 kept types under names without module: the upgrade rewrote every
        // row under its qualified name, so the JSON payload it wrote is now in the binary form.
        let payloads = try await queue.read {
            let table = try #require(try LegacyStoreFile.entityTable($0, "RelataTests.Drawer"))
            return try Dictionary(uniqueKeysWithValues: Row.fetchAll($0, sql: "SELECT id, payload FROM \(table)").map { row -> (String, Data) in (row[0], row[1]) })
        }
        #expect(payloads["a"]?.first == 0)
        #expect(payloads["b"]?.first == 0)
        try queue.close()
    }

    @Test("A store written by a newer version of the library is refused and not modified")
    func newerVersion() async throws {
        let (directory, path) = try Self.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.writeVersion1Store(at: path, version: 99)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = await #expect(throws: RelataError.self) { try await Store(path: path, entities: Drawer.self, Sheet.self) }
        #expect(error?.code == .notAStore && error?.message.contains("version 99") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}

/// Version 1 and 2 of a model: version 2 adds an optional property and a relation, and drops the
/// type `Tag`. Each version keeps its types under the same stored names (as one app's types keep
/// theirs from one release to the next).
enum ModelV1 {
    @EntityModel
    struct Item: Codable {
        static var storedTypeName: String { "Evolving.Item" }
        let id: String
        var title: String
        @Relationship(inverse: \.items) var owner: Owner?
    }

    @EntityModel
    struct Owner: Codable {
        static var storedTypeName: String { "Evolving.Owner" }
        let id: String
        @Relationship(inverse: \.owner) var items: [Item]?
    }

    @EntityModel
    struct Tag: Codable {
        static var storedTypeName: String { "Evolving.Tag" }
        let id: String
    }
}

enum ModelV2 {
    @EntityModel
    struct Item: Codable {
        static var storedTypeName: String { "Evolving.Item" }
        let id: String
        var title: String
        var note: String?
        @Relationship(inverse: \.items) var owner: Owner?
        @Relationship var related: [Item]? = nil
    }

    @EntityModel
    struct Owner: Codable {
        static var storedTypeName: String { "Evolving.Owner" }
        let id: String
        @Relationship(inverse: \.owner) var items: [Item]?
    }
}

/// Version 3 makes an incompatible change: a new required property.
enum ModelV3 {
    @EntityModel
    struct Item: Codable {
        static var storedTypeName: String { "Evolving.Item" }
        let id: String
        var count: Int
    }
}

@Suite("Store schema evolution")
struct StoreSchemaEvolutionTests {
    @Test("Adding an optional property and a relation needs no migration; a removed type is ignored and kept")
    func evolve() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let v1 = try await Store(path: path, entities: ModelV1.Item.self, ModelV1.Owner.self, ModelV1.Tag.self)
        try await v1.write { context in
            try ModelV1.Owner(id: "o", items: .relation([ModelV1.Item(id: "b", title: "B"), ModelV1.Item(id: "a", title: "A")]))
                .save(to: &context)
            try ModelV1.Tag(id: "t").save(to: &context)
        }
        try await v1.close()

        let v2 = try await Store(path: path, entities: ModelV2.Item.self, ModelV2.Owner.self)
        #expect(v2.ignoredRecords == ["Evolving.Tag": 1])
        let item = try #require(v2.context.entity(ModelV2.Item.self, id: "a"))
        #expect(item.title == "A" && item.note == nil)
        #expect(v2.context.ids(of: "o", \ModelV2.Owner.$items) == ["b", "a"])
        try await v2.write { context in
            try ModelV2.Item(id: "a", title: "A", note: "new", related: .ids(["b"])).save(to: &context)
        }
        try await v2.close()

        // The removed type's rows are still there for version 1.
        let again = try await Store(path: path, entities: ModelV1.Item.self, ModelV1.Owner.self, ModelV1.Tag.self)
        #expect(again.context.entity(ModelV1.Tag.self, id: "t") != nil)
        #expect(again.ignoredRecords == ["Evolving.Item.related": 1])
        #expect(again.context.entity(ModelV1.Item.self, id: "a")?.title == "A")
    }

    @Test("A stored entity that no longer decodes is a clear error naming its type and id, when it is read")
    func undecodable() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let old = try await Store(path: path, entities: ModelV1.Item.self)
        try await old.save(ModelV1.Item(id: "x", title: "T"))
        try await old.close()
        // The store opens (it reads no row at open); the read of the row fails, typed.
        let store = try await Store(path: path, entities: ModelV3.Item.self)
        let error = #expect(throws: RelataError.self) { try store.read { $0.entity(ModelV3.Item.self, id: "x") } }
        #expect(error?.code == .undecodableRecord)
        #expect(error?.entityType == "Evolving.Item" && error?.id == "x")
        let context = store.context
        #expect(context.entity(ModelV3.Item.self, id: "x") == nil, "the read answers as absent")
        #expect((context.storageFailure as? RelataError)?.id == "x", "and the context says why")
        let written = await #expect(throws: RelataError.self) {
            try await store.write { context in
                if var item = context.entity(ModelV3.Item.self, id: "x") {
                    item.count += 1
                    try item.save(to: &context)
                }
            }
        }
        #expect(written?.code == .undecodableRecord, "a write whose closure reads the row fails with the same error")
        try await store.close()
    }

    @Test("Damaged bytes in a stored payload are a clear error naming the type and id; the file is not modified")
    func damagedRowBytes() async throws {
        // A payload that does not decode (a to-one column holds text, whatever SQL stores in it:
        // a damaged one is a link to another id, which the fuzz tests cover).
        for (damage, code) in [("payload = x'0001FF'", RelataError.Code.undecodableRecord), ("payload = x'00'", .undecodableRecord)] {
            let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try await Store(path: path, entities: ModelV1.Item.self, ModelV1.Owner.self)
            try await store.save(ModelV1.Item(id: "x", title: "T", owner: .relation(ModelV1.Owner(id: "o"))))
            try await store.close()
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                let table = try #require(try LegacyStoreFile.entityTable(db, "Evolving.Item"))
                let link = try #require(try Int64.fetchOne(db, sql: "SELECT number FROM relata_table WHERE kind = 'to-one' AND type = 'Evolving.Item'"))
                try db.execute(sql: "UPDATE \(table) SET \(damage.replacingOccurrences(of: "{link}", with: "r\(link)")) WHERE id = 'x'")
            }
            try queue.close()
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let damaged = try await Store(path: path, entities: ModelV1.Item.self, ModelV1.Owner.self)
            let error = #expect(throws: RelataError.self) { try damaged.read { $0.entity(ModelV1.Item.self, id: "x") } }
            try await damaged.close()
            #expect(error?.code == code, "\(damage)")
            #expect(error?.entityType == "Evolving.Item" || error?.message.contains("Evolving.Item \"x\"") == true, "\(damage): \(String(describing: error))")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(damage)")
        }
    }
}
