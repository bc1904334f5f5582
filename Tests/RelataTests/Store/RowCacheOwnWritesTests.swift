import Foundation
import PropertyBased
import Relata
@_spi(Paged) @testable import RelataCore
import Testing

/// A store's own commits keep its row cache true: after each write, what a new context reads —
/// from the cache where it can, lists in their order included — equals the whole stored state.
@Suite("Store: the row cache after the store's own writes (property-based)")
struct RowCacheOwnWritesTests {
    typealias Copies = StoreRandomWritesPropertyTests
    typealias Reads = OverlayContextPropertyTests

    @Test("Random writes, each followed by reads: the cached answers equal storage's, after every write")
    func cachedReadsEqualStorage() async {
        await propertyCheck(count: 15, input: Gen.int(in: 0...100_000).array(of: 2...60)) { codes in
            guard let harness = try? StoreHarness(.sqlite) else { return }
            defer { harness.remove() }
            do {
                let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)
                let store = try await Store(backend: harness.backend(), schema: schema, followInterval: nil)
                for batch in codes.batches(upTo: 5) {
                    try await store.write { context in for code in batch { Copies.apply(code, to: &context) } }
                    // Read through the cache (filling it for the next write), and storage loaded whole.
                    let cached = Reads.reads(store.context)
                    let stored = Reads.reads(try loadedWhole(harness.backend(), schema: schema))
                    #expect(cached == stored, "after \(batch)")
                    guard cached == stored else { break }
                }
                try await store.close()
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test("A move, an append and a removal in a chat's list: a new context reads the list as stored, in order")
    func listWrittenThrough() async throws {
        let harness = try StoreHarness(.sqlite)
        defer { harness.remove() }
        let backend = try SQLiteBackend(path: harness.path)
        let store = try await Store(backend: backend, schema: StoreHarness.schema, followInterval: nil)
        try await store.write { context in
            try Chat(id: "c").save(to: &context)
            for i in 0..<5 { try Message(id: "m\(i)", text: "t", author: .id("u"), chat: .id("c")).save(to: &context) }
        }
        #expect(store.context.ids(of: "c", \Chat.$messages) == ["m0", "m1", "m2", "m3", "m4"])
        try await store.write { try Chat(id: "c").move("m4", in: \.$messages, to: 0, in: &$0) }
        #expect(store.context.ids(of: "c", \Chat.$messages) == ["m4", "m0", "m1", "m2", "m3"])
        try await store.write { context in
            try Message(id: "m5", text: "t", author: .id("u"), chat: .id("c")).save(to: &context)
            try Message.delete(id: "m1", from: &context)
        }
        #expect(store.context.ids(of: "c", \Chat.$messages) == ["m4", "m0", "m2", "m3", "m5"])
        let uncached = Context(over: try harness.backend(), schema: StoreHarness.schema)
        #expect(uncached.ids(of: "c", \Chat.$messages) == ["m4", "m0", "m2", "m3", "m5"], "storage agrees")
        try await store.close()
    }
}
