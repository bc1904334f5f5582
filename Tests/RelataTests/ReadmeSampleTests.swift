import Foundation
import Relata
import Testing

/// The samples of the README and of the guide (Docs/Guide.md), as a user pastes them (only the
/// file path is made temporary).
@Suite("README and guide samples")
struct ReadmeSampleTests {
    @Test("The README's opening example: save a chat with a message, resolve it nested")
    func openingExample() async throws {
        let (directory, path) = try MultiProcessStoreTests.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }

        var context = Context()
        try Chat(id: "1", users: .ids(["1", "2"]), messages: .relation([Message(id: "1", text: "Hi", author: .id("1"))]))
            .save(to: &context)
        let chat = Chat.query("1", in: context).with(\.$messages) { $0.with(\.$author) }.resolve()

        let store = try await Store(path: path, entities: User.self, Chat.self, Message.self, Attachment.self)
        try await store.write { context in try Chat(id: "2").save(to: &context) }   // persisted, shared

        #expect(chat?.messages?.map(\.text) == ["Hi"])
        #expect(chat?.messages?.first?.$author.id == "1", "the author is linked by id (no user 1 is stored)")
        #expect(context.ids(of: "1", \Message.$chat) == ["1"], "the inverse link was written with the link")
        try await store.close()
        let reopened = try await Store(path: path, entities: User.self, Chat.self, Message.self, Attachment.self)
        #expect(reopened.context.entity(Chat.self, id: "2") != nil, "the write was persisted")
        try await reopened.close()
    }

    @Test("Store: persistence in one line")
    func storeSample() async throws {
        let (directory, path) = try MultiProcessStoreTests.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }

        let store = try await Store(path: path, entities: User.self, Chat.self, Message.self, Attachment.self)

        try await store.write { context in                 // one transaction; all or nothing
            try Chat(id: "1", users: .ids(["1", "2"])).save(to: &context)
        }
        let chat = try await store.read { context in                 // a snapshot: no lock held while you read
            Chat.query("1", in: context).with(\.$users).resolve()
        }
        try await store.set(\Chat.$users, of: "1", to: .appending(ids: ["3"]))   // background set
        let users = await store.get(\Chat.$users, of: "1")                       // background get
        try await store.close()

        #expect(chat?.id == "1")
        #expect(users.isEmpty, "users saved by id only are links, not entities")
        let reopened = try await Store(path: path, entities: User.self, Chat.self, Message.self, Attachment.self)
        #expect(reopened.context.ids(of: "1", \Chat.$users) == ["1", "2", "3"])
    }

    @Test("Ownership, unique relations, aliases and backlinks, as the guide lists them")
    func guideSamples() throws {
        var context = Context()
        try Node(id: "A", children: .relation([Node(id: "B")])).save(to: &context)     // .cascadeOrphans
        try Node.delete(id: "A", from: &context)
        #expect(context.count(of: Node.self) == 0)

        try Movie(id: "iv", title: "A New Hope").save(to: &context)
        try Movie(id: "v", title: "Empire", prequel: .id("iv")).save(to: &context)   // unique: true
        #expect(throws: RelataError.self) { try Movie(id: "vi", title: "Jedi", prequel: .id("iv")).save(to: &context) }

        try Message(id: "m", text: "hi", author: .id("1")).save(to: &context)
        let bookmark = Bookmark(id: "b", target: Alias("m"))
        #expect(try context.instance(from: bookmark.target).text == "hi")
        #expect(context.sources(linkingTo: "1", through: \Message.$author) == ["m"])
        #expect(User.query("1", in: context).linking(\Message.$author).resolve().map(\.id) == ["m"])
    }
}
