import ChatExample
import Foundation
import Relata
import RelataSQLite
import Testing

/// The SQLite backend remembers the commit its catalog of tables is current as of, and writes
/// without reading the catalog again while no other commit came in between; a commit of another
/// connection (which may have added a table or a column) makes the next write read it again.
@Suite("SQLite: the catalog of tables across connections")
struct SQLiteCatalogTests {
    static let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)

    /// Two stores on the file at `path`; the first writes the messages `ids` (chat "c", author
    /// "u"), one write each, before the second writes anything.
    static func twoStores(_ path: String, writingFirst ids: [String]) async throws -> (Store, Store) {
        let a = try await Store(backend: SQLiteBackend(path: path), schema: schema, followInterval: nil)
        let b = try await Store(backend: SQLiteBackend(path: path), schema: schema, followInterval: nil)
        for id in ids { try await a.write { try Message(id: id, text: "first", author: .id("u"), chat: .id("c")).save(to: &$0) } }
        return (a, b)
    }

    @Test("A write after another store added a column writes that column: a link the other store set there is removed")
    func columnAddedByAnotherStore() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        // a knows the message table with its author and chat columns, as of its own commits.
        let (a, b) = try await Self.twoStores(path, writingFirst: ["m1", "m0"])
        // b adds the replyTo column.
        try await b.write { try Message(id: "m2", text: "reply", author: .id("u"), chat: .id("c"), replyTo: .id("m1")).save(to: &$0) }
        try await a.write { try Message(id: "m2", text: "reply", author: .id("u"), chat: .id("c"), replyTo: .null).save(to: &$0) }
        let whole = try loadedWhole(try SQLiteBackend(path: path), schema: Self.schema)
        #expect(whole.ids(of: "m2", \Message.$replyTo).isEmpty, "a's write cleared the column b made")
        #expect(whole.ids(of: "m1", \Message.$replies).isEmpty)
        #expect(try await a.read { Message.query("m2", in: $0).with(\.$replyTo).resolve()?.replyTo } == nil)
        try await a.close()
        try await b.close()
    }

    @Test("A write of a row after another store added a column to its table keeps what the other store wrote there")
    func columnKeptAfterAnotherStoreAddedIt() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (a, b) = try await Self.twoStores(path, writingFirst: ["m1", "m2"])
        // b adds the replyTo column; a then edits the text of the very row, naming no reply.
        try await b.write { try Message(id: "m2", text: "second", author: .id("u"), chat: .id("c"), replyTo: .id("m1")).save(to: &$0) }
        try await a.write { try Message(id: "m2", text: "edited", author: .id("u"), chat: .id("c")).save(to: &$0) }
        let whole = try loadedWhole(try SQLiteBackend(path: path), schema: Self.schema)
        #expect(whole.entity(Message.self, id: "m2")?.text == "edited")
        #expect(whole.ids(of: "m2", \Message.$replyTo) == ["m1"], "b's link survived a's write")
        try await a.close()
        try await b.close()
    }

    @Test("Writes one after another read the catalog once: the next writes know it current")
    func catalogReadOnce() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let backend = try SQLiteBackend(path: path)
        let store = try await Store(backend: backend, schema: Self.schema, followInterval: nil)
        try await store.write { try Message(id: "m0", text: "zero", author: .id("u"), chat: .id("c")).save(to: &$0) }
        let reads = backend.catalogReadCount
        for i in 1...5 {
            try await store.write { try Message(id: "m\(i)", text: "next", author: .id("u"), chat: .id("c")).save(to: &$0) }
        }
        #expect(backend.catalogReadCount == reads, "no write read the catalog again")
        // Another connection's commit: the next write reads it again, once.
        let other = try await Store(backend: SQLiteBackend(path: path), schema: Self.schema, followInterval: nil)
        try await other.write { try Message(id: "x", text: "other", author: .id("u"), chat: .id("c")).save(to: &$0) }
        try await store.write { try Message(id: "m6", text: "after", author: .id("u"), chat: .id("c")).save(to: &$0) }
        #expect(backend.catalogReadCount == reads + 1)
        try await other.close()
        try await store.close()
    }
}
