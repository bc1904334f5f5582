import Foundation
import Relata
@testable import RelataCore
import Testing

/// A cascade over storage reads what it erases in batches: deleting a chat reads its messages'
/// rows and links in one batch per kind, then their attachments' the same way — not one read per
/// message or attachment.
@Suite("Store: cascades read in batches")
struct CascadePrefetchTests {
    /// Chat c0 with `messages` messages, each viewed by a user and with an attachment, and chat c1
    /// with one.
    static func seeded(messages: Int) async throws -> StoreHarness {
        let harness = try StoreHarness(.sqlite)
        let store = try await Store(backend: harness.backend(), schema: StoreHarness.schema)
        try await store.write { context in
            for c in 0..<2 { try Chat(id: "c\(c)", users: .ids(["u\(c)"])).save(to: &context) }
            for m in 0..<messages {
                try Message(id: "m\(m)", text: "t", author: .id("u0"), chat: .id("c0"), viewedBy: .ids(["u1"])).save(to: &context)
                try Attachment(id: "a\(m)", kind: .image(url: URL(string: "https://example.com/\(m)")!), message: .id("m\(m)")).save(to: &context)
            }
            try Message(id: "other", text: "t", author: .id("u1"), chat: .id("c1"), replyTo: .id("m0")).save(to: &context)
        }
        try await store.close()
        return harness
    }

    @Test("Deleting a chat reads and writes with the same number of statements for 10 messages as for 300, and erases them and their attachments")
    func cascadeReadsInBatches() async throws {
        var reads: [Int] = [], writes: [Int] = []
        for messages in [10, 300] {
            let harness = try await Self.seeded(messages: messages)
            defer { harness.remove() }
            let backend = try SQLiteBackend(path: harness.path)
            let store = try await Store(backend: backend, schema: StoreHarness.schema, followInterval: nil, cacheLimit: 0)
            let start = backend.statementCount
            let read = try await store.write { context in
                let before = backend.statementCount
                try Chat.delete(id: "c0", from: &context)
                // Rows are written after the closure: these are the statements the cascade read.
                return backend.statementCount - before
            }
            reads.append(read)
            // The whole write: its reads, then one deletion per table, not one per row.
            writes.append(backend.statementCount - start)
            #expect(store.context.ids(of: Message.self) == ["other"])
            #expect(store.context.ids(of: Attachment.self).isEmpty, "the cascade reached every attachment")
            #expect(store.context.ids(of: "other", \Message.$replyTo).isEmpty, "the link to an erased message is gone")
            #expect(store.context.sources(linkingTo: "u1", through: \Message.$viewedBy).isEmpty)
            try store.context.checkInvariants()
            try await store.close()
        }
        #expect(reads[0] == reads[1], "statements the cascade read: \(reads)")
        #expect(writes[0] == writes[1], "statements of the whole write: \(writes)")
    }

    @Test("Deleting 2 or 20 chats in one call reads the same number of statements, and leaves what deleting them one by one leaves")
    func manyChatsReadTogether() async throws {
        var reads: [Int] = []
        for chats in [2, 20] {
            let harness = try StoreHarness(.sqlite)
            defer { harness.remove() }
            let seed = try await Store(backend: harness.backend(), schema: StoreHarness.schema)
            try await seed.write { context in
                for c in 0...chats {
                    try Chat(id: "c\(c)", users: .ids(["u\(c)"])).save(to: &context)
                    for m in 0..<5 {
                        try Message(id: "m\(c)-\(m)", text: "t", author: .id("u\(c)"), chat: .id("c\(c)"), viewedBy: .ids(["u0"])).save(to: &context)
                        try Attachment(id: "a\(c)-\(m)", kind: .image(url: URL(string: "https://example.com/\(m)")!), message: .id("m\(c)-\(m)")).save(to: &context)
                    }
                }
            }
            try await seed.close()
            let ids = (0..<chats).map { "c\($0)" }
            // The same deletions one by one, on a whole load: what must be left.
            var expected = try loadedWhole(try harness.backend(), schema: StoreHarness.schema)
            for id in ids { try Chat.delete(id: id, from: &expected) }
            // In a context that holds everything, the call is the deletions one by one.
            var inMemory = try loadedWhole(try harness.backend(), schema: StoreHarness.schema)
            try Chat.delete(ids: ids, from: &inMemory)
            #expect(inMemory.ids(of: Message.self).sorted() == expected.ids(of: Message.self).sorted())
            #expect(inMemory.ids(of: Chat.self).sorted() == expected.ids(of: Chat.self).sorted())
            try inMemory.checkInvariants()
            let backend = try SQLiteBackend(path: harness.path)
            let store = try await Store(backend: backend, schema: StoreHarness.schema, followInterval: nil, cacheLimit: 0)
            let read = try await store.write { context in
                let before = backend.statementCount
                try Chat.delete(ids: ids, from: &context)
                return backend.statementCount - before
            }
            reads.append(read)
            let whole = try loadedWhole(try harness.backend(), schema: StoreHarness.schema)
            #expect(whole.ids(of: Message.self).sorted() == expected.ids(of: Message.self).sorted())
            #expect(whole.ids(of: Message.self).sorted() == (0..<5).map { "m\(chats)-\($0)" })
            #expect(whole.ids(of: Attachment.self).sorted() == expected.ids(of: Attachment.self).sorted())
            #expect(whole.ids(of: Chat.self) == ["c\(chats)"])
            #expect(whole.sources(linkingTo: "u0", through: \Message.$viewedBy).sorted() == expected.sources(linkingTo: "u0", through: \Message.$viewedBy).sorted())
            try whole.checkInvariants()
            try await store.close()
        }
        #expect(reads[0] == reads[1], "statements the deletions read: \(reads)")
    }

    @Test("Erasing two replies to one message, after a reply was added to it unread: its replies read once, and none left", arguments: BackendKind.allCases)
    func twoErasedRepliesToOne(kind: BackendKind) async throws {
        guard let harness = try? StoreHarness(kind) else { return }
        defer { harness.remove() }
        // No row cache: the erasure's reads go to storage.
        let store = try await Store(backend: harness.backend(), schema: StoreHarness.schema, cacheLimit: 0)
        try await store.write { context in
            for id in ["m0", "m4", "m5"] { try Message(id: id, text: "t", chat: .id("c2")).save(to: &context) }
            try Message(id: "m0", text: "t", replyTo: .id("m4")).save(to: &context)
        }
        try await store.write { context in
            // m5 joins m4's replies without reading them; m4 leaves the chat; the chat's cascade
            // erases m0 and m5, whose erasure reads the replies of m4 for both at once.
            try Message(id: "m5", text: "t", replyTo: .id("m4")).save(to: &context)
            try Message(id: "m4", text: "t", chat: .id("c1")).save(to: &context)
            try Chat.delete(id: "c2", from: &context)
            #expect(context.ids(of: "m4", \Message.$replies).isEmpty, "no reply of an erased message left")
        }
        #expect(store.context.ids(of: Message.self) == ["m4"])
        #expect(store.context.ids(of: "m4", \Message.$replies).isEmpty)
        try store.context.checkInvariants()
        try await store.close()
    }

}
