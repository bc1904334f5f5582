import Foundation
import Relata
@testable import RelataCore
import Testing

/// The in-memory backend keeps each list's last source once asked for it, so an append to a long
/// list does not walk it: whatever happens to that last source, appends land after the right one.
@Suite("In-memory backend: a list's last source, kept")
struct InMemoryLastSourceTests {
    static func ids(_ store: Store, _ chat: String) async throws -> [String] {
        try await store.read { $0.ids(of: chat, \Chat.$messages) }
    }

    @Test("Appends after the last message is erased, moved to another chat, or added by another store land last")
    func appends() async throws {
        let backend = InMemoryBackend()
        let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)
        let store = try await Store(backend: backend, schema: schema, followInterval: nil)
        let other = try await Store(backend: backend, schema: schema, followInterval: nil)
        try await store.write { context in
            try Chat(id: "c").save(to: &context)
            try Chat(id: "d").save(to: &context)
            for i in 0..<5 { try Message(id: "m\(i)", text: "", author: .id("u"), chat: .id("c")).save(to: &context) }
        }
        func append(_ id: String, to chat: String = "c", in store: Store) async throws {
            try await store.write { try Message(id: id, text: "", author: .id("u"), chat: .id(chat)).save(to: &$0) }
        }
        try await append("m5", in: store)
        try await append("m5b", in: store)
        #expect(try await Self.ids(store, "c") == ["m0", "m1", "m2", "m3", "m4", "m5", "m5b"])
        // The last one erased: the next append goes after m5.
        try await store.write { try Message.delete(id: "m5b", from: &$0) }
        try await store.write { try Message.delete(id: "m5", from: &$0) }
        try await append("m6", in: store)
        #expect(try await Self.ids(store, "c") == ["m0", "m1", "m2", "m3", "m4", "m6"])
        // The last one moved to another chat.
        try await store.write { try Message(id: "m6", text: "", author: .id("u"), chat: .id("d")).save(to: &$0) }
        try await append("m7", in: store)
        #expect(try await Self.ids(store, "c") == ["m0", "m1", "m2", "m3", "m4", "m7"])
        // Another store on the same storage appends, then this one does.
        try await append("m8", in: other)
        try await append("m9", in: store)
        #expect(try await Self.ids(store, "c") == ["m0", "m1", "m2", "m3", "m4", "m7", "m8", "m9"])
        #expect(try await Self.ids(other, "c") == ["m0", "m1", "m2", "m3", "m4", "m7", "m8", "m9"])
        // A middle one erased changes nothing at the end.
        try await store.write { try Message.delete(id: "m2", from: &$0) }
        try await append("m10", in: store)
        #expect(try await Self.ids(store, "c") == ["m0", "m1", "m3", "m4", "m7", "m8", "m9", "m10"])
        #expect(try await Self.ids(store, "d") == ["m6"])
        // What the lists say is what a whole load of the rows says.
        let whole = try loadedWhole(backend, schema: schema)
        #expect(whole.ids(of: "c", \Chat.$messages) == ["m0", "m1", "m3", "m4", "m7", "m8", "m9", "m10"])
        try await store.close()
        try await other.close()
    }
}
