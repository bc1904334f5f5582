import ChatExample
import Foundation
import GRDB
import Relata
import Testing

/// Real processes (the `RelataWorker` executable) share one SQLite file: none loses a write, none
/// sees "database is locked", a cascade in one reaches what the others committed, a process
/// killed inside its transaction blocks nobody, and an old file is upgraded once.
@Suite("Store: several processes on one SQLite file", .serialized, .timeLimit(.minutes(3)))
struct MultiProcessStoreTests {
    typealias Output = StoreCrashSafetyTests.Output
    // The worker's models (the test target has chat models of its own, under other stored names).
    typealias User = ChatExample.User
    typealias Chat = ChatExample.Chat
    typealias Message = ChatExample.Message
    typealias Attachment = ChatExample.Attachment

    /// A running worker and what it printed.
    struct Worker {
        let process: Process
        let output: Output

        var lines: [String] { output.lines }

        /// Waits until the worker printed a line starting with `prefix` (or exited, or a minute passed).
        func wait(for prefix: String) async throws {
            let deadline = ContinuousClock.now + .seconds(60)
            while !lines.contains(where: { $0.hasPrefix(prefix) }), process.isRunning, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
        }

        /// Waits for the worker to exit and returns its lines.
        func finish() async throws -> [String] {
            let deadline = ContinuousClock.now + .seconds(120)
            while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            while !output.isFinished { try await Task.sleep(for: .milliseconds(2)) }
            return lines
        }
    }

    /// Starts a worker.
    static func start(_ arguments: String...) throws -> Worker {
        let url = try TypeSafetyCompileTests.buildDirectory().appendingPathComponent("RelataWorker")
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        return Worker(process: process, output: Output(pipe.fileHandleForReading))
    }

    static func temporaryStore() throws -> (URL, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relata-processes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (directory, directory.appendingPathComponent("shared.sqlite").path)
    }

    static func open(_ path: String) async throws -> Store {
        try await Store(path: path, entities: User.self, Chat.self, Message.self, Attachment.self)
    }

    /// No message links to a chat that is not stored.
    static func expectNoDanglingChat(_ context: Context) {
        let chats = Set(context.ids(of: Chat.self))
        let dangling = context.ids(of: Message.self).filter { id in
            context.ids(of: id, \Message.$chat).contains { !chats.contains($0) }
        }
        #expect(dangling.isEmpty, "messages whose chat is not stored: \(dangling.prefix(5))")
    }

    @Test("4 processes × 200 appends to one chat at once: 800 messages, no error")
    func concurrentAppends() async throws {
        let (directory, path) = try Self.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try await Self.open(path)
        try await setup.write { try Chat(id: "c").save(to: &$0) }
        try await setup.close()
        let workers = try (0..<4).map { try Self.start("append", path, "w\($0)", "200") }
        for worker in workers {
            let lines = try await worker.finish()
            #expect(lines.last == "done 200", "worker output: \(lines.suffix(3))")
            #expect(!lines.contains { $0.hasPrefix("error") })
        }
        // Each append caught up before it ran: the chat's order is the commit order.
        let queue = try DatabaseQueue(path: path)
        let committed = try await queue.read { db in
            try Data.fetchAll(db, sql: "SELECT record FROM relata_log ORDER BY seq").flatMap { data in
                try StoredChangeLogRecord(decoding: data).record.entities.filter { $0.type == Message.storedTypeName }.map(\.id)
            }
        }
        try queue.close()
        let store = try await Self.open(path)
        #expect(store.context.ids(of: "c", \Chat.$messages) == committed)
        #expect(store.context.ids(of: "c", \Chat.$messages).count == 800)
        #expect(store.context.ids(of: Message.self).count == 800)
        try store.context.checkInvariants()
        try await store.close()
    }

    @Test("Appenders racing a process that deletes (cascade) and re-creates the chat: no message refers to a missing chat")
    func appendersRaceCascade() async throws {
        let (directory, path) = try Self.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try await Self.open(path)
        try await setup.write { try Chat(id: "c").save(to: &$0) }
        try await setup.close()
        let workers = try [
            Self.start("append", path, "a", "200"), Self.start("append", path, "b", "200"),
            Self.start("churn", path, "40"),
        ]
        for worker in workers {
            let lines = try await worker.finish()
            #expect(lines.last?.hasPrefix("done") == true, "worker output: \(lines.suffix(3))")
        }
        let store = try await Self.open(path)
        try store.context.checkInvariants()
        Self.expectNoDanglingChat(store.context)
        #expect(Set(store.context.ids(of: Message.self)) == Set(store.context.ids(of: "c", \Chat.$messages)))
        try await store.close()
    }

    @Test("A long-lived store deletes a chat after other processes appended to it, without refresh: nothing is left behind")
    func cascadeReachesOtherProcessesCommits() async throws {
        let (directory, path) = try Self.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Store(
            backend: SQLiteBackend(path: path), schema: EntitySchema(User.self, Chat.self, Message.self, Attachment.self), followInterval: nil
        )
        try await store.write { try Chat(id: "c").save(to: &$0) }
        let workers = try [Self.start("append", path, "a", "30"), Self.start("append", path, "b", "30")]
        for worker in workers { _ = try await worker.finish() }
        #expect(store.context.ids(of: Message.self).count == 60, "a new context reads the newest commit, without refresh")
        try await store.write { try Chat.delete(id: "c", from: &$0) }
        #expect(store.context.ids(of: Message.self).isEmpty)
        try await store.close()
        let reopened = try await Self.open(path)
        #expect(reopened.context.ids(of: Message.self).isEmpty, "the cascade erased the other processes' messages")
        try reopened.context.checkInvariants()
        try await reopened.close()
    }

    @Test("A writer killed inside its transaction blocks nobody; what was committed stays")
    func writerKilledMidTransaction() async throws {
        let (directory, path) = try Self.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try await Self.open(path)
        try await setup.write { try Chat(id: "c").save(to: &$0) }
        try await setup.close()
        let before = try Self.start("append", path, "before", "20")
        _ = try await before.finish()
        let holder = try Self.start("hold", path)
        try await holder.wait(for: "holding")
        let appender = try Self.start("append", path, "after", "50")
        try await Task.sleep(for: .milliseconds(300))
        kill(holder.process.processIdentifier, SIGKILL)
        _ = try await holder.finish()
        let lines = try await appender.finish()
        #expect(lines.last == "done 50", "the appender waited for the lock, then went on: \(lines.suffix(3))")
        let store = try await Self.open(path)
        let messages = Set(store.context.ids(of: Message.self))
        #expect(messages.count == 70)
        #expect(!messages.contains("held"), "the killed transaction left nothing")
        #expect(messages.isSuperset(of: (0..<20).map { "before-\($0)" }))
        try store.context.checkInvariants()
        try await store.close()
    }

    @Test("An old file opened by two processes at once is upgraded once")
    func upgradeOnce() async throws {
        let (directory, path) = try Self.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try await Self.open(path)
        try await setup.write { context in
            try Chat(id: "c").save(to: &context)
            for i in 0..<50 { try Message(id: "m\(i)", text: "t", author: .id("u"), chat: .id("c")).save(to: &context) }
        }
        try await setup.close()
        try await LegacyStoreFile.downgrade(path, version: 4, module: "ChatExample", dropLog: true)
        let workers = try [Self.start("open", path), Self.start("open", path)]
        for worker in workers {
            let lines = try await worker.finish()
            #expect(lines.last == "done 50 messages, 1 chats", "worker output: \(lines.suffix(3))")
        }
        let check = try DatabaseQueue(path: path)
        let (records, legacy) = try await check.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM relata_log") ?? -1,
             try LegacyStoreFile.typesWithRows(db).filter { !$0.hasPrefix("ChatExample.") }.count)
        }
        try check.close()
        #expect(records == 1, "one upgrade commit, by one of the two processes")
        #expect(legacy == 0)
    }

    @Test("Another process's commits reach this store's observers and commit stream, without refresh")
    func observersSeeOtherProcesses() async throws {
        let (directory, path) = try Self.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Self.open(path)
        try await store.write { try Chat(id: "c").save(to: &$0) }
        let counts = store.observe { $0.count(of: "c", \Chat.$messages) }.makeAsyncIterator()
        #expect(try await counts.next() == 0)
        let commits = store.commits.makeAsyncIterator()
        let worker = try Self.start("append", path, "w", "20")
        var count = 0
        while count < 20, let next = try await counts.next() { count = next }
        #expect(count == 20, "the observed count followed the other process")
        var stored = Set<String>()
        while stored.count < 20, let commit = await commits.next() {
            #expect(commit.kind == .remote)
            stored.formUnion(commit.delta.storedIDs(of: Message.self))
        }
        #expect(stored == Set((0..<20).map { "w-\($0)" }))
        _ = try await worker.finish()
        try await store.close()
    }
}
