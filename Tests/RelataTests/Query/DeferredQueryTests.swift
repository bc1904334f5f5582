import Foundation
import Relata
import Testing

/// The deferred query form (SwiftletModel's `query()`…`resolve(in:)`) beside the bound one:
/// the same answers, in memory and in a store's contexts.
@Suite("Deferred queries")
struct DeferredQueryTests {
    private func chatContext() throws -> Context {
        var context = Context()
        try Chat(
            id: "c",
            users: .relation([.bob, .alice]),
            messages: .relation([
                Message(id: "m1", text: "hello", author: .relation(.bob)),
                Message(id: "m2", text: "howdy", author: .relation(.alice)),
                Message(id: "m3", text: "hey", author: .relation(.bob)),
            ])
        ).save(to: &context)
        return context
    }

    @Test("A deferred query resolves in the context it is given, as the bound query does")
    func deferredEqualsBound() throws {
        let context = try chatContext()
        let deferred = Chat.query("c").with(\.$messages) { $0.with(\.$author) }.id(\.$users)
        let bound = Chat.query("c", in: context).with(\.$messages) { $0.with(\.$author) }.id(\.$users)
        #expect(deferred.resolve(in: context) == bound.resolve())
        #expect(deferred.resolve(in: context)?.messages?.map(\.author?.name) == ["Bob", "Alice", "Bob"])
        // The description does not resolve without a context.
        #expect(deferred.resolve() == nil)
        #expect(Message.query().resolve().isEmpty)
    }

    @Test("One deferred query resolves in several contexts, each answering for itself")
    func oneQueryManyContexts() throws {
        let before = try chatContext()
        var after = before
        try Message(id: "m4", text: "yo", author: .relation(.alice), chat: .id("c")).save(to: &after)
        let messages = Chat.query("c").related(\.$messages)
        #expect(messages.resolve(in: before).map(\.id) == ["m1", "m2", "m3"])
        #expect(messages.resolve(in: after).map(\.id) == ["m1", "m2", "m3", "m4"])
    }

    @Test("A nested to-many closure filters, sorts and limits the related entities")
    func nestedListShapes() throws {
        let context = try chatContext()
        let chat = Chat.query("c")
            .with(\.$messages) { $0.filter(.string(\.text, hasPrefix: "h")).sorted(by: \.text).limit(2) }
            .resolve(in: context)
        #expect(chat?.messages?.map(\.text) == ["hello", "hey"])
    }

    @Test("In a nested to-many closure, or and and start from each entity's related entities")
    func nestedCombinations() throws {
        var context = try chatContext()
        try Chat(id: "d", messages: .relation([Message(id: "m9", text: "hi there", author: .relation(.alice))])).save(to: &context)
        // Chat c's messages starting "hel", then every message of the type starting "hi".
        let either = Chat.query("c")
            .with(\.$messages) { $0.filter(.string(\.text, hasPrefix: "hel")).or(.filter(.string(\.text, hasPrefix: "hi"))) }
            .resolve(in: context)
        #expect(either?.messages?.map(\.id) == ["m1", "m9"])
        // Chat c's messages that the other list also returns; a sort after the combination orders it.
        let both = Chat.query("c")
            .with(\.$messages) { $0.and(.filter(.string(\.text, hasPrefix: "h"))).sorted(by: \.text, ascending: false) }
            .resolve(in: context)
        #expect(both?.messages?.map(\.id) == ["m2", "m3", "m1"])
        let bound = Chat.query("d", in: context).with(\.$messages) { $0.or(.filter(\.text == "hey")) }.resolve()
        #expect(bound?.messages?.map(\.id) == ["m9", "m3"])
    }

    @Test("or, and, first and last combine lists as SwiftletModel does")
    func combinations() throws {
        let context = try chatContext()
        let either = Message.filter(\.text == "hello").or(.filter(\.text == "hey")).resolve(in: context)
        #expect(either.map(\.id) == ["m1", "m3"])
        let both = Message.filter(.string(\.text, hasPrefix: "h")).and(Message.filter(\.text == "howdy")).resolve(in: context)
        #expect(both.map(\.id) == ["m2"])
        #expect(Message.query().sorted(by: \.text).first().resolve(in: context)?.text == "hello")
        #expect(Message.query().sorted(by: \.text).last().resolve(in: context)?.text == "howdy")
    }

    @Test("A deferred to-one related query resolves to the target, or to nothing without a link")
    func toOneRelated() throws {
        let context = try chatContext()
        #expect(Message.query("m2").related(\.$author).resolve(in: context)?.name == "Alice")
        #expect(Message.query("none").related(\.$author).resolve(in: context) == nil)
    }

    @Test("Metadata: each save records its time; filters and sorts read it", arguments: [false, true])
    func metadata(deferred: Bool) throws {
        var context = Context()
        try Message(id: "a", text: "1").save(to: &context)
        let middle = Date()
        Thread.sleep(forTimeInterval: 0.002)
        try Message(id: "b", text: "2").save(to: &context)
        try Message(id: "c", text: "3").save(to: &context)
        try Message(id: "a", text: "1 again").save(to: &context)
        let list = deferred ? Message.query() : Message.query(in: context)
        let recent = list.filter(.updated(within: middle...Date.distantFuture)).sorted(by: .updatedAt)
        #expect((deferred ? recent.resolve(in: context) : recent.resolve()).map(\.id) == ["b", "c", "a"])
        try Message.delete(id: "b", from: &context)
        #expect(Message(id: "b", text: "2").updatedAt(in: context) == nil)
    }

    @Test("In a store's context a deferred query answers as in memory", arguments: BackendKind.allCases)
    func inStore(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await harness.open()
        let memory = try chatContext()
        try await store.write { context in try memory.entity(Chat.self, id: "c").map { _ in
            try Chat.query("c", in: memory).with(\.$messages) { $0.with(\.$author) }.with(\.$users).resolve()?.save(to: &context)
        } }
        @Sendable func query() -> QueryList<Message> {
            Message.filter(.string(\.text, hasPrefix: "h")).sorted(by: \.text).with(\.$author).limit(2)
        }
        let stored = try await store.read { context in query().resolve(in: context) }
        #expect(stored == query().resolve(in: memory))
        #expect(stored.map(\.id) == ["m1", "m3"])
    }
}
