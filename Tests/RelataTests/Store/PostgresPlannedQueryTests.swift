import Foundation
import Relata
@_spi(Paged) import RelataCore
import RelataPostgres
import Testing

/// A nested query over PostgreSQL reads each query node's links together with its entities:
/// one round trip per node, the read transaction's start sent with the first — however many entities it resolves.
@Suite("Planned queries over PostgreSQL", .serialized, .timeLimit(.minutes(5)))
struct PostgresPlannedQueryTests {
    static let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)

    /// `chats` chats, each with two users and five messages, each with an attachment; every
    /// message after a chat's first replies to it.
    static func fill(_ store: Store, chats: Int) async throws {
        try await store.write { context in
            for c in 0..<chats {
                try Chat(id: "c\(c)", users: .relation([User(id: "u\(c)", name: "U"), User(id: "v\(c)", name: "V")])).save(to: &context)
                for m in 0..<5 {
                    try Message(
                        id: "m\(c)-\(m)", text: "t\(m)", author: .id(m % 2 == 0 ? "u\(c)" : "v\(c)"), chat: .id("c\(c)"),
                        replyTo: m > 0 ? .id("m\(c)-0") : .none
                    ).save(to: &context)
                    try Attachment(id: "a\(c)-\(m)", kind: .image(url: URL(string: "https://example.com/\(m)")!), message: .id("m\(c)-\(m)")).save(to: &context)
                }
            }
        }
    }

    /// W1's query: chats with their messages (each with its attachment, author id and replies)
    /// and their users — six query nodes.
    static func query(_ ids: [String], in context: Context) -> [Chat] {
        Chat.query(ids, in: context)
            .with(\.$messages) { $0.with(\.$attachment).id(\.$author).with(\.$replies) }
            .with(\.$users)
            .resolve()
    }

    @Test("W1's nested query (six nodes) reads in at most six round trips (one per node, the transaction's start sent with the first), for 2 chats as for 40, as the whole load answers")
    func roundTripsPerQuery() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        var counts: [Int] = []
        for chats in [2, 40] {
            let configuration = PostgresBackend.Configuration(schema: PostgresStoreTests.schema())
            let writer = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: Self.schema, followInterval: nil)
            try await Self.fill(writer, chats: chats)
            let ids = (0..<chats).map { "c\($0)" }
            let expected = try PlannedQueryTests.json(Self.query(ids, in: try loadedWhole(try await PostgresBackend.connect(url: url, configuration: configuration), schema: Self.schema)))
            try await writer.close()

            let backend = try await PostgresBackend.connect(url: url, configuration: configuration)
            let store = try await Store(backend: backend, schema: Self.schema, followInterval: nil)
            let before = backend.statementCount
            let resolved = try await store.read { Self.query(ids, in: $0) }
            let used = backend.statementCount - before
            #expect(try PlannedQueryTests.json(resolved) == expected, "the same chats, messages, attachments, replies and users as the whole load")
            #expect(resolved.count == chats && resolved.allSatisfy { $0.messages?.count == 5 && $0.messages?.allSatisfy { $0.attachment != nil } == true })
            #expect(used <= 6, "\(used) round trips for \(chats) chats: at most one per query node, the transaction's start with the first")
            counts.append(used)
            try await store.close()
        }
        #expect(counts[0] == counts[1], "the count does not grow with the entities: \(counts)")
    }
}
