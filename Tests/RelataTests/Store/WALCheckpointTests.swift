import Foundation
import Relata
@_spi(Paged) import RelataCore
@testable import RelataSQLite
import Testing

/// SQLite's WAL is checkpointed beside a store's writes, not in them (`WALCheckpointer`): it must
/// stay as bounded as SQLite's own checkpoints keep it, and lose nothing.
@Suite("SQLite checkpoints beside the writes")
struct WALCheckpointTests {
    /// The size of the file's WAL, in bytes (0 when there is none).
    static func walBytes(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test("A stream of writes leaves the WAL bounded, checkpointed beside them, and every write is kept")
    func walStaysBounded() async throws {
        let harness = try StoreHarness(.sqlite)
        defer { harness.remove() }
        let backend = try SQLiteBackend(path: harness.path)
        let store = try await Store(backend: backend, schema: StoreHarness.schema)
        try await store.write { context in
            try User(id: "u", name: "U").save(to: &context)
            try Chat(id: "c").save(to: &context)
        }
        let text = String(repeating: "checkpoint ", count: 40)
        var largest = 0
        for i in 0..<1_000 {
            try await store.write { context in
                for j in 0..<4 { try Message(id: "m\(i)-\(j)", text: text, author: .id("u"), chat: .id("c")).save(to: &context) }
            }
            largest = max(largest, Self.walBytes(harness.path))
        }
        // SQLite's 4 KiB pages: without checkpoints these writes make a WAL of well over 8,000.
        #expect(largest < 4 * 1_000 * 4_096, "the WAL grew to \(largest / 4_096) pages")
        #expect(backend.backgroundCheckpointCount >= 1, "checkpoints ran on the checkpointer's connection")
        try await store.close()
        let reopened = try await harness.open()
        #expect(reopened.context.ids(of: "c", \Chat.$messages).count == 4_000)
        #expect(try await reopened.read { $0.count(of: Message.self) } == 4_000)
        try await reopened.close()
    }
}
