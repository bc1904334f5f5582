import Relata
import Testing

@Suite("Queries")
struct QueryTests {
    func context() throws -> Context {
        var context = Context()
        try Chat(
            id: "c",
            users: .relation([.bob, .alice, .john]),
            messages: .relation([
                Message(id: "m1", text: "first", author: .id("1")),
                Message(id: "m2", text: "second", author: .id("2"), replyTo: .id("m1")),
                Message(id: "m3", text: "third", author: .id("ghost")),
            ]),
            admins: .ids(["2"])
        ).save(to: &context)
        return context
    }

    @Test("with resolves entities in link order; id fills ids only; missing targets stay ids")
    func withAndID() throws {
        let chat = try #require(Chat.query("c", in: context())
            .with(\.$messages) { $0.with(\.$author).id(\.$replyTo) }
            .id(\.$admins)
            .resolve())
        #expect(chat.messages?.map(\.id) == ["m1", "m2", "m3"])
        #expect(chat.messages?[0].author?.name == "Bob")
        #expect(chat.messages?[1].$replyTo.id == "m1")
        #expect(chat.messages?[2].author == nil)
        #expect(chat.messages?[2].$author.id == "ghost", "a link to an entity not stored resolves to its id")
        #expect(chat.$admins.ids == ["2"])
        #expect(chat.admins == nil)
        #expect(chat.users == nil, "relations not asked for stay .none")
        #expect(chat.$users.isNone)
    }

    @Test("An unlinked to-one resolves to nil (.none), an empty to-many to []")
    func empties() throws {
        let message = try #require(Message.query("m1", in: context()).with(\.$attachment).with(\.$replies).resolve())
        #expect(message.attachment == nil)
        #expect(message.$attachment.isNone, "no link resolves to .none, as in SwiftletModel: saving the result elsewhere unlinks nothing")
        #expect(message.replies?.map(\.id) == ["m2"])
        #expect(Message.query("m3", in: try context()).with(\.$replies).resolve()?.replies == [])
        #expect(Message.query("nope", in: try context()).resolve() == nil)
    }

    @Test("related follows a relation from either end; count reads the link table")
    func relatedAndCount() throws {
        let context = try context()
        #expect(User.query("2", in: context).related(\.$chats).resolve().map(\.id) == ["c"])
        #expect(Message.query("m2", in: context).related(\.$replyTo)?.resolve()?.id == "m1")
        #expect(Chat.query("c", in: context).count(\.$messages) == 3)
        #expect(context.count(of: "c", \Chat.$users) == 3)
        #expect(Chat.query("c", in: context).related(\.$users).count == 3)
    }

    @Test("SwiftletModel's query surface: a to-one related query is nil without a link; a to-many one is a collection of queries; entity.query(in:)")
    func swiftletModelQuerySurface() throws {
        let context = try context()
        #expect(Message.query("m1", in: context).related(\.$replyTo) == nil, "m1 replies to nothing")
        #expect(Message.query("nope", in: context).related(\.$replyTo) == nil)
        #expect(Message.query("m2", in: context).related(\.$author)?.resolve()?.name == "Alice")
        let messages = Chat.query("c", in: context).related(\.$messages).with(\.$author)
        #expect(!messages.isEmpty && messages.count == 3)
        #expect(messages.map(\.id) == ["m1", "m2", "m3"], "iteration yields one query per id, in link order")
        #expect(messages[1].resolve()?.author?.name == "Alice", "each query is shaped like the list")
        #expect(messages.first?.resolve()?.text == "first")
        #expect(Message.query("m3", in: context).related(\.$replies).isEmpty)
        var names: [String] = []
        for query in Chat.query("c", in: context).related(\.$users) { names += query.resolve().map { [$0.name] } ?? [] }
        #expect(names == ["Bob", "Alice", "John"])
        let stored = try #require(Message.query("m2", in: context).resolve())
        #expect(stored.query(in: context).with(\.$replyTo).resolve()?.replyTo?.id == "m1", "the instance form queries the entity by its id")
    }

    @Test("All entities of a type, filtered and sorted by key path; batchQuery")
    func allFilterSort() throws {
        let context = try context()
        let names = User.query(in: context).sorted(by: \.name).resolve().map(\.name)
        #expect(names == ["Alice", "Bob", "John"])
        #expect(User.query(in: context).sorted(by: \.name, ascending: false).resolve().map(\.name) == ["John", "Bob", "Alice"])
        #expect(User.query(in: context).filter(\.name, equals: "Bob").resolve().map(\.id) == ["1"])
        let admins = User.query(in: context)
            .with(\.$adminOf)
            .filter { !($0.adminOf ?? []).isEmpty }
            .resolve()
        #expect(admins.map(\.id) == ["2"])
        #expect(Set(Message.batchQuery(in: context).resolve().map(\.id)) == ["m1", "m2", "m3"])
        #expect(Message.query(["m3", "zz", "m1"], in: context).resolve().map(\.id) == ["m3", "m1"])
    }

    @Test("A query reads the snapshot it was made from")
    func snapshot() throws {
        var context = try context()
        let query = Chat.query("c", in: context).with(\.$users)
        try Chat.delete(id: "c", from: &context)
        #expect(query.resolve()?.users?.count == 3)
    }
}

@Suite("Query internals")
struct QueryInternalsTests {
    @Test("Generated entities expose the stored Relationship behind each projected relation")
    func storageKeyPaths() {
        #expect(Message._relataStorageKeyPath(\Message.$replies) != nil)
        #expect(Message._relataStorageKeyPath(\Message.$author) != nil)
        #expect(Message._relataStorageKeyPath(\Message.text) == nil)
        #expect(Label._relataStorageKeyPath(\Label.$owner) == nil, "hand-written conformances fall back to the projected value")
        let label = Label.query("l", in: { var c = Context(); try? Label(id: "l", owner: .id("u")).save(to: &c); return c }())
            .id(\.$owner).resolve()
        #expect(label?.$owner.id == "u")
    }
}
