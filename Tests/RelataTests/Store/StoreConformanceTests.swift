import Foundation
import Relata
@testable import RelataCore
import Testing

/// Store behaviour on each backend Relata ships (in memory, SQLite), beside the public
/// conformance suite (`StoreConformanceSuiteTests`, which covers concurrent writers): what only
/// Relata's own tests can see (the rows each write persists, the store's second copy).
@Suite("Store: behaviour on each backend")
struct StoreConformanceTests {
    static let users = ["1", "2", "3"], chats = ["c", "d"], attachments = ["a1"]
    static let messages = ["m1", "m2", "m3", "m4"]

    static func dumped(_ context: Context) -> String {
        dump(context, users: users, chats: chats, messages: messages, attachments: attachments)
    }

    static func seed(_ context: inout Context) throws {
        for user in [User.bob, .alice, .john] { try user.save(to: &context) }
        try Chat(
            id: "c", users: .ids(["3", "1", "2"]),
            messages: .relation([
                Message(id: "m1", text: "one", author: .id("1"), attachment: .relation(Attachment(id: "a1", kind: .file(url: URL(fileURLWithPath: "/a"))))),
                Message(id: "m2", text: "two", author: .id("2"), replyTo: .id("m1")),
                Message(id: "m3", text: "three", author: .id("3"), viewedBy: .ids(["2", "1"])),
            ]),
            admins: .ids(["1"])
        ).save(to: &context)
        try Chat(id: "c").move("m3", in: \.$messages, to: 0, in: &context)
    }

    @Test("What is written is what a reopened store resolves, order included", arguments: BackendKind.allCases)
    func reopenResolvesTheSame(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open()
        try await store.write { context in try Self.seed(&context) }
        let written = Self.dumped(store.context)
        try await store.close()
        let reopened = try await harness.open()
        #expect(Self.dumped(reopened.context) == written)
        #expect(ids(reopened.context, "c", \Chat.$messages) == ["m3", "m1", "m2"])
        let chat = try await reopened.read { Chat.query("c", in: $0).with(\.$messages) { $0.with(\.$attachment) }.resolve() }
        #expect(chat?.messages?.first { $0.id == "m1" }?.attachment?.id == "a1")
        try reopened.context.checkInvariants()
    }

    @Test("Each write persists only what it changed", arguments: BackendKind.allCases)
    func writesOnlyChanges(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let backend = RecordingBackend(try harness.backend())
        let store = try await Store(backend: backend, schema: StoreHarness.schema)
        try await store.write { context in try Self.seed(&context) }
        try await store.set(\Chat.$users, of: "c", to: .appending(ids: ["4"]))
        let last = try #require(backend.writes.last)
        // One row for the mutual pair c.users → 4 / 4.chats → c, with both positions; no entity.
        #expect(last.upsertedLinks.count == 1 && last.deletedLinks.isEmpty && last.upsertedEntities.isEmpty)
        let row = try #require(last.upsertedLinks.first)
        #expect("\(row.type).\(row.relation) \(row.source) \(row.target)" == "RelataTests.Chat.users c 4")
        #expect(row.position == store.context.table(Chat.self)?.existingLinkTable(Chat.relationKey(\Chat.$users), String.self)?
            .list(of: "c")?.key(of: "4")?.description)
        #expect(row.inversePosition != nil && row.inversePosition == User(id: "4", name: "").positions(of: \.$chats, in: store.context).first?.key.description)
        try await store.write { context in try Chat(id: "c").move("m2", in: \.$messages, to: 0, in: &context) }
        #expect(backend.writes.last?.count == 1, "a move writes one link")
        // Moving the chat within the user's chats rewrites the same pair row (its inverse position).
        try await store.write { context in try Chat(id: "e", users: .ids(["1"])).save(to: &context) }
        try await store.write { context in try User(id: "1", name: "Bob").move("e", in: \.$chats, to: 0, in: &context) }
        let moved = try #require(backend.writes.last?.upsertedLinks)
        #expect(moved.map { "\($0.type).\($0.relation) \($0.source) \($0.target)" } == ["RelataTests.Chat.users e 1"])
        try await store.delete(Message.self, id: "m1")
        let erase = try #require(backend.writes.last)
        #expect(Set(erase.deletedEntities.map(\.id)) == ["m1", "a1"], "the message and its cascaded attachment")
        #expect(try await store.write { _ in 42 } == 42)
        #expect(backend.writes.count == 6, "a write that changes nothing persists nothing")
    }

    @Test("A write whose body throws changes nothing, in memory or in storage", arguments: BackendKind.allCases)
    func throwingBody(kind: BackendKind) async throws {
        struct Stop: Error {}
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open()
        try await store.write { context in try Self.seed(&context) }
        let before = Self.dumped(store.context)
        await #expect(throws: Stop.self) {
            try await store.write { context in
                try Message.delete(id: "m1", from: &context)
                try User(id: "9", name: "Nine").save(to: &context)
                throw Stop()
            }
        }
        #expect(Self.dumped(store.context) == before)
        try await store.close()
        #expect(Self.dumped(try await harness.open().context) == before)
    }

    @Test("A write that fails to persist changes nothing and reports a storage error", arguments: BackendKind.allCases)
    func failingPersistence(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let backend = RecordingBackend(try harness.backend())
        let store = try await Store(backend: backend, schema: StoreHarness.schema)
        try await store.write { context in try Self.seed(&context) }
        let before = Self.dumped(store.context)
        backend.failNext = true
        let error = await #expect(throws: RelataError.self) {
            try await store.write { context in try Message.delete(id: "m2", from: &context) }
        }
        #expect(error?.code == .storageFailed)
        #expect(Self.dumped(store.context) == before)
        try await store.write { context in try Message.delete(id: "m2", from: &context) }
        #expect(store.context.entity(Message.self, id: "m2") == nil, "the store works after a failure")
    }

    @Test("A write that assigns a context built elsewhere persists the difference", arguments: BackendKind.allCases)
    func replacedContext(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open()
        try await store.write { context in try Self.seed(&context) }
        try await store.write { context in
            var fresh = Context()
            try User(id: "1", name: "Bob").save(to: &fresh)
            try Chat(id: "d", users: .ids(["1"])).save(to: &fresh)
            context = fresh
        }
        #expect(store.context.ids(of: Message.self).isEmpty)
        try await store.write { context in try User(id: "2", name: "Alice").save(to: &context) }
        let final = Self.dumped(store.context)
        try await store.close()
        let reopened = try await harness.open()
        #expect(Self.dumped(reopened.context) == final)
        #expect(reopened.context.ids(of: "1", \User.$chats) == ["d"])
        #expect(reopened.context.ids(of: Chat.self) == ["d"])
        try reopened.context.checkInvariants()
    }

    @Test("Background get and set of one relation", arguments: BackendKind.allCases)
    func getAndSet(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open()
        try await store.write { context in try Self.seed(&context) }
        #expect(await store.get(\Chat.$users, of: "c").map(\.id) == ["3", "1", "2"])
        #expect(await store.get(\Message.$author, of: "m2")?.name == "Alice")
        try await store.set(\Message.$author, of: "m2", to: .id("3"))
        #expect(await store.get(\Message.$author, of: "m2")?.id == "3")
        try await store.set(\Chat.$users, of: "c", to: .ids(["2", "3"]))
        #expect(await store.get(\Chat.$users, of: "c").map(\.id) == ["2", "3"])
        #expect(await store.entity(User.self, id: "1")?.name == "Bob")
        try await store.save(User(id: "1", name: "Robert"))
        #expect(await store.entity(User.self, id: "1")?.name == "Robert")
    }

    @Test("A closed store refuses writes", arguments: BackendKind.allCases)
    func closed(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open()
        try await store.close()
        let error = await #expect(throws: RelataError.self) { try await store.save(User.bob) }
        #expect(error?.code == .storeClosed)
    }

    @Test("After every kind of write, a store's context reads what a whole load of storage holds", arguments: BackendKind.allCases)
    func contextAgreesWithStorage(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open()
        try await store.write { context in try Self.seed(&context) }
        try await store.write { context in
            try Note(id: "n", title: "t", body: "b").save(to: &context)
            try Chat(id: "c", users: .ids(["2", "3", "1"])).save(to: &context)
            try Chat(id: "c").insert("m2", into: \.$messages, at: 0, in: &context)
        }
        try await store.write { context in
            try Note(id: "n", body: "patched").save(to: &context)          // patch merge
            try Message(id: "m4", text: "four", author: .id("1"), chat: .id("d")).save(to: &context)
            try Message(id: "m1", text: "one", author: .id("1"), chat: .id("d")).save(to: &context)  // to-one moves
            try Chat.delete(id: "c", from: &context)                         // cascade
        }
        struct Stop: Error {}
        _ = try? await store.write { context -> Int in
            try User.delete(id: "1", from: &context)
            throw Stop()
        }
        try await store.write { context in try User(id: "3", name: "Johnny").save(to: &context) }
        let whole = try loadedWhole(try harness.backend(), schema: StoreHarness.schema)
        #expect(Self.dumped(whole) == Self.dumped(store.context))
        #expect(whole.entity(Note.self, id: "n") == store.context.entity(Note.self, id: "n"))
        #expect(store.context.entity(Note.self, id: "n")?.title == "t")
        try whole.checkInvariants()
    }
}
