import Foundation
import Relata
@_spi(Paged) @testable import RelataCore
import RelataPostgres
import Testing

/// Over PostgreSQL, nothing tells a store without a round trip that another process committed;
/// a new read asks storage's newest commit once before it starts from the large tables the last
/// read placed (`PlacedRows.askedRowCount`), and starts from them only when no commit was made
/// since — so a read after another store's commit reads it, whether or not this store has heard.
@Suite("PostgreSQL: a read starts from what the last read placed", .serialized, .timeLimit(.minutes(5)))
struct PostgresPlacedRowsTests {
    static let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)
    static let messages = 300

    /// A store over schema `name` following others every `follow`, and its backend.
    static func store(_ url: String, schema name: String, follow: Duration? = .milliseconds(10)) async throws -> (PostgresBackend, Store) {
        let backend = try await PostgresBackend.connect(url: url, configuration: .init(schema: name))
        let store = try await Store(backend: backend, schema: schema, followInterval: follow)
        return (backend, store)
    }

    /// Saves chat "c" with ``messages`` messages.
    static func fill(_ store: Store) async throws {
        try await store.write { context in
            try Chat(id: "c").save(to: &context)
            for i in 0..<7 { try User(id: "u\(i)", name: "user \(i)").save(to: &context) }
            for i in 0..<messages { try Message(id: "m\(i)", text: "t\(i)", author: .id("u\(i % 7)"), chat: .id("c")).save(to: &context) }
        }
    }

    /// The chat's messages with their authors, as a read resolves them.
    static func resolve(_ context: Context) -> [String] {
        Chat.query("c", in: context).with(\.$messages) { $0.with(\.$author) }.resolve()?.messages?.map { "\($0.id):\($0.text):\($0.author?.id ?? "-")" } ?? []
    }

    @Test("With no commit since, the next read starts from the tables the last one placed: one round trip, the same answer")
    func takesTablesAtTheNewestCommit() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let (backend, store) = try await Self.store(url, schema: PostgresStoreTests.schema())
        try await Self.fill(store)
        let first = try await store.read { Self.resolve($0) }
        #expect(first.count == Self.messages)
        let kept = try #require(store.placedRows)
        #expect(kept.rows >= PlacedRows.askedRowCount, "the read placed enough to be kept and asked for")
        let before = backend.statementCount
        let (held, second) = try await store.read { ($0.heldRowCount, Self.resolve($0)) }
        #expect(held == kept.rows, "the read starts from the tables kept")
        #expect(second == first)
        #expect(backend.statementCount - before == 1, "one round trip: storage's newest commit; every row from the tables taken")
        try await store.close()
    }

    @Test("Another store's commit, not yet heard of: the next read reads it, not the tables kept")
    func anotherStoresCommitIsRead() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let name = PostgresStoreTests.schema()
        // The reader follows others once an hour (it keeps what its reads placed, as a store that
        // follows does): only its reads can learn of the writer's commits in time.
        let (_, reader) = try await Self.store(url, schema: name, follow: .seconds(3_600))
        let (_, writer) = try await Self.store(url, schema: name, follow: nil)
        try await Self.fill(writer)
        try await reader.refresh()
        for round in 0..<5 {
            let before = try await reader.read { Self.resolve($0) }
            #expect(reader.placedRows != nil)
            try await writer.write { context in
                try Message(id: "n\(round)", text: "new", author: .id("u1"), chat: .id("c")).save(to: &context)
                try Message(id: "m\(round)", text: "edited \(round)", author: .id("u2"), chat: .id("c")).save(to: &context)
            }
            let (held, after) = try await reader.read { ($0.heldRowCount, Self.resolve($0)) }
            #expect(held == 0, "round \(round): the tables kept are older than storage's newest commit")
            #expect(after.count == before.count + 1, "round \(round): the new message is read")
            #expect(after.last == "n\(round):new:u1")
            #expect(after.contains("m\(round):edited \(round):u2"), "round \(round): the edited message is read as edited")
        }
        try await writer.close()
        try await reader.close()
    }

    @Test("Tables too small to be worth a round trip are not asked about: a small read sends only its own statements")
    func smallTablesAreNotAsked() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let name = PostgresStoreTests.schema()
        let (backend, store) = try await Self.store(url, schema: name)
        try await Self.fill(store)
        // What the same reads send from a store that keeps no tables (it follows no one).
        let (plainBackend, plain) = try await Self.store(url, schema: name, follow: nil)
        _ = try await plain.read { $0.entity(Message.self, id: "m3") }
        var before = plainBackend.statementCount
        #expect(try await plain.read { $0.entity(Message.self, id: "m4")?.text } == "t4")
        let alone = plainBackend.statementCount - before
        try await plain.close()
        #expect(try await store.read { $0.entity(Message.self, id: "m3")?.text } == "t3")
        let kept = try #require(store.placedRows)
        #expect(kept.rows < PlacedRows.askedRowCount)
        before = backend.statementCount
        let (held, text) = try await store.read { ($0.heldRowCount, $0.entity(Message.self, id: "m4")?.text) }
        #expect(held == 0, "small tables are left")
        #expect(text == "t4")
        #expect(backend.statementCount - before == alone, "the read's own statements, and no question before them")
        try await store.close()
    }
}
