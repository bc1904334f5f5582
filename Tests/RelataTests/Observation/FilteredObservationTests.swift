import Foundation
import Relata
@testable import RelataCore
import Synchronization
import Testing

/// `store.observe` of a filtered query: a commit re-evaluates it only when it touches an entity
/// of the type whose old value matched (one the query kept, up to its window's end) or whose new
/// value matches. Each test awaits a second observer that reads every message, evaluated in the
/// same batch as the filtered one: once its value arrives, the filtered observer's evaluation for
/// that commit, if any, has run.
@Suite("Store: observing filtered queries", .timeLimit(.minutes(1)))
struct FilteredObservationTests {
    /// Counts the evaluations of an observed closure.
    final class Counter: Sendable {
        let count = Atomic(0)
        func bump() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// A store with user "u", chat "c" and `messages` (id, text).
    static func store(_ kind: BackendKind, _ harness: StoreHarness, messages: [(String, String)]) async throws -> Store {
        let store = try await harness.open()
        try await store.write { context in
            try User(id: "u", name: "Ann").save(to: &context)
            try Chat(id: "c").save(to: &context)
            for (id, text) in messages { try Message(id: id, text: text, author: .id("u"), chat: .id("c")).save(to: &context) }
        }
        return store
    }

    /// Every value of the observer that reads every message (not `Equatable`: each is handed out).
    struct Seen: Sendable {
        let ids: [String]
    }

    static func write(_ store: Store, _ id: String, _ text: String) async throws {
        try await store.write { try Message(id: id, text: text, author: .id("u"), chat: .id("c")).save(to: &$0) }
    }

    @Test("a commit of entities that neither matched nor match evaluates nothing; one that matches, or matched, does", arguments: BackendKind.allCases)
    func matchingCommits(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await Self.store(kind, harness, messages: [("m1", "hot 1"), ("m2", "cold 2")])
        let evaluations = Counter()
        let hot = store.observe { context in
            evaluations.bump()
            return Message.query(in: context).filter(.string(\.text, hasPrefix: "hot")).sorted(by: \.text).resolve().map(\.id)
        }.makeAsyncIterator()
        let all = store.observe { context in Seen(ids: context.ids(of: Message.self).sorted()) }.makeAsyncIterator()
        #expect(try await hot.next() == ["m1"])
        #expect(try await all.next()?.ids == ["m1", "m2"])
        #expect(evaluations.value == 1)

        // Neither old nor new value matches: a change, a new one, an erasure.
        try await Self.write(store, "m2", "cold 2b")
        #expect(try await all.next()?.ids == ["m1", "m2"])
        try await Self.write(store, "m3", "cold 3")
        #expect(try await all.next()?.ids == ["m1", "m2", "m3"])
        try await store.write { try Message(id: "m3", text: "cold 3", author: .id("u")).delete(from: &$0) }
        #expect(try await all.next()?.ids == ["m1", "m2"])
        #expect(evaluations.value == 1, "commits of messages that never matched evaluated nothing")

        // The new value matches: a new message, or one that starts to match.
        try await Self.write(store, "m4", "hot 4")
        #expect(try await hot.next() == ["m1", "m4"])
        #expect(evaluations.value == 2)
        try await Self.write(store, "m2", "hot 2")
        #expect(try await hot.next() == ["m1", "m2", "m4"])
        #expect(evaluations.value == 3)

        // The old value matched: a kept message stops matching, or is erased.
        try await Self.write(store, "m1", "cold 1")
        #expect(try await hot.next() == ["m2", "m4"])
        try await store.write { try Message(id: "m4", text: "hot 4", author: .id("u")).delete(from: &$0) }
        #expect(try await hot.next() == ["m2"])
        #expect(evaluations.value == 5)
        try await store.close()
    }

    @Test("with a window, an entity skipped by the offset that stops matching shifts the page; one past the window does not", arguments: BackendKind.allCases)
    func windows(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await Self.store(kind, harness, messages: (1...6).map { ("m\($0)", "hot \($0)") })
        let evaluations = Counter()
        let page = store.observe { context in
            evaluations.bump()
            return Message.query(in: context).filter(.string(\.text, hasPrefix: "hot")).sorted(by: \.text)
                .limit(2, offset: 1).resolve().map(\.id)
        }.makeAsyncIterator()
        let all = store.observe { context in Seen(ids: context.ids(of: Message.self).sorted()) }.makeAsyncIterator()
        #expect(try await page.next() == ["m2", "m3"])
        _ = try await all.next()

        // m6 matched, but past the window's end: it stops matching, the page stays.
        try await Self.write(store, "m6", "cold 6")
        _ = try await all.next()
        #expect(evaluations.value == 1)

        // m1, skipped by the offset, stops matching: the page moves up.
        try await Self.write(store, "m1", "cold 1")
        #expect(try await page.next() == ["m3", "m4"])
        #expect(evaluations.value == 2)
        try await store.close()
    }

    @Test("a closure filter on relations `with` resolved sees links change")
    func relationFilters() async throws {
        let store = try await Store.inMemory(entities: User.self, Chat.self, Message.self, Attachment.self)
        try await store.write { context in
            try User(id: "u1", name: "Ann").save(to: &context)
            try User(id: "u2", name: "Bob").save(to: &context)
        }
        let members = store.observe { context in
            User.query(in: context).with(\.$chats).filter { !($0.chats ?? []).isEmpty }.resolve().map(\.id)
        }.makeAsyncIterator()
        #expect(try await members.next() == [])
        // The chat's users list changes, not any user's value.
        try await store.write { try Chat(id: "c", users: .ids(["u2"])).save(to: &$0) }
        #expect(try await members.next() == ["u2"])
        try await store.write { try Chat(id: "c", users: .ids(["u1"])).save(to: &$0) }
        #expect(try await members.next() == ["u1"])
    }
}
