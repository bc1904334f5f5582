import ChatExample
import Foundation
import GRDB
import Relata
@testable import RelataCore
@testable import RelataSQLite
import Testing

/// Entity types are stored under their module-qualified names, so two `User` types of two modules
/// share one store; stores written under names without module are rewritten once when opened.
@Suite("Store: type names")
struct StoreTypeNameTests {
    @Test("Storage names are module-qualified")
    func storageNames() {
        #expect(EntitySchema.storageName(of: User.self) == "RelataTests.User")
        #expect(EntitySchema.storageName(of: ChatExample.User.self) == "ChatExample.User")
        let schema = EntitySchema(User.self, ChatExample.User.self, Note.self)
        #expect(schema.type(named: "ChatExample.User") == ChatExample.User.self)
        #expect(schema.type(named: "RelataTests.User") == User.self)
        #expect(schema.type(named: "User") == nil, "two types have that short name")
        #expect(schema.type(named: "Note") == Note.self, "a short name one type has")
    }

    private struct Hidden { struct Inner {} }
    struct Box<T> {}

    @Test("A type's name is the one `String(reflecting:)` prints (nested, generic, private, local), without the part a private or local type's changes with the build")
    func namesAsReflected() {
        struct Local {}
        let types: [Any.Type] = [User.self, ChatExample.User.self, Hidden.self, Hidden.Inner.self, Box<Int>.self, Box<Hidden>.self, Local.self, [String: Int].self]
        for type in types {
            let reflected = String(reflecting: type).replacing(/\(unknown context at \$[0-9a-fA-F]+\)\./, with: "")
            #expect(EntitySchema.qualifiedName(of: type) == reflected)
            #expect(!EntitySchema.qualifiedName(of: type).contains("unknown context"))
        }
        #expect(EntitySchema.qualifiedName(of: Hidden.Inner.self) == "RelataTests.StoreTypeNameTests.Hidden.Inner")
    }

    @Test("Two User types of two modules share one store", arguments: BackendKind.allCases)
    func twoUserTypes(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let schema = EntitySchema(User.self, Chat.self, ChatExample.User.self, ChatExample.Chat.self)
        let store = try await harness.open(schema: schema)
        try await store.write { context in
            try User(id: "1", name: "Tests' Bob").save(to: &context)
            try Chat(id: "c", users: .ids(["1"])).save(to: &context)
            try ChatExample.User(id: "1", name: "Example's Bob").save(to: &context)
            try ChatExample.Chat(id: "c", users: .ids(["1"])).save(to: &context)
        }
        try await store.close()
        let reopened = try await harness.open(schema: schema)
        let context = reopened.context
        #expect(context.entity(User.self, id: "1")?.name == "Tests' Bob")
        #expect(context.entity(ChatExample.User.self, id: "1")?.name == "Example's Bob")
        #expect(context.ids(of: "1", \User.$chats) == ["c"])
        #expect(context.ids(of: "1", \ChatExample.User.$chats) == ["c"])
        #expect(reopened.ignoredRecords.isEmpty)
        try context.checkInvariants()
    }

    @Test("A store written under names without module is rewritten once, and reads the same")
    func legacyNames() async throws {
        let memory = InMemoryBackend()
        // What a store wrote before names were qualified.
        var legacy = StoreChanges()
        legacy.upsertedEntities = [
            EntityRecord(type: "User", id: "1", payload: Data(#"{"id":"1","name":"Bob"}"#.utf8)),
            EntityRecord(type: "Chat", id: "c", payload: Data(#"{"id":"c"}"#.utf8)),
        ]
        legacy.upsertedLinks = [
            LinkRecord(type: "Chat", relation: "users", source: "c", target: "1", position: "a0", inversePosition: "a0")
        ]
        legacy.insertedDynamicLinks = [DynamicLinkRecord(kind: "free", sourceType: "Chat", source: "c", targetType: "User", target: "1")]
        try memory.persist(legacy)
        let recording = RecordingBackend(memory)
        let schema = EntitySchema(User.self, Chat.self)
        let store = try await Store(backend: recording, schema: schema)
        #expect(store.context.entity(User.self, id: "1")?.name == "Bob")
        #expect(store.context.ids(of: "c", \Chat.$users) == ["1"])
        #expect(store.context.dynamicRelations(of: EntityReference(Chat.self, id: "c")).count == 1)
        #expect(recording.writes.count == 1, "the rows were rewritten once")
        let upgrade = try #require(recording.writes.first)
        #expect(Set(upgrade.upsertedEntities.map(\.type)) == ["RelataTests.User", "RelataTests.Chat"])
        #expect(Set(upgrade.deletedEntities.map(\.type)) == ["User", "Chat"])
        let rows = memory.rowCount
        #expect(rows.entities == 2 && rows.links == 1 && rows.dynamicLinks == 1, "no row is kept twice")
        try await store.close()

        let again = RecordingBackend(memory)
        let reopened = try await Store(backend: again, schema: schema)
        #expect(again.writes.isEmpty, "an upgraded store is not rewritten")
        #expect(reopened.context.entity(User.self, id: "1")?.name == "Bob")
        #expect(reopened.context.ids(of: "1", \User.$chats) == ["c"])
        #expect(reopened.ignoredRecords.isEmpty)
    }

    /// A store of chat "c" with user "1", turned into what version 4 wrote (names without module).
    static func makeFormat4Store(at path: String) async throws {
        let store = try await Store(path: path, entities: User.self, Chat.self)
        try await store.write { context in try Chat(id: "c", users: .relation([User(id: "1", name: "Bob")])).save(to: &context) }
        try await store.close()
        try await LegacyStoreFile.downgrade(path, version: 4, module: "RelataTests", dropLog: true)
    }

    @Test("A SQLite file of format 4 (names without module) is upgraded to the current format when opened")
    func sqliteFormat4() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.makeFormat4Store(at: path)
        let reopened = try await Store(path: path, entities: User.self, Chat.self)
        #expect(reopened.context.ids(of: "c", \Chat.$users) == ["1"])
        try await reopened.close()
        let check = try DatabaseQueue(path: path)
        let (types, version) = try await check.read { db in
            (try LegacyStoreFile.typesWithRows(db),
             try String.fetchOne(db, sql: "SELECT value FROM relata_meta WHERE key = 'version'"))
        }
        try check.close()
        #expect(types == ["RelataTests.User", "RelataTests.Chat"])
        #expect(version == "\(SQLiteSchema.version)")
    }

    @Test("A file upgraded from format 4 is upgraded once: later opens commit nothing and read no row")
    func upgradedOnce() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.makeFormat4Store(at: path)
        let upgraded = try await Store(path: path, entities: User.self, Chat.self)
        let afterUpgrade = upgraded.sequence
        try await upgraded.close()
        #expect(afterUpgrade == 1, "the upgrade is one commit")
        for _ in 0..<2 {
            let backend = try SQLiteBackend(path: path)
            let reopened = try await Store(backend: backend, schema: EntitySchema(User.self, Chat.self), followInterval: nil)
            #expect(reopened.sequence == afterUpgrade, "opening again committed an upgrade again")
            #expect(backend.rowsRead.count == 0, "opening again read \(backend.rowsRead.count) rows")
            #expect(reopened.context.ids(of: "c", \Chat.$users) == ["1"])
            try await reopened.close()
        }
    }
}
