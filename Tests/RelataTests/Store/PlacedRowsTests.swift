import Foundation
import PropertyBased
import Relata
@_spi(Paged) @testable import RelataCore
import Testing

/// A store that follows other stores keeps what its last read placed, and the next context at the
/// same commit starts from it: it must read exactly what storage holds, never what a write, a
/// failed read or a local save left behind.
@Suite("Store: a read starts from what the last read placed")
struct PlacedRowsTests {
    typealias Copies = StoreRandomWritesPropertyTests
    typealias Reads = OverlayContextPropertyTests
    typealias Ops = Reads.Ops

    /// Reads part of `context`'s state, in another order than `Reads.reads`: backlinks and lists
    /// before the entities they name.
    static func readPart(_ context: Context) {
        for user in Ops.userIDs.reversed() { _ = context.sources(linkingTo: user, through: \Message.$author) }
        for chat in Ops.chatIDs.reversed() { _ = context.ids(of: chat, \Chat.$messages) }
    }

    /// A store holding chat "c" and a message "bad" whose row does not decode.
    static func storeWithUndecodableMessage() async throws -> Store {
        let store = try await Store(backend: try InMemoryBackend.holdingUndecodableMessage("bad"), schema: StoreHarness.schema)
        try await store.write { try Chat(id: "c").save(to: &$0) }
        return store
    }

    @Test("Random writes, each followed by reads that start from the last read's tables: they read what storage holds")
    func readsAgree() async {
        await propertyCheck(count: 12, input: Gen.int(in: 0...100_000).array(of: 2...60)) { codes in
            guard let harness = try? StoreHarness(.sqlite) else { return }
            defer { harness.remove() }
            do {
                let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)
                let store = try await Store(backend: harness.backend(), schema: schema)
                for batch in codes.batches(upTo: 5) {
                    try await store.write { context in for code in batch { Copies.apply(code, to: &context) } }
                    let stored = Reads.reads(try loadedWhole(harness.backend(), schema: schema))
                    try await store.read { Self.readPart($0) }
                    let kept = store.placedRows
                    #expect(kept?.sequence == store.sequence, "the first read's tables are kept, as of the last commit")
                    // Starts from the part read, reads the rest.
                    #expect(try await store.read { Reads.reads($0) } == stored, "after \(batch)")
                    // Starts from everything.
                    #expect(try await store.read { Reads.reads($0) } == stored, "after \(batch), again")
                }
                try await store.close()
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test("Another store's commit: once this store knows of it, a read reads it, not the tables kept")
    func anotherStoresCommit() async throws {
        let harness = try StoreHarness(.sqlite)
        defer { harness.remove() }
        let reader = try await Store(backend: harness.backend(), schema: StoreHarness.schema)
        let writer = try await Store(backend: harness.backend(), schema: StoreHarness.schema)
        try await writer.write { context in
            try Chat(id: "c").save(to: &context)
            try Message(id: "m0", text: "first", author: .id("u"), chat: .id("c")).save(to: &context)
        }
        try await reader.refresh()
        #expect(try await reader.read { $0.ids(of: "c", \Chat.$messages) } == ["m0"])
        #expect(reader.placedRows != nil)
        try await writer.write { context in
            try Message(id: "m1", text: "second", author: .id("u"), chat: .id("c")).save(to: &context)
            try Message(id: "m0", text: "edited", author: .id("u"), chat: .id("c")).save(to: &context)
        }
        try await reader.refresh()
        #expect(try await reader.read { $0.ids(of: "c", \Chat.$messages) } == ["m0", "m1"])
        #expect(try await reader.read { $0.entity(Message.self, id: "m0")?.text } == "edited")
        try await writer.close()
        try await reader.close()
    }

    @Test("What a read saved to its own copy, and what a failed read placed, are not kept")
    func localSavesAndFailuresAreNotKept() async throws {
        let store = try await Self.storeWithUndecodableMessage()
        let saved = try await store.read { context in
            _ = context.entity(Chat.self, id: "c")
            var copy = context
            try Message(id: "local", text: "only here", author: .id("u"), chat: .id("c")).save(to: &copy)
            return copy.ids(of: "c", \Chat.$messages)
        }
        #expect(saved == ["local"])
        #expect(store.placedRows != nil, "the read's own tables are kept")
        #expect(try await store.read { [$0.entity(Message.self, id: "local") == nil, $0.ids(of: "c", \Chat.$messages).isEmpty] } == [true, true])

        try await store.write { try Chat(id: "d").save(to: &$0) }
        await #expect(throws: RelataError.self) { try await store.read { _ = $0.entity(Message.self, id: "bad"); _ = $0.entity(Chat.self, id: "d") } }
        #expect(store.placedRows == nil, "a read that failed leaves nothing")
        await #expect(throws: RelataError.self) { try await store.read { $0.entity(Message.self, id: "bad") } }
        try await store.close()
    }

    @Test("A read that starts from the tables kept reads through its own context: a row it cannot read fails it")
    func takenTablesReportFailures() async throws {
        let store = try await Self.storeWithUndecodableMessage()
        for _ in 0..<3 {
            #expect(try await store.read { $0.entity(Chat.self, id: "c")?.id } == "c")
            #expect(store.placedRows != nil, "the read's tables are kept")
            // The next read takes them: its failure is its own, not the context's that left them.
            await #expect(throws: RelataError.self) { try await store.read { $0.entity(Message.self, id: "bad") } }
        }
        try await store.close()
    }

    @Test("A context a read returned keeps reading through its own snapshot after the next read took a copy of its tables")
    func returnedContextKeepsItsReads() async throws {
        let store = try await Self.storeWithUndecodableMessage()
        let returned = try await store.read { context in
            _ = context.entity(Chat.self, id: "c")
            return context
        }
        #expect(store.placedRows != nil, "a copy of the returned context's tables is kept")
        #expect(try await store.read { $0.entity(Chat.self, id: "c")?.id } == "c")
        // The next read took the copy and points its tables at its own snapshot; the returned
        // context's failure is still its own.
        #expect(returned.storageFailure == nil)
        #expect(returned.entity(Message.self, id: "bad") == nil)
        #expect(returned.storageFailure != nil, "the returned context reports the row it could not read")
        try await store.close()
    }

    @Test("Nothing is kept by a store that does not follow others, without a cache, or past the limit")
    func notKept() async throws {
        for (follow, cacheLimit, kept) in [(true, 64 << 20, true), (false, 64 << 20, false), (true, 0, false), (true, 512 * 4, false)] {
            let store = try await Store(
                backend: InMemoryBackend(), schema: StoreHarness.schema,
                followInterval: follow ? .milliseconds(10) : nil, cacheLimit: cacheLimit
            )
            try await store.write { context in
                try Chat(id: "c").save(to: &context)
                for i in 0..<10 { try Message(id: "m\(i)", text: "t", author: .id("u"), chat: .id("c")).save(to: &context) }
            }
            #expect(try await store.read { context in context.ids(of: "c", \Chat.$messages).compactMap { context.entity(Message.self, id: $0) }.count } == 10)
            #expect((store.placedRows != nil) == kept, "follow: \(follow), cacheLimit: \(cacheLimit)")
            try await store.close()
        }
    }
}
