import Foundation
import Relata
@testable import RelataCore
import Testing

/// Mutual relations are stored once per linked pair (with both positions); stores written before
/// that, with one row per side, are rewritten when opened.
@Suite("Store: link rows")
struct StoreLinkFormatTests {
    static let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)

    /// Rows as a store kept them before pairs: one per side of every mutual link.
    static func legacyRows() -> StoreChanges {
        var changes = StoreChanges()
        func entity(_ type: String, _ id: String, _ json: String) {
            changes.upsertedEntities.append(EntityRecord(type: type, id: id, payload: Data(json.utf8)))
        }
        entity("Chat", "c", #"{"id":"c"}"#)
        entity("User", "u1", #"{"id":"u1","name":"One"}"#)
        entity("User", "u2", #"{"id":"u2","name":"Two"}"#)
        entity("Message", "m1", #"{"id":"m1","text":"hi"}"#)
        changes.upsertedLinks = [
            LinkRecord(type: "Chat", relation: "users", source: "c", target: "u1", position: "a0"),
            LinkRecord(type: "Chat", relation: "users", source: "c", target: "u2", position: "a1"),
            LinkRecord(type: "User", relation: "chats", source: "u1", target: "c", position: "a0"),
            LinkRecord(type: "User", relation: "chats", source: "u2", target: "c", position: "a0"),
            LinkRecord(type: "Chat", relation: "messages", source: "c", target: "m1", position: "a0"),
            LinkRecord(type: "Message", relation: "chat", source: "m1", target: "c", position: nil),
        ]
        return changes
    }

    @Test("A store with one row per side is read as before, then rewritten once per pair")
    func upgradesLegacyRows() async throws {
        let backend = InMemoryBackend()
        try backend.persist(Self.legacyRows())
        let store = try await Store(backend: backend, schema: Self.schema)
        let context = store.context
        #expect(context.ids(of: "c", \Chat.$users) == ["u1", "u2"])
        #expect(context.ids(of: "u1", \User.$chats) == ["c"] && context.ids(of: "u2", \User.$chats) == ["c"])
        #expect(context.ids(of: "m1", \Message.$chat) == ["c"] && context.ids(of: "c", \Chat.$messages) == ["m1"])
        try context.checkInvariants()
        #expect(
            try await Self.linkRows(backend) == ["RelataTests.Chat.users c u1", "RelataTests.Chat.users c u2"],
            "one row per pair: Chat.users on the Chat side"
        )
        #expect(try await Self.rowLinks(backend) == ["RelataTests.Message.chat m1 c"], "one-to-many: in the row of the to-one side")

        // A later unlink must not come back from a stale row of the other side.
        try await store.set(\Chat.$users, of: "c", to: .ids(["u2"]))
        try await store.close()
        let reopened = try await Store(backend: backend, schema: Self.schema)
        #expect(reopened.context.ids(of: "u1", \User.$chats).isEmpty)
        #expect(reopened.context.ids(of: "c", \Chat.$users) == ["u2"])
        try reopened.context.checkInvariants()
    }

    /// The link rows of `backend`, as `Type.relation source target`, sorted.
    static func linkRows(_ backend: some StorageBackend) async throws -> [String] {
        var rows: [String] = []
        try backend.load(entities: { _ in }, links: { rows.append("\($0.type).\($0.relation) \($0.source) \($0.target)") }, dynamicLinks: { _ in })
        return rows.sorted()
    }

    /// The to-one links kept in the entity rows of `backend`, as `Type.relation source target`, sorted.
    static func rowLinks(_ backend: some StorageBackend) async throws -> [String] {
        var rows: [String] = []
        try backend.load(
            entities: { record in
                for link in record.toOne {
                    rows.append("\(record.type).\(link.relation) \(record.id) \(link.target)")
                }
            },
            links: { _ in }, dynamicLinks: { _ in }
        )
        return rows.sorted()
    }

    /// The entity rows of `backend`, as `Type id` (`Type id (links only)` without payload), sorted.
    static func entityRows(_ backend: some StorageBackend) async throws -> [String] {
        var rows: [String] = []
        try backend.load(
            entities: { rows.append("\($0.type) \($0.id)" + ($0.payload.isEmpty ? " (links only)" : "")) },
            links: { _ in }, dynamicLinks: { _ in }
        )
        return rows.sorted()
    }

    @Test("A store that kept one-to-many pairs on the to-many side is read as before, then rewritten on the to-one side")
    func movesOneToManyPairs() async throws {
        let backend = InMemoryBackend()
        var changes = StoreChanges()
        changes.upsertedEntities = [
            EntityRecord(type: "Chat", id: "c", payload: Data(#"{"id":"c"}"#.utf8)),
            EntityRecord(type: "Message", id: "m1", payload: Data(#"{"id":"m1","text":"one"}"#.utf8)),
            EntityRecord(type: "Message", id: "m2", payload: Data(#"{"id":"m2","text":"two"}"#.utf8)),
        ]
        // The previous form: Chat.messages pairs with the list positions, no Message.chat rows.
        changes.upsertedLinks = [
            LinkRecord(type: "Chat", relation: "messages", source: "c", target: "m2", position: "a0"),
            LinkRecord(type: "Chat", relation: "messages", source: "c", target: "m1", position: "a1"),
        ]
        try backend.persist(changes)
        let store = try await Store(backend: backend, schema: Self.schema)
        #expect(store.context.ids(of: "c", \Chat.$messages) == ["m2", "m1"])
        #expect(store.context.ids(of: "m1", \Message.$chat) == ["c"])
        try store.context.checkInvariants()
        #expect(try await Self.linkRows(backend).isEmpty)
        #expect(try await Self.rowLinks(backend) == ["RelataTests.Message.chat m1 c", "RelataTests.Message.chat m2 c"])
        try await store.close()

        let reopened = try await Store(backend: backend, schema: Self.schema)
        #expect(reopened.context.ids(of: "c", \Chat.$messages) == ["m2", "m1"], "the order survives the move")
        try reopened.context.checkInvariants()
    }

    @Test("Every mutual pair is one row; one-way links and to-one pairs too", arguments: BackendKind.allCases)
    func onePerPair(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let backend = RecordingBackend(try harness.backend())
        let store = try await Store(backend: backend, schema: StoreHarness.schema)
        try await store.write { context in
            try Chat(
                id: "c", users: .ids(["1", "2"]),
                messages: .relation([
                    Message(
                        id: "m", text: "t", author: .id("1"), attachment: .relation(Attachment(id: "a", kind: .file(url: URL(fileURLWithPath: "/a")))),
                        viewedBy: .ids(["2"])
                    )
                ])
            ).save(to: &context)
        }
        let write = try #require(backend.writes.last)
        let rows = write.upsertedLinks.map { "\($0.type).\($0.relation)" }.sorted()
        // Link rows hold to-many links: users (2 pairs) and viewedBy (one-way).
        #expect(rows == ["RelataTests.Chat.users", "RelataTests.Chat.users", "RelataTests.Message.viewedBy"])
        // To-one links are in their source's entity row: author (one-way), chat (the to-one side of
        // Chat.messages) and attachment/message (a one-to-one pair, stored on one side).
        let rowLinks = write.upsertedEntities.flatMap { record in
            record.toOne.map { "\(record.type).\($0.relation) \(record.id) \($0.target)" }
        }
        #expect(rowLinks.sorted() == ["RelataTests.Attachment.message a m", "RelataTests.Message.author m 1", "RelataTests.Message.chat m c"])
        try await store.close()
        let reopened = try await Store(backend: try harness.backend(), schema: StoreHarness.schema)
        #expect(reopened.context.ids(of: "m", \Message.$attachment) == ["a"])
        #expect(reopened.context.ids(of: "2", \User.$chats) == ["c"])
        #expect(reopened.context.sources(linkingTo: "2", through: \Message.$viewedBy) == ["m"])
        try reopened.context.checkInvariants()
    }

    @Test("A to-one link from an id never saved is kept in a row without payload, until the entity or the link comes or goes", arguments: BackendKind.allCases)
    func linksOnlyRows(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await Store(backend: try harness.backend(), schema: StoreHarness.schema)
        // m9 and m8 are linked from chats but never saved: their Message.chat links need rows.
        try await store.save(Chat(id: "c", messages: .ids(["m9"])))
        try await store.save(Chat(id: "d", messages: .ids(["m8"])))
        try await store.close()
        var backend = try harness.backend()
        #expect(try await Self.entityRows(backend) == ["RelataTests.Chat c", "RelataTests.Chat d", "RelataTests.Message m8 (links only)", "RelataTests.Message m9 (links only)"])
        var reopened = try await Store(backend: backend, schema: StoreHarness.schema)
        #expect(reopened.context.ids(of: "c", \Chat.$messages) == ["m9"])
        #expect(reopened.context.entity(Message.self, id: "m9") == nil)

        // m9 is saved (its chat left unknown: the link stays); d's list is emptied (m8's row goes).
        try await reopened.save(Message(id: "m9", text: "nine"))
        try await reopened.set(\Chat.$messages, of: "d", to: .ids([]))
        try await reopened.close()
        backend = try harness.backend()
        #expect(try await Self.entityRows(backend) == ["RelataTests.Chat c", "RelataTests.Chat d", "RelataTests.Message m9"])
        #expect(try await Self.rowLinks(backend) == ["RelataTests.Message.chat m9 c"])
        reopened = try await Store(backend: backend, schema: StoreHarness.schema)
        #expect(reopened.context.entity(Message.self, id: "m9")?.text == "nine")
        #expect(reopened.context.ids(of: "m9", \Message.$chat) == ["c"])

        // A link-only change rewrites the row and keeps the entity: m9 moves to d.
        try await reopened.set(\Chat.$messages, of: "d", to: .ids(["m9"]))
        try await reopened.close()
        reopened = try await Store(backend: try harness.backend(), schema: StoreHarness.schema)
        #expect(reopened.context.entity(Message.self, id: "m9")?.text == "nine")
        #expect(reopened.context.ids(of: "d", \Chat.$messages) == ["m9"] && reopened.context.ids(of: "c", \Chat.$messages).isEmpty)
        try reopened.context.checkInvariants()
        try await reopened.close()
    }
}
