import ChatExample
import Foundation
import Relata
import RelataSQLite
import Testing

/// Reads use a bounded number of connections: many threads calling the synchronous `store.read`
/// at once wait their turn instead of opening a connection each, and nothing is left open
/// beyond the pool. Counted in a real process (the `RelataWorker` executable), whose descriptors
/// no other test opens.
@Suite("Soundness: reads use a bounded pool of connections", .serialized, .timeLimit(.minutes(3)))
struct ReaderPoolTests {
    typealias Workers = MultiProcessStoreTests

    @Test("64 threads on the synchronous store.read with maxReaders 2: at most 2 connections' descriptors open meanwhile and after")
    func synchronousReadsAreBounded() async throws {
        let (directory, path) = try Workers.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try await Workers.open(path)
        try await setup.write { try ChatExample.Chat(id: "c").save(to: &$0) }
        try await setup.close()
        let lines = try await Workers.start("readers", path, "64", "2").finish()
        let counts = lines.last.map { $0.split(separator: " ").dropFirst().compactMap { Int($0) } } ?? []
        try #require(counts.count == 2, "worker output: \(lines.suffix(3))")
        // A SQLite connection holds at most 3 descriptors (the file, -wal and -shm).
        #expect(counts[0] <= 2 * 3, "descriptors opened while reading: \(counts[0])")
        #expect(counts[1] <= 2 * 3, "descriptors left open: \(counts[1])")
    }

    @Test("A closed store refuses reads of a context that escaped it, with storeClosed, and opens no connection", arguments: [false, true])
    func readsAfterClose(async: Bool) async throws {
        let (directory, path) = try Workers.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Workers.open(path)
        try await store.write { try ChatExample.Chat(id: "c").save(to: &$0) }
        let escaped = store.context
        try await store.close()
        #expect(escaped.entity(ChatExample.Chat.self, id: "c") == nil)
        let failure = try #require(escaped.storageFailure as? RelataError)
        #expect(failure.code == .storeClosed, "\(failure)")
        if async {
            await #expect(throws: RelataError.self) { try await store.read { $0.entity(ChatExample.Chat.self, id: "c") } }
        } else {
            #expect(throws: RelataError.self) { try store.read { $0.entity(ChatExample.Chat.self, id: "c") } }
        }
    }
}
