import Foundation
import Relata
@testable import RelataCore
import Testing

/// Writes of 512 rows or more take the Store's paths on every core: link rows gathered beside the
/// payload encoding, the catch-up read while the write is persisted and applied table by table
/// on several threads. A store's context must read what storage holds after each, and reopen to the same state.
@Suite("Store: large writes")
struct StoreLargeWriteTests {
    static let users = (0..<20).map { "u\($0)" }
    static let chats = (0..<40).map { "c\($0)" }
    static let messages = (0..<1_600).map { "m\($0)" }
    static let attachments = (0..<1_600).filter { $0 % 10 == 0 }.map { "a\($0)" }

    static func dumped(_ context: Context) -> String {
        var text = dump(context, users: users, chats: chats, messages: messages, attachments: attachments)
        for user in users {
            text += "\n\(user) authored \(context.sources(linkingTo: user, through: \Message.$author))"
            text += " viewed \(context.sources(linkingTo: user, through: \Message.$viewedBy))"
        }
        return text
    }

    static func message(_ j: Int, chat: Int? = nil, author: Int? = nil) -> Message {
        let url = URL(fileURLWithPath: "/files/\(j)")
        return Message(
            id: "m\(j)", text: "message \(j)", author: .id("u\((author ?? j) % users.count)"),
            chat: .id("c\((chat ?? j) % chats.count)"),
            attachment: j % 10 == 0 ? .relation(Attachment(id: "a\(j)", kind: .file(url: url))) : .none,
            replyTo: j % 5 == 1 && j >= 100 ? .id("m\(j - 100)") : .none,
            viewedBy: j % 3 == 0 ? .ids(["u\(j % 7)", "u\(j % 11)"]) : .none
        )
    }

    /// The store's context reads what a whole load of its storage holds, with their invariants.
    static func expectCopiesAgree(_ store: Store, _ step: String) async throws {
        let published = store.context, whole = try loadedWhole(store.writer.backend, schema: store.schema)
        #expect(dumped(whole) == dumped(published), "after \(step): the store's context and storage, position keys included")
        try whole.checkInvariants()
        try published.checkInvariants()
    }

    @Test("Large writes (saves, moves, one-way retargets, cascades, dynamic links) read what storage holds", arguments: BackendKind.allCases)
    func largeWrites(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await Store(backend: try harness.backend(), schema: StoreHarness.schema)
        try await store.write { context in
            for user in Self.users { try User(id: user, name: "name \(user)").save(to: &context) }
            for (i, chat) in Self.chats.enumerated() {
                try Chat(id: chat, users: .ids([Self.users[i % 20], Self.users[(i + 3) % 20]]), admins: .ids([Self.users[i % 20]])).save(to: &context)
            }
            for j in 0..<1_000 { try Self.message(j).save(to: &context) }
        }
        try await Self.expectCopiesAgree(store, "the first 1,000 messages")

        try await store.write { context in
            for j in 1_000..<1_600 { try Self.message(j).save(to: &context) }
            // Move 300 messages to other chats and give them other authors (one-way backlinks move).
            for j in stride(from: 0, to: 900, by: 3) { try Self.message(j, chat: j + 7, author: j + 5).save(to: &context) }
            for j in stride(from: 1, to: 400, by: 4) {
                try context.relate(EntityReference(Message.self, id: "m\(j)"), .owns, EntityReference(User.self, id: "u\(j % 20)"))
            }
        }
        try await Self.expectCopiesAgree(store, "600 more messages and 300 moves")

        try await store.write { context in
            // Cascades: the chats' messages (and their attachments) go with them.
            for chat in Self.chats.prefix(15) { try Chat.delete(id: chat, from: &context) }
            for j in stride(from: 1, to: 200, by: 8) {
                _ = context.unrelate(EntityReference(Message.self, id: "m\(j)"), .owns, EntityReference(User.self, id: "u\(j % 20)"))
            }
        }
        try await Self.expectCopiesAgree(store, "deleting 15 chats")
        #expect(store.context.ids(of: "c0", \Chat.$messages).isEmpty)

        let before = Self.dumped(store.context)
        try await store.close()
        let reopened = try await Store(backend: try harness.backend(), schema: StoreHarness.schema)
        #expect(Self.dumped(reopened.context) == before)
    }
}
