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
}
