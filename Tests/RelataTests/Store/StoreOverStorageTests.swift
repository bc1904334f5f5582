import Foundation
import Relata
@_spi(Paged) @testable import RelataCore
import Testing

/// A store over storage (`Store(backend:)`) keeps no copy: opening reads no rows, a context
/// reads what it is asked about, and a context answers as of its snapshot — or refuses, typed.
/// (The store conformance, write-path, several-stores and observation tests run on it too, as the
/// `sqlite, over storage` backend kind.)
@Suite("Store over storage")
struct StoreOverStorageTests {
    /// A store file with `chats` chats of five messages each.
    static func seeded(chats: Int) async throws -> StoreHarness {
        let harness = try StoreHarness(.sqlite)
        let store = try await Store(backend: harness.backend(), schema: StoreHarness.schema)
        try await store.write { context in
            for c in 0..<chats {
                try Chat(id: "c\(c)", users: .ids(["u\(c)"])).save(to: &context)
                for m in 0..<5 { try Message(id: "m\(c)-\(m)", text: "t\(m)", author: .id("u\(c)"), chat: .id("c\(c)")).save(to: &context) }
            }
        }
        try await store.close()
        return harness
    }

    @Test("Opening reads no rows, whatever the size: the same statements for 10 chats as for 1,000")
    func openReadsNothing() async throws {
        var counts: [Int] = []
        for chats in [10, 1_000] {
            let harness = try await Self.seeded(chats: chats)
            defer { harness.remove() }
            let backend = try SQLiteBackend(path: harness.path)
            let store = try await Store(backend: backend, schema: StoreHarness.schema, followInterval: nil)
            counts.append(backend.statementCount)
            #expect(store.context.entity(Message.self, id: "m3-2")?.text == "t2")
            #expect(store.context.ids(of: "c3", \Chat.$messages) == (0..<5).map { "m3-\($0)" })
            try await store.close()
        }
        #expect(counts[0] == counts[1], "open statements: \(counts)")
    }

    @Test("Counting entities reads the stored count, whatever the size; a context that wrote some counts them all")
    func countWithoutReading() async throws {
        var statements: [Int] = []
        for chats in [2, 200] {
            let harness = try await Self.seeded(chats: chats)
            defer { harness.remove() }
            let backend = try SQLiteBackend(path: harness.path)
            let store = try await Store(backend: backend, schema: StoreHarness.schema, followInterval: nil)
            let before = backend.statementCount
            #expect(store.context.count(of: Message.self) == chats * 5)
            #expect(store.context.count(of: Chat.self) == chats)
            statements.append(backend.statementCount - before)
            let counted = try await store.write { context in
                try Message(id: "new", text: "n", author: .id("u0"), chat: .id("c0")).save(to: &context)
                try Message(id: "newer", text: "n", author: .id("u0"), chat: .id("c0")).save(to: &context)
                try Message.delete(id: "m1-0", from: &context)
                try Message(id: "m1-1", text: "edited", author: .id("u1"), chat: .id("c1")).save(to: &context)
                return context.count(of: Message.self)
            }
            #expect(counted == chats * 5 + 1, "two added, one erased, one replaced: counted with the writes")
            #expect(store.context.count(of: Message.self) == chats * 5 + 1)
            try await store.close()
        }
        #expect(statements[0] == statements[1], "statements to count: \(statements)")
    }

    @Test("A context answers as of its snapshot: rows it holds stay, rows changed since are refused with staleSnapshot")
    func snapshotOrRefusal() async throws {
        let harness = try await Self.seeded(chats: 3)
        defer { harness.remove() }
        let store = try await Store(backend: harness.backend(), schema: StoreHarness.schema, followInterval: nil)
        let held = store.context
        #expect(held.entity(Message.self, id: "m0-0")?.text == "t0")
        try await store.write { context in
            try Message(id: "m0-0", text: "edited", author: .id("u0"), chat: .id("c0")).save(to: &context)
            try Message(id: "m1-0", text: "edited too", author: .id("u1"), chat: .id("c1")).save(to: &context)
        }
        #expect(held.entity(Message.self, id: "m0-0")?.text == "t0", "read before the write: kept")
        #expect(held.entity(Message.self, id: "m2-0")?.text == "t0", "not changed since: read as of the snapshot")
        #expect(held.storageFailure == nil)
        #expect(held.entity(Message.self, id: "m1-0") == nil, "changed since and not held: not answered from a later state")
        let failure = try #require(held.storageFailure as? RelataError)
        #expect(failure.code == .staleSnapshot)
        #expect(failure.entityType == Message.storedTypeName && failure.id == "m1-0")
        #expect(store.context.entity(Message.self, id: "m1-0")?.text == "edited too", "a new context reads the newest state")
        try await store.close()
    }

    @Test("Another store's commit: a context that read before it refuses what it touched; a new context sees it at its first read, without refresh")
    func otherStoresCommits() async throws {
        let harness = try await Self.seeded(chats: 2)
        defer { harness.remove() }
        let reader = try await Store(backend: harness.backend(), schema: StoreHarness.schema, followInterval: nil)
        let writer = try await Store(backend: harness.backend(), schema: StoreHarness.schema, followInterval: nil)
        let old = reader.context
        let unread = reader.context
        #expect(old.entity(Chat.self, id: "c1") != nil, "its first read binds its snapshot")
        try await writer.write { try Message(id: "m9", text: "new", author: .id("u0"), chat: .id("c0")).save(to: &$0) }
        #expect(unread.ids(of: "c0", \Chat.$messages).last == "m9", "a context that had read nothing binds at its first read")
        #expect(unread.storageFailure == nil)
        #expect(old.ids(of: "c1", \Chat.$messages).count == 5, "c1 untouched: read as of the snapshot")
        #expect(old.ids(of: "c0", \Chat.$messages).isEmpty, "c0's list changed since: refused")
        #expect((old.storageFailure as? RelataError)?.code == .staleSnapshot)
        try await reader.refresh()
        #expect(reader.context.ids(of: "c0", \Chat.$messages).last == "m9")
        try await reader.close()
        try await writer.close()
    }

    @Test("The row cache: a second context reads what the first read without a statement; another store's commit evicts what it changed")
    func sharedCache() async throws {
        let harness = try await Self.seeded(chats: 20)
        defer { harness.remove() }
        let backend = try SQLiteBackend(path: harness.path)
        let store = try await Store(backend: backend, schema: StoreHarness.schema, followInterval: nil)
        let other = try await Store(backend: harness.backend(), schema: StoreHarness.schema, followInterval: nil)
        @Sendable func resolve(_ context: Context) -> [[String]] {
            Chat.query((0..<5).map { "c\($0)" }, in: context).with(\.$messages).resolve().map { $0.messages?.map(\.text) ?? [] }
        }
        let first = try await store.read { resolve($0) }
        #expect(first.count == 5 && first.allSatisfy { $0.count == 5 })
        let before = backend.statementCount
        #expect(try await store.read { resolve($0) } == first)
        #expect(backend.statementCount == before, "a new context, every row from the cache")
        // Another store changes a message and a chat's list; this store learns it on refresh.
        try await other.write { context in
            try Message(id: "m2-1", text: "edited", author: .id("u2"), chat: .id("c2")).save(to: &context)
            try Message(id: "m2-new", text: "new", author: .id("u2"), chat: .id("c2")).save(to: &context)
        }
        try await store.refresh()
        let after = try await store.read { resolve($0) }
        #expect(after[2] == ["t0", "edited", "t2", "t3", "t4", "new"], "the changed rows were evicted and read again")
        #expect(after[0] == first[0] && after[4] == first[4])
        // Its own write evicts too.
        try await store.write { try Message(id: "m3-0", text: "mine", author: .id("u3"), chat: .id("c3")).save(to: &$0) }
        #expect(try await store.read { resolve($0) }[3].first == "mine")
        try await store.close()
        try await other.close()
    }

    @Test("The row cache keeps at most its limit")
    func cacheLimit() async throws {
        let harness = try await Self.seeded(chats: 200)
        defer { harness.remove() }
        let limit = 20_000
        let store = try await Store(backend: harness.backend(), schema: StoreHarness.schema, followInterval: nil, cacheLimit: limit)
        let texts = try await store.read { context in (0..<200).flatMap { context.ids(of: "c\($0)", \Chat.$messages) } }
        #expect(texts.count == 1_000)
        let cache = try #require(store.writer.cache)
        #expect(cache.bytes > 0 && cache.bytes <= limit, "\(cache.bytes) bytes")
        try await store.close()
    }
}
