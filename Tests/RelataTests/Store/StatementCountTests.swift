import ChatExample
import Foundation
import Relata
import RelataPostgres
import Testing

/// `statementCount` tells how many statements (PostgreSQL: round trips) a backend ran: a
/// read or a write adds its statements, and nothing runs while a store sits idle.
@Suite("Statement counts")
struct StatementCountTests {
    typealias Message = ChatExample.Message

    @Test("SQLite: a write adds its statements, a read its own, an idle store none")
    func sqlite() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("statements-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let backend = try SQLiteBackend(path: path)
        let store = try await Store(backend: backend, schema: EntitySchema([ChatExample.Chat.self, Message.self]), followInterval: nil)
        let opened = backend.statementCount
        #expect(opened > 0, "opening reads the catalog and the log")
        try await store.write { context in
            try ChatExample.Chat(id: "c").save(to: &context)
            try Message(id: "m", text: "hi", author: .id("u"), chat: .id("c")).save(to: &context)
        }
        let written = backend.statementCount
        #expect(written > opened)
        _ = try backend.read { try $0.changes(since: 0) }
        let read = backend.statementCount
        #expect(read > written)
        #expect(try await store.read { $0.entity(Message.self, id: "m") } != nil)
        let first = backend.statementCount
        #expect(first > read, "the first read of a row reads storage")
        #expect(try await store.read { $0.entity(Message.self, id: "m") } != nil)
        #expect(backend.statementCount == first, "a row read once answers from the store's cache, without a statement")
        try await store.close()
    }

    @Test("SQLite: a bulk write appending to many stored lists reads their tails in batches, and each list keeps its stored order")
    func bulkAppends() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tails-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let backend = try SQLiteBackend(path: path)
        let store = try await Store(backend: backend, schema: EntitySchema([ChatExample.Chat.self, Message.self]), followInterval: nil)
        var counts: [Int] = []
        for chats in [100, 400] {
            let prefix = "n\(chats)-"
            try await store.write { context in
                for c in 0..<chats {
                    try ChatExample.Chat(id: "\(prefix)c\(c)").save(to: &context)
                    try Message(id: "\(prefix)old\(c)", text: "old", author: .id("u"), chat: .id("\(prefix)c\(c)")).save(to: &context)
                }
            }
            let before = backend.rowReadCount
            // One new message in each chat: each list's tail is needed to append after it.
            try await store.write { context in
                for c in 0..<chats {
                    try Message(id: "\(prefix)new\(c)", text: "new", author: .id("u"), chat: .id("\(prefix)c\(c)")).save(to: &context)
                }
            }
            counts.append(backend.rowReadCount - before)
            let fresh = try await Store(backend: SQLiteBackend(path: path), schema: EntitySchema([ChatExample.Chat.self, Message.self]), followInterval: nil)
            for c in [0, chats / 2, chats - 1] {
                #expect(fresh.context.ids(of: "\(prefix)c\(c)", \ChatExample.Chat.$messages) == ["\(prefix)old\(c)", "\(prefix)new\(c)"])
            }
            try await fresh.close()
        }
        // The first appends read their tails one by one (a point write reads one), the rest in
        // one statement per relation: 400 lists cost no more reads than 100.
        #expect(counts[1] == counts[0], "statements reading rows in the bulk write: \(counts)")
        #expect(counts[0] < 100, "fewer reads than lists: \(counts)")
        try await store.close()
    }

    @Test("SQLite: a store with observers catches up with another store's commits reading the change log once")
    func catchUpReadsTheLogOnce() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("catch-up-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let schema = EntitySchema([ChatExample.Chat.self, Message.self])
        let backend = try SQLiteBackend(path: path)
        let store = try await Store(backend: backend, schema: schema, followInterval: nil)
        let other = try await Store(backend: SQLiteBackend(path: path), schema: schema, followInterval: nil)
        try await store.write { try ChatExample.Chat(id: "c").save(to: &$0) }
        // Its cache holds the chat, and an observer reads its messages.
        #expect(try await store.read { $0.entity(ChatExample.Chat.self, id: "c") } != nil)
        var values = store.observe { $0.ids(of: "c", \ChatExample.Chat.$messages) }.makeAsyncIterator()
        #expect(try await values.next() == [])
        for i in 0..<3 {
            try await other.write { try Message(id: "m\(i)", text: "hi", author: .id("u"), chat: .id("c")).save(to: &$0) }
        }
        let before = backend.logReadCount
        try await store.refresh()
        #expect(backend.logReadCount - before == 1, "the cache and the observers share one read of the log")
        #expect(try await values.next() == ["m0", "m1", "m2"], "the observer sees the three commits")
        try await store.close()
        try await other.close()
    }

    @Test("PostgreSQL: every statement is one round trip, counted")
    func postgres() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let backend = try await PostgresBackend.connect(url: url, configuration: .init(schema: PostgresStoreTests.schema()))
        let store = try await Store(backend: backend, schema: EntitySchema([ChatExample.Chat.self, Message.self]), followInterval: nil)
        let opened = backend.statementCount
        #expect(opened > 0)
        try await store.write { try ChatExample.Chat(id: "c").save(to: &$0) }
        let written = backend.statementCount
        #expect(written > opened)
        _ = try backend.read { try $0.changes(since: 0) }
        // BEGIN, the log's newest sequence, its oldest, the records, the rows they name, COMMIT.
        #expect(backend.statementCount > written)
        try await store.close()
    }

    @Test("PostgreSQL: a chat resolved with its messages costs the same round trips whatever the row cache keeps")
    func postgresLinkedRows() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let configuration = PostgresBackend.Configuration(schema: PostgresStoreTests.schema())
        let schema = EntitySchema([ChatExample.Chat.self, Message.self])
        let writer = try await Store(backend: try await PostgresBackend.connect(url: url, configuration: configuration), schema: schema, followInterval: nil)
        try await writer.write { context in
            try ChatExample.Chat(id: "c").save(to: &context)
            for i in 0..<20 { try Message(id: "m\(i)", text: "\(i)", author: .id("u"), chat: .id("c")).save(to: &context) }
        }
        try await writer.close()
        // A level's links come with their targets' rows in one statement: the fetch of those
        // messages that follows reads none, kept by the row cache or, without one, by the read.
        var counts: [Int] = []
        for limit in [64 << 20, 1, 0] {
            let backend = try await PostgresBackend.connect(url: url, configuration: configuration)
            let store = try await Store(backend: backend, schema: schema, followInterval: nil, cacheLimit: limit)
            let before = backend.statementCount
            let texts = try await store.read { ChatExample.Chat.query("c", in: $0).with(\.$messages).resolve()?.messages?.map(\.text) }
            #expect(texts == (0..<20).map { "\($0)" }, "cache limit \(limit)")
            counts.append(backend.statementCount - before)
            try await store.close()
        }
        #expect(counts[1] == counts[0], "a cache too small for the level's rows")
        #expect(counts[2] == counts[0], "a store that keeps no rows")
    }
}
