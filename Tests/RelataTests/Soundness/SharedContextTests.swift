import ChatExample
import Foundation
import Relata
import Testing

/// One store context read from several threads at once — `Context` is `Sendable`, so a user may
/// hand one to many tasks — answers every read right and never crashes the process. Run in a real
/// process (the `RelataWorker` executable): a crash there is a failed test, not a lost test run.
@Suite("Soundness: one store context read by many threads", .serialized, .timeLimit(.minutes(3)))
struct SharedContextTests {
    typealias Workers = MultiProcessStoreTests

    /// A store of `chats` chats "s<k>" with `messages` messages "s<k>-<j>" each, by user "u".
    static func makeStore(at path: String, chats: Int, messages: Int) async throws {
        let store = try await Workers.open(path)
        try await store.write { context in
            try ChatExample.User(id: "u", name: "U").save(to: &context)
            for k in 0..<chats {
                try ChatExample.Chat(id: "s\(k)").save(to: &context)
                for j in 0..<messages {
                    try ChatExample.Message(id: "s\(k)-\(j)", text: "m", author: .id("u"), chat: .id("s\(k)")).save(to: &context)
                }
            }
        }
        try await store.close()
    }

    @Test("8 threads × 1,000 reads (lookups, ids, nested resolves) of one store.context: every answer right, no crash")
    func eightThreadsOneContext() async throws {
        let (directory, path) = try Workers.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.makeStore(at: path, chats: 40, messages: 30)
        let worker = try Workers.start("share", path, "8", "1000")
        let lines = try await worker.finish()
        #expect(worker.process.terminationReason == .exit, "the process died: \(lines.suffix(3))")
        #expect(lines.last == "done 0", "worker output: \(lines.suffix(3))")
    }
}
