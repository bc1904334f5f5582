import Foundation
import Relata
import Testing

/// SwiftletModel's query slices: `with(slice:)` and `id(slice:)` resolve a to-many relation as
/// an appending slice, so that saving the result appends instead of replacing.
@Suite("Query slices")
struct QuerySliceTests {
    /// Chat "c" with messages m1, m2 by "u", and user "u" in it.
    static func context() throws -> Context {
        var context = Context()
        try Chat(
            id: "c", users: .ids(["u"]),
            messages: .relation([
                Message(id: "m1", text: "one", author: .id("u")), Message(id: "m2", text: "two", author: .id("u")),
            ])
        ).save(to: &context)
        try User(id: "u", name: "Ann").save(to: &context)
        return context
    }

    @Test("with(slice:) resolves the same entities as with(), marked appending; saving them elsewhere appends after what is there")
    func withSlice() throws {
        let context = try Self.context()
        let chat = try #require(Chat.query("c", in: context).with(slice: \.$messages) { $0.id(\.$author) }.resolve())
        #expect(chat.$messages.isAppending)
        #expect(chat.messages?.map(\.id) == ["m1", "m2"])
        #expect(chat.messages?.first?.$author.id == "u", "the nested query shaped each message")
        // Another replica already holds a newer message of the chat: the slice is appended to it.
        var replica = Context()
        try Chat(id: "c", messages: .relation([Message(id: "m0", text: "zero", author: .id("u"))])).save(to: &replica)
        try chat.save(to: &replica)
        #expect(replica.ids(of: "c", \Chat.$messages) == ["m0", "m1", "m2"])
        // Without slice the same save replaces the relation.
        var replaced = Context()
        try Chat(id: "c", messages: .relation([Message(id: "m0", text: "zero", author: .id("u"))])).save(to: &replaced)
        try #require(Chat.query("c", in: context).with(\.$messages).resolve()).save(to: &replaced)
        #expect(replaced.ids(of: "c", \Chat.$messages) == ["m1", "m2"])
    }

    @Test("id(slice:) fills ids marked appending, written as slice_ids by the explicit shape")
    func idSlice() throws {
        let context = try Self.context()
        let chat = try #require(Chat.query("c", in: context).id(slice: \.$messages).resolve())
        #expect(chat.$messages.isAppending && chat.$messages.ids == ["m1", "m2"])
        let encoder = JSONEncoder.prettyPrinting
        encoder.relationEncodingStrategy = .explicitKeyedContainer
        let text = chat.prettyDescription(with: encoder) ?? ""
        #expect(text.contains("\"messages\" : {\n    \"slice_ids\" : [\n      \"m1\",\n      \"m2\"\n    ]\n  }"), "\(text)")
        let decoder = JSONDecoder()
        decoder.relationDecodingStrategy = .explicitKeyedContainer
        let decoded = try decoder.decode(Chat.self, from: Data(text.utf8))
        #expect(decoded.$messages.isAppending && decoded.$messages.ids == ["m1", "m2"])
    }

    @Test("The nested and list forms: a user's chats, each with a slice of its messages")
    func nestedAndListForms() throws {
        let context = try Self.context()
        let user = try #require(User.query("u", in: context).with(\.$chats) { $0.with(slice: \.$messages).id(slice: \.$users) }.resolve())
        let chat = try #require(user.chats?.first)
        #expect(chat.$messages.isAppending && chat.messages?.map(\.id) == ["m1", "m2"])
        #expect(chat.$users.isAppending && chat.$users.ids == ["u"])
        let chats = User.query("u", in: context).related(\.$chats).with(slice: \.$messages).id(slice: \.$users).resolve()
        #expect(chats.map(\.$messages.isAppending) == [true] && chats.map(\.$users.isAppending) == [true])
    }
}
