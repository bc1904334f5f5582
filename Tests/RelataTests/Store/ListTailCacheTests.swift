import Foundation
import Relata
@testable import RelataCore
import RelataSQLite
import Testing

/// A store keeps the last link of the lists its writes append to, so that its next append to
/// the same list reads no tail from storage; whatever happens to that last link since — erased,
/// moved to another list, moved inside its list, or another store appending after it — an
/// append lands last.
@Suite("A store's appends: the tails of lists, kept across writes")
struct ListTailCacheTests {
    static let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)

    static func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tails-\(UUID().uuidString).sqlite").path
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    static func append(_ id: String, to chat: String = "c", in store: Store) async throws {
        try await store.write { try Message(id: id, text: "", author: .id("u"), chat: .id(chat)).save(to: &$0) }
    }

    /// A store on the SQLite file at `path`, through a connection of its own.
    static func open(_ path: String) async throws -> Store {
        try await Store(backend: SQLiteBackend(path: path), schema: schema, followInterval: nil)
    }

    static func ids(_ store: Store, _ chat: String) async throws -> [String] {
        try await store.read { $0.ids(of: chat, \Chat.$messages) }
    }

    /// The statements reading rows that `body` made `backend` run.
    static func rowReads(_ backend: SQLiteBackend, _ body: () async throws -> Void) async rethrows -> Int {
        let before = backend.rowReadCount
        try await body()
        return backend.rowReadCount - before
    }

    @Test("SQLite: an append to a list the store appended to before reads one statement fewer than in a store just opened")
    func readsNoTail() async throws {
        let path = Self.path()
        defer { Self.remove(path) }
        let backend = try SQLiteBackend(path: path)
        let store = try await Store(backend: backend, schema: Self.schema, followInterval: nil)
        try await store.write { context in
            try Chat(id: "c").save(to: &context)
            for i in 0..<5 { try Message(id: "m\(i)", text: "", author: .id("u"), chat: .id("c")).save(to: &context) }
        }
        // The first append reads the tail (an empty list's is not kept), the second does not.
        let first = try await Self.rowReads(backend) { try await Self.append("m5", in: store) }
        let kept = try await Self.rowReads(backend) { try await Self.append("m6", in: store) }
        let opened = try SQLiteBackend(path: path)
        let fresh = try await Store(backend: opened, schema: Self.schema, followInterval: nil)
        let read = try await Self.rowReads(opened) { try await Self.append("m7", in: fresh) }
        #expect(kept < read, "statements reading rows: \(kept) with the tail kept, \(read) without")
        #expect(kept < first, "statements reading rows: \(kept) with the tail kept, \(first) the first time")
        // The first store learns of the other's append as its write begins: its tail is read again.
        try await Self.append("m8", in: store)
        #expect(try await Self.ids(store, "c") == ["m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8"])
        try await fresh.close()
        try await store.close()
    }

    @Test("SQLite: appends after the last message is erased, moved to another chat, moved inside its chat, or added by another store land last")
    func appendsLandLast() async throws {
        let path = Self.path()
        defer { Self.remove(path) }
        let store = try await Self.open(path)
        let other = try await Self.open(path)
        try await store.write { context in
            try Chat(id: "c").save(to: &context)
            try Chat(id: "d").save(to: &context)
            for i in 0..<3 { try Message(id: "m\(i)", text: "", author: .id("u"), chat: .id("c")).save(to: &context) }
        }
        try await Self.append("m3", in: store)
        try await Self.append("m4", in: store)
        #expect(try await Self.ids(store, "c") == ["m0", "m1", "m2", "m3", "m4"])
        // The last one erased, twice.
        try await store.write { try Message.delete(id: "m4", from: &$0) }
        try await store.write { try Message.delete(id: "m3", from: &$0) }
        try await Self.append("m5", in: store)
        #expect(try await Self.ids(store, "c") == ["m0", "m1", "m2", "m5"])
        // The last one moved to another chat.
        try await store.write { try Message(id: "m5", text: "", author: .id("u"), chat: .id("d")).save(to: &$0) }
        try await Self.append("m6", in: store)
        #expect(try await Self.ids(store, "c") == ["m0", "m1", "m2", "m6"])
        // The last one moved to the front of its chat: the one before it is last.
        try await store.write { try Chat(id: "c").move("m6", in: \.$messages, to: 0, in: &$0) }
        try await Self.append("m7", in: store)
        #expect(try await Self.ids(store, "c") == ["m6", "m0", "m1", "m2", "m7"])
        // Another store appends, then this one does.
        try await Self.append("m8", in: other)
        try await Self.append("m9", in: store)
        #expect(try await Self.ids(store, "c") == ["m6", "m0", "m1", "m2", "m7", "m8", "m9"])
        // Two messages appended in one write, then one more.
        try await store.write { context in
            for id in ["m10", "m11"] { try Message(id: id, text: "", author: .id("u"), chat: .id("c")).save(to: &context) }
        }
        try await Self.append("m12", in: store)
        let expected = ["m6", "m0", "m1", "m2", "m7", "m8", "m9", "m10", "m11", "m12"]
        #expect(try await Self.ids(store, "c") == expected)
        #expect(try await Self.ids(other, "c") == expected)
        #expect(try await Self.ids(store, "d") == ["m5"])
        try await other.close()
        try await store.close()
        // What the lists say is what a whole load of the rows says.
        let whole = try loadedWhole(try SQLiteBackend(path: path), schema: Self.schema)
        #expect(whole.ids(of: "c", \Chat.$messages) == expected)
    }

    @Test("SQLite: a message saved again in the middle of its chat, the chat's tail unread, leaves the next append last")
    func resaveInTheMiddle() async throws {
        let path = Self.path()
        defer { Self.remove(path) }
        let store = try await Self.open(path)
        let other = try await Self.open(path)
        // Written by the other store: this one has read nothing of the chat.
        try await other.write { context in
            try Chat(id: "c").save(to: &context)
            for i in 0..<3 { try Message(id: "m\(i)", text: "", author: .id("u"), chat: .id("c")).save(to: &context) }
        }
        // The first message saved again, new text: its row (with its place in the chat) is written.
        try await store.write { try Message(id: "m0", text: "edited", author: .id("u"), chat: .id("c")).save(to: &$0) }
        try await Self.append("m3", in: store)
        #expect(try await Self.ids(store, "c") == ["m0", "m1", "m2", "m3"])
        try await other.close()
        try await store.close()
    }

    @Test("SQLite: appends to a list kept in a link table land last, whichever store appends")
    func linkTableAppends() async throws {
        let path = Self.path()
        defer { Self.remove(path) }
        let store = try await Self.open(path)
        let other = try await Self.open(path)
        func add(_ users: [String], in store: Store) async throws {
            try await store.write { try Chat(id: "c", users: .appending(ids: users)).save(to: &$0) }
        }
        try await add(["u0", "u1"], in: store)
        try await add(["u2"], in: store)
        try await add(["u3"], in: other)
        try await add(["u4", "u5"], in: store)
        try await store.write { try Chat(id: "c").move("u5", in: \.$users, to: 0, in: &$0) }
        try await add(["u6"], in: store)
        let expected = ["u5", "u0", "u1", "u2", "u3", "u4", "u6"]
        #expect(try await store.read { $0.ids(of: "c", \Chat.$users) } == expected)
        #expect(try await other.read { $0.ids(of: "c", \Chat.$users) } == expected)
        try await other.close()
        try await store.close()
    }
}
