import Foundation
import Relata
@testable import RelataCore
import Synchronization
import Testing

/// `store.commits` and `store.observe`: every commit in order with what it changed; query values
/// re-evaluated only when a commit touched what they read. (The limit guards against a hang: a
/// test awaits a thousand values one by one, each resumed on Swift's two-thread cooperative pool,
/// which the suite's synchronous store tests keep busy on this two-core machine.)
@Suite("Store: observation", .timeLimit(.minutes(3)))
struct StoreObservationTests {
    static let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)

    @Test("commits: each write, in order, with the ids it stored and erased and the links on both sides")
    func localCommits() async throws {
        let store = try await Store.inMemory(entities: User.self, Chat.self, Message.self, Attachment.self)
        let commits = store.commits.makeAsyncIterator()
        try await store.write { try Chat(id: "c").save(to: &$0) }
        try await store.write { try Message(id: "m", text: "hi", author: .id("u"), chat: .id("c")).save(to: &$0) }
        try await store.write { try Message(id: "m", text: "hi", author: .id("u")).delete(from: &$0) }
        let first = try #require(await commits.next())
        #expect(first.isLocal)
        #expect(first.delta.storedIDs(of: Chat.self) == ["c"])
        let second = try #require(await commits.next())
        #expect(second.delta.storedIDs(of: Message.self) == ["m"])
        #expect(second.delta.linkUpdates(\Message.$chat) == [LinkUpdate(source: "m", target: "c", isLinked: true)])
        #expect(second.delta.linkUpdates(\Chat.$messages) == [LinkUpdate(source: "c", target: "m", isLinked: true)], "the other side too")
        let third = try #require(await commits.next())
        #expect(third.delta.erasedIDs(of: Message.self) == ["m"])
        #expect(third.delta.linkUpdates(\Chat.$messages) == [LinkUpdate(source: "c", target: "m", isLinked: false)])
    }

    @Test("commits: another store's commits arrive as remote, once caught up")
    func remoteCommits() async throws {
        let backend = InMemoryBackend()
        let watcher = try await Store(backend: backend, schema: Self.schema, followInterval: .milliseconds(5))
        let writer = try await Store(backend: backend, schema: Self.schema, followInterval: nil)
        let commits = watcher.commits.makeAsyncIterator()
        try await writer.write { try User(id: "u", name: "Ann").save(to: &$0) }
        let commit = try #require(await commits.next())
        #expect(commit.kind == .remote)
        #expect(commit.delta.storedIDs(of: User.self) == ["u"])
        #expect(commit.sequence == writer.sequence)
    }

    /// Counts the evaluations of observed closures.
    final class Counter: Sendable {
        let count = Atomic(0)
        func bump() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    @Test("observe: the value at once, then after each commit that touched what it read; other commits evaluate nothing")
    func observeValue() async throws {
        let store = try await Store.inMemory(entities: User.self, Chat.self, Message.self, Attachment.self)
        try await store.write { context in
            try Chat(id: "c1").save(to: &context)
            try Chat(id: "c2").save(to: &context)
        }
        let evaluations = Counter()
        let values = store.observe { context in
            evaluations.bump()
            return Chat.query("c1", in: context).related(\.$messages).resolve().map(\.text)
        }.makeAsyncIterator()
        #expect(try await values.next() == [])
        try await store.write { try Message(id: "a", text: "to c2", author: .id("u"), chat: .id("c2")).save(to: &$0) }
        try await store.write { try Message(id: "b", text: "to c1", author: .id("u"), chat: .id("c1")).save(to: &$0) }
        #expect(try await values.next() == ["to c1"])
        #expect(evaluations.value == 2, "the commit to c2 evaluated nothing")
        // A message it resolved changes: it read that entity.
        try await store.write { try Message(id: "b", text: "edited", author: .id("u"), chat: .id("c1")).save(to: &$0) }
        #expect(try await values.next() == ["edited"])
    }

    @Test("observe: 1,000 observers of 1,000 chats, one commit to one chat: one evaluation")
    func manyObservers() async throws {
        let store = try await Store.inMemory(entities: User.self, Chat.self, Message.self, Attachment.self)
        try await store.write { context in
            for i in 0..<1_000 { try Chat(id: "c\(i)").save(to: &context) }
        }
        let evaluations = Counter()
        var streams: [StoreObservation<Int>.Iterator] = []
        for i in 0..<1_000 {
            let iterator = store.observe { context in
                evaluations.bump()
                return context.count(of: "c\(i)", \Chat.$messages)
            }.makeAsyncIterator()
            #expect(try await iterator.next() == 0)
            streams.append(iterator)
        }
        #expect(evaluations.value == 1_000)
        try await store.write { try Message(id: "m", text: "hi", author: .id("u"), chat: .id("c500")).save(to: &$0) }
        #expect(try await streams[500].next() == 1)
        // Commits are handed on in order: once this one's value arrives, the first one's work is done.
        try await store.write { try Message(id: "n", text: "hi", author: .id("u"), chat: .id("c7")).save(to: &$0) }
        #expect(try await streams[7].next() == 1)
        #expect(evaluations.value == 1_002)
    }

    @Test("observe: equal values are not repeated; bursts give the latest value")
    func equalValuesAndBursts() async throws {
        let store = try await Store.inMemory(entities: User.self, Chat.self, Message.self, Attachment.self)
        try await store.write { try User(id: "u", name: "Ann").save(to: &$0) }
        let names = store.observe { $0.entity(User.self, id: "u")?.name }.makeAsyncIterator()
        #expect(try await names.next() == "Ann")
        try await store.write { try User(id: "u", name: "Ann").save(to: &$0) }  // same value
        for i in 0..<50 { try await store.write { try User(id: "u", name: "Bob \(i)").save(to: &$0) } }
        var last = try await names.next()
        #expect(last != "Ann", "the unchanged save yielded nothing")
        while last != "Bob 49" { last = try await names.next() }
        #expect(last == "Bob 49")
    }

    @Test("observe: a backlink of a one-way relation notifies when a source leaves or joins it")
    func backlinks() async throws {
        let store = try await Store.inMemory(entities: User.self, Chat.self, Message.self, Attachment.self)
        try await store.write { try Message(id: "m", text: "hi", author: .id("u1")).save(to: &$0) }
        let authored = store.observe { $0.sources(linkingTo: "u1", through: \Message.$author) }.makeAsyncIterator()
        #expect(try await authored.next() == ["m"])
        try await store.write { try Message(id: "m", text: "hi", author: .id("u2")).save(to: &$0) }
        #expect(try await authored.next() == [], "retargeted away from u1")
    }

    @Test("observe: ending the iteration unregisters the observer")
    func cancellation() async throws {
        let store = try await Store.inMemory(entities: User.self, Chat.self, Message.self, Attachment.self)
        let task = Task {
            for try await _ in store.observe({ $0.count(of: User.self) }) {}
        }
        while store.writer.observers.observerCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        task.cancel()
        _ = await task.result
        while store.writer.observers.observerCount > 0 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(store.writer.observers.observerCount == 0)
        do {
            let values = store.observe { $0.count(of: User.self) }.makeAsyncIterator()
            #expect(try await values.next() == 0)
        }
        // The iterator is gone: its stream terminates and unregisters.
        while store.writer.observers.observerCount > 0 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(store.writer.observers.observerCount == 0)
    }

    @Test("observe: another store's commit reaches this store's observers without refresh", arguments: BackendKind.allCases)
    func acrossStores(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let observed = try await Store(backend: harness.backend(), schema: StoreHarness.schema, followInterval: .milliseconds(5))
        let other = try await Store(backend: harness.backend(), schema: StoreHarness.schema, followInterval: nil)
        let users = observed.observe { context in context.ids(of: User.self).sorted() }.makeAsyncIterator()
        #expect(try await users.next() == [])
        try await other.write { try User(id: "u", name: "Ann").save(to: &$0) }
        #expect(try await users.next() == ["u"])
        try await observed.close()
        try await other.close()
    }
}
