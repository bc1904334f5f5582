import Foundation
import Relata
import Testing

/// Where `Deleted` tombstones are kept (see `Deleted`): every erasure in a context that holds
/// everything; in a store, only for the types whose `Deleted<T>` its schema lists; never in a
/// change set.
@Suite("Tombstones")
struct TombstoneTests {
    @Test("Deleting keeps the entity as it was, relations as ids; saving or restoring removes the tombstone")
    func inMemory() throws {
        var context = Context()
        try Message(id: "m", text: "hi", author: .relation(.bob), chat: .relation(Chat(id: "c"))).save(to: &context)
        try Message.delete(id: "m", from: &context)
        let tombstone = try #require(Deleted<Message>.query("m").resolve(in: context))
        #expect(tombstone.entity.text == "hi")
        #expect(tombstone.entity.$author.ids == ["1"])
        #expect(tombstone.entity.$chat.ids == ["c"])
        // A tombstone's erasure leaves no tombstone of its own.
        #expect(Deleted<Deleted<Message>>.query().resolve(in: context).isEmpty)
        try tombstone.restore(in: &context)
        #expect(context.entity(Message.self, id: "m")?.text == "hi")
        #expect(Deleted<Message>.query("m").resolve(in: context) == nil)
        try Message.delete(id: "m", from: &context)
        try Message(id: "m", text: "back").save(to: &context)
        #expect(Deleted<Message>.query("m").resolve(in: context) == nil)
        try context.checkInvariants()
    }

    @Test("A type that keeps no tombstones leaves none; its erasure is otherwise the same")
    func optOut() throws {
        var context = Context()
        try Draft(id: "d", text: "draft", author: .relation(.bob)).save(to: &context)
        try Draft.delete(id: "d", from: &context)
        #expect(context.entity(Draft.self, id: "d") == nil)
        #expect(context.ids(of: "1", \User.$chats) == [])
        #expect(Deleted<Draft>.query("d").resolve(in: context) == nil)
        #expect(context.count(of: Deleted<Draft>.self) == 0)
        try context.checkInvariants()
    }

    @EntityModel
    struct Draft: Codable {
        static var keepsTombstones: Bool { false }
        let id: String
        var text: String
        @Relationship var author: User? = nil
    }

    @Test("A store keeps tombstones for the types its schema lists them for, and no others", arguments: BackendKind.allCases)
    func inStore(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self, Note.self, Deleted<Message>.self)
        let store = try await harness.open(schema: schema)
        try await store.write { context in
            try Chat(id: "c", messages: .relation([Message(id: "m", text: "hi", author: .relation(.bob))])).save(to: &context)
        }
        try await store.write { context in try Chat.delete(id: "c", from: &context) }
        try await store.read { context in
            // The cascade erased the message: its tombstone is stored; the chat's type keeps none.
            #expect(Deleted<Message>.query("m").resolve(in: context)?.entity.text == "hi")
            #expect(Deleted<Chat>.query().resolve(in: context).isEmpty)
        }
        let reopened = try await harness.open(schema: schema)
        try await reopened.read { context in
            #expect(Deleted<Message>.query("m").resolve(in: context)?.entity.$author.ids == ["1"])
        }
    }

    @Test("A change set carries the erasure, not the tombstone; the replica writes its own")
    func changeSets() throws {
        var writer = Context()
        try Message(id: "m", text: "hi").save(to: &writer)
        var replica = writer
        writer.beginRecordingChanges(replica: "writer")
        replica.beginRecordingChanges(replica: "replica")
        try Message.delete(id: "m", from: &writer)
        // Encoded with a schema that does not list `Deleted<Message>`: no tombstone travels.
        let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)
        let encoded = try JSONEncoder().encode(writer.changes)
        #expect(!String(decoding: encoded, as: UTF8.self).contains("Deleted"))
        let decoder = JSONDecoder()
        decoder.userInfo[.relataSchema] = schema
        replica.merge(try decoder.decode(ChangeSet.self, from: encoded))
        #expect(replica.entity(Message.self, id: "m") == nil)
        #expect(Deleted<Message>.query("m").resolve(in: replica)?.entity.text == "hi")
    }
}

/// An entity whose properties are not `Codable` (SwiftletModel allows it): it lives in a
/// `Context`; a store refuses it with an error naming the property.
@Suite("Entities that are not Codable")
struct NotCodableEntityTests {
    struct Box: Hashable, Comparable, Sendable {
        let value: Int
        static func < (a: Box, b: Box) -> Bool { a.value < b.value }
    }

    @EntityModel
    struct Measurement {
        let id: String
        var box: Box
        var note: Box?
    }

    @Test("It saves, queries, sorts and deletes in memory")
    func inMemory() throws {
        var context = Context()
        for value in [3, 1, 2] { try Measurement(id: "\(value)", box: Box(value: value)).save(to: &context) }
        #expect(Measurement.query().sorted(by: \.box).resolve(in: context).map(\.id) == ["1", "2", "3"])
        #expect(Measurement.filter(\.box > Box(value: 1)).resolve(in: context).count == 2)
        try Measurement.delete(id: "1", from: &context)
        #expect(Measurement.query().resolve(in: context).count == 2)
        try context.checkInvariants()
    }

    @Test("Coding it throws an error naming the property; a store write fails and commits nothing", arguments: BackendKind.allCases)
    func refusedByStore(kind: BackendKind) async throws {
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(Measurement(id: "x", box: Box(value: 1))) }
        do {
            _ = try JSONEncoder().encode(Measurement(id: "x", box: Box(value: 1)))
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.debugDescription.contains("box"))
        }
        // A `nil` optional of that type codes (as a missing key).
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open(schema: EntitySchema(User.self, Measurement.self))
        await #expect(throws: (any Error).self) {
            try await store.write { context in
                try User(id: "u", name: "U").save(to: &context)
                try Measurement(id: "x", box: Box(value: 1)).save(to: &context)
            }
        }
        try await store.read { context in
            #expect(context.entity(User.self, id: "u") == nil)
            #expect(context.entity(Measurement.self, id: "x") == nil)
        }
    }
}
