import ChatExample
import Foundation
import Relata
import RelataSQLite
import Testing

/// Storage compares ids by their bytes: `"é"` as one scalar (NFC) and as `e` plus a combining
/// accent (NFD) are two rows. A store's cache holds them apart too, so a read by one id never
/// answers with the other's row.
@Suite("Soundness: ids in other normal forms are other rows", .serialized, .timeLimit(.minutes(2)))
struct StoredIDBytesTests {
    typealias Workers = MultiProcessStoreTests
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    @Test("Two stores write the NFC and the NFD id; a new read of each, after the other was cached, gets its own row")
    func cacheKeepsBothForms() async throws {
        #expect(Self.composed == Self.decomposed, "Swift finds them equal")
        #expect(Array(Self.composed.utf8) != Array(Self.decomposed.utf8))
        let (directory, path) = try Workers.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let schema = EntitySchema(ChatExample.User.self, ChatExample.Chat.self, ChatExample.Message.self, ChatExample.Attachment.self)
        let a = try await Store(backend: SQLiteBackend(path: path), schema: schema, followInterval: nil)
        let b = try await Store(backend: SQLiteBackend(path: path), schema: schema, followInterval: nil)
        try await a.write { try ChatExample.Message(id: Self.composed, text: "composed", author: .id("u"), chat: .id("c")).save(to: &$0) }
        try await b.write { try ChatExample.Message(id: Self.decomposed, text: "decomposed", author: .id("u"), chat: .id("c")).save(to: &$0) }
        for store in [a, b] {
            for (id, text) in [(Self.composed, "composed"), (Self.decomposed, "decomposed"), (Self.composed, "composed")] {
                let read = try await store.read { $0.entity(ChatExample.Message.self, id: id) }
                #expect(read?.text == text, "read \(Array(id.utf8)) in \(store === a ? "a" : "b")")
                #expect(read.map { Array($0.id.utf8) } == Array(id.utf8))
            }
        }
        try await a.close()
        try await b.close()
    }
}
