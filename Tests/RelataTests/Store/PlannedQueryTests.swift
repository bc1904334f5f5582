import Foundation
import Relata
@testable import RelataCore
import Testing

/// A query over storage reads level by level: for each relation, the links of every entity of
/// the level in one batch, then their targets in one — a few statements per query node, however
/// many entities it resolves.
@Suite("Planned queries over storage")
struct PlannedQueryTests {
    static let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)

    /// A store of `chats` chats, each with two users and five messages by them.
    static func store(chats: Int, in harness: StoreHarness) async throws {
        let store = try await Store(backend: harness.backend(), schema: schema)
        try await store.write { context in
            for c in 0..<chats {
                try Chat(id: "c\(c)", users: .relation([User(id: "u\(c)", name: "U\(c)"), User(id: "v\(c)", name: "V\(c)")])).save(to: &context)
                for m in 0..<5 {
                    try Message(id: "m\(c)-\(m)", text: "t\(m)", author: .id(m % 2 == 0 ? "u\(c)" : "v\(c)"), chat: .id("c\(c)")).save(to: &context)
                }
            }
        }
        try await store.close()
    }

    static func json<E: Encodable>(_ value: E) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("Chats with their messages and each message's author: at most 2 statements per query node, for 10 chats as for 200")
    func statementsPerNode() async throws {
        var counts: [Int] = []
        for chats in [10, 200] {
            let harness = try StoreHarness(.sqlite)
            defer { harness.remove() }
            try await Self.store(chats: chats, in: harness)
            let whole = try await Store(backend: harness.backend(), schema: Self.schema)
            let ids = (0..<chats).map { "c\($0)" }
            func query(_ context: Context) -> [Chat] {
                Chat.query(ids, in: context).with(\.$messages) { $0.with(\.$author) }.resolve()
            }
            let expected = try Self.json(query(whole.context))
            try await whole.close()
            let backend = try SQLiteBackend(path: harness.path)
            defer { try? backend.close() }
            let overlay = Context(over: ContextBase(backend: backend, schema: Self.schema))
            // What a read transaction costs by itself (GRDB: BEGIN, COMMIT and the read-only
            // pragmas around them), once the backend knows its tables.
            _ = try backend.read { try $0.fetchEntityCount(of: Chat.storedTypeName) }
            let empty = backend.statementCount
            try backend.read { _ in }
            let transaction = backend.statementCount - empty
            let before = backend.statementCount
            let resolved = query(overlay)
            let used = backend.statementCount - before - transaction
            #expect(try Self.json(resolved) == expected, "the same chats, messages and authors as the whole load")
            #expect(resolved.count == chats && resolved.allSatisfy { $0.messages?.count == 5 })
            // Three query nodes (chats, messages, authors), read in one transaction.
            #expect(used <= 2 * 3, "\(used) statements reading rows for \(chats) chats")
            counts.append(used)
            // Resolved again: everything is held, nothing is read.
            let again = backend.statementCount
            #expect(try Self.json(query(overlay)) == expected)
            #expect(backend.statementCount == again, "a second resolve sends no statement: everything is held")
        }
        #expect(counts[0] == counts[1], "the count does not grow with the entities: \(counts)")
    }

    @Test("A resolve that finds its chats and their messages held reads the authors in one transaction, no more")
    func partlyHeld() async throws {
        let harness = try StoreHarness(.sqlite)
        defer { harness.remove() }
        try await Self.store(chats: 20, in: harness)
        let backend = try SQLiteBackend(path: harness.path)
        defer { try? backend.close() }
        let overlay = Context(over: ContextBase(backend: backend, schema: Self.schema))
        let ids = (0..<20).map { "c\($0)" }
        _ = Chat.query(ids, in: overlay).with(\.$messages).resolve()
        let empty = backend.statementCount
        try backend.read { _ in }
        let transaction = backend.statementCount - empty
        let before = backend.statementCount
        let resolved = Chat.query(ids, in: overlay).with(\.$messages) { $0.with(\.$author) }.resolve()
        let used = backend.statementCount - before
        #expect(resolved.allSatisfy { $0.messages?.count == 5 && $0.messages?.allSatisfy { $0.author != nil } == true })
        // One query node left to read (the authors) in one transaction: a nested level that
        // opened a transaction of its own while the resolve was probing would add one.
        #expect(used <= transaction + 2, "\(used) statements, a transaction being \(transaction)")
    }
}
