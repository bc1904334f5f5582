import ChatExample
import Foundation
import GRDB
import Relata
import Testing

/// Several stores on one SQLite file in one process: opening the second must not drop the locks
/// the first one's connection holds (closing any descriptor of a file releases every POSIX lock
/// the process holds on it; SQLite's "How To Corrupt", §2.2.1), or another process that opens
/// and closes the file deletes the WAL under the first store and commits are lost.
@Suite("Hardening: several stores on one file in one process", .serialized, .timeLimit(.minutes(3)))
struct SameProcessLockTests {
    typealias Message = ChatExample.Message

    @Test("Two stores in one process, an outside reader and an outside writer: every commit kept, the file intact")
    func twoStoresOutsideReaderAndWriter() async throws {
        let (directory, path) = try MultiProcessStoreTests.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await MultiProcessStoreTests.open(path)
        try await first.write { context in
            try ChatExample.User(id: "u", name: "U").save(to: &context)
            try ChatExample.Chat(id: "c").save(to: &context)
        }
        let second = try await MultiProcessStoreTests.open(path)
        try await second.write { try Message(id: "second-0", text: "t", author: .id("u"), chat: .id("c")).save(to: &$0) }
        // Another process opens the file and closes it: the last connection out checkpoints and
        // deletes the WAL, unless this process still holds its shared lock.
        let reader = try MultiProcessStoreTests.start("open", path)
        let read = try await reader.finish()
        #expect(read.last?.hasPrefix("done") == true, "reader output: \(read.suffix(3))")
        let writer = try MultiProcessStoreTests.start("append", path, "outside", "5")
        let written = try await writer.finish()
        #expect(written.last == "done 5", "writer output: \(written.suffix(3))")
        try await first.write { try Message(id: "first-0", text: "t", author: .id("u"), chat: .id("c")).save(to: &$0) }
        try await second.write { try Message(id: "second-1", text: "t", author: .id("u"), chat: .id("c")).save(to: &$0) }
        let again = try MultiProcessStoreTests.start("append", path, "again", "3")
        _ = try await again.finish()
        try await first.close()
        try await second.close()

        let check = try DatabaseQueue(path: path)
        let integrity = try await check.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        try check.close()
        #expect(integrity == ["ok"])
        let reopened = try await MultiProcessStoreTests.open(path)
        let messages = Set(reopened.context.ids(of: Message.self))
        let expected = Set(["second-0", "first-0", "second-1"] + (0..<5).map { "outside-\($0)" } + (0..<3).map { "again-\($0)" })
        #expect(messages == expected, "missing: \(expected.subtracting(messages).sorted())")
        try reopened.context.checkInvariants()
        try await reopened.close()
    }
}
