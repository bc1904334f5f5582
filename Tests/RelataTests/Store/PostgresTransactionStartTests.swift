import ChatExample
import Foundation
import Relata
import RelataPostgres
import Testing

/// A PostgreSQL transaction sends its `BEGIN`, the writers' lock (for a write) and the read of
/// the log's bounds one after another without waiting: one round trip where it took three. A
/// failure among them is still told as itself.
@Suite("PostgreSQL: a transaction's start in one round trip", .serialized, .timeLimit(.minutes(5)))
struct PostgresTransactionStartTests {
    static let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)

    @Test("A point write (one message appended to a stored chat) takes six round trips: start, the message's row, the list's tail, rows, log record, commit")
    func pointWriteRoundTrips() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let configuration = PostgresBackend.Configuration(schema: PostgresStoreTests.schema())
        let backend = try await PostgresBackend.connect(url: url, configuration: configuration)
        let store = try await Store(backend: backend, schema: Self.schema, followInterval: nil)
        try await PostgresPlannedQueryTests.fill(store, chats: 2)
        let before = backend.statementCount
        try await store.write { try Message(id: "new", text: "p", author: .id("u1"), chat: .id("c1")).save(to: &$0) }
        #expect(backend.statementCount - before == 6)
        #expect(try await store.read { Chat.query("c1", in: $0).with(\.$messages).resolve()?.messages?.last?.id } == "new")
        try await store.close()
    }

    @Test("A write waiting for the writers' lock past the busy timeout fails with storeBusy; the next write commits")
    func lockTimeoutToldAsItself() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let configuration = PostgresBackend.Configuration(schema: PostgresStoreTests.schema(), busyTimeout: .seconds(1))
        let holder = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: Self.schema, followInterval: nil)
        let waiter = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: Self.schema, followInterval: nil)
        try await waiter.write { try Chat(id: "c").save(to: &$0) }
        // The holder keeps the writers' lock for three seconds.
        let held = Task {
            try await holder.write { context in
                try Chat(id: "held").save(to: &context)
                Thread.sleep(forTimeInterval: 3)
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        let (code, text) = await PostgresHardeningTests.code { try await waiter.write { try Chat(id: "blocked").save(to: &$0) } }
        #expect(code == .storeBusy, "\(text)")
        try await held.value
        try await waiter.write { try Chat(id: "after").save(to: &$0) }
        #expect(try await waiter.read { [$0.entity(Chat.self, id: "held"), $0.entity(Chat.self, id: "blocked"), $0.entity(Chat.self, id: "after")].map { $0 != nil } } == [true, false, true])
        try await holder.close()
        try await waiter.close()
    }
}
