import ChatExample
import Foundation
import Relata
import Testing

/// A child process writes to a SQLite store in a loop and is killed with SIGKILL at random
/// moments; after each kill the reopened store holds exactly the writes that returned (plus, at
/// most, the one in flight, whose commit may have landed before its report), consistently.
@Suite("Store crash safety", .serialized)
struct StoreCrashSafetyTests {
    static func writer() throws -> URL {
        let url = try TypeSafetyCompileTests.buildDirectory().appendingPathComponent("RelataCrashWriter")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return url
    }

    /// Collects what a child process prints, from a thread of its own.
    final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        private var ended = false

        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty {
                        lock.withLock { ended = true }
                        return
                    }
                    lock.withLock { data.append(chunk) }
                }
            }
        }

        /// Whether the process closed its output.
        var isFinished: Bool { lock.withLock { ended } }

        var lines: [String] {
            lock.withLock { String(decoding: data, as: UTF8.self) }.split(separator: "\n").map(String.init)
        }
    }

    /// Starts the writer, waits until it has opened the store, lets it write for `milliseconds`,
    /// kills it, and returns the lines it printed.
    static func runAndKill(_ writer: URL, path: String, after milliseconds: Int) async throws -> [String] {
        let process = Process()
        process.executableURL = writer
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = Output(pipe.fileHandleForReading)
        let deadline = ContinuousClock.now + .seconds(60)
        while output.lines.first?.hasPrefix("ready") != true, process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        try await Task.sleep(for: .milliseconds(milliseconds))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the writer was killed, not stopped by an error")
        while !output.isFinished { try await Task.sleep(for: .milliseconds(2)) }  // drain the pipe
        return output.lines
    }

    @Test("24 random SIGKILLs: the reopened store holds exactly the committed writes")
    func killedWriter() async throws {
        let writer = try Self.writer()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relata-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("crash.sqlite").path
        var committed = 0  // writes known to be in the store
        var kills = 0
        for round in 0..<24 {
            let lines = try await Self.runAndKill(writer, path: path, after: Int.random(in: 20...400))
            kills += 1
            guard let first = lines.first, first.hasPrefix("ready "), let start = Int(first.dropFirst(6)) else {
                Issue.record("round \(round): the writer did not start: \(lines.prefix(3))")
                return
            }
            #expect(start == committed, "round \(round): the writer resumed after the last commit")
            let reported = lines.dropFirst().compactMap { Int($0) }.last ?? start - 1
            // The writer's types: those of ChatExample (stored under ChatExample's names).
            let store = try await Store(
                path: path, entities: ChatExample.User.self, ChatExample.Chat.self, ChatExample.Message.self, ChatExample.Attachment.self
            )
            let next = Int(store.context.entity(ChatExample.User.self, id: "counter")?.name ?? "0") ?? -1
            #expect(next == reported + 1 || next == reported + 2, "round \(round): \(next) vs last reported \(reported)")
            // Message k exists unless write k + 3 (which deletes it when k % 3 == 2) committed.
            let expected = Set((0..<next).filter { !($0 % 3 == 2 && $0 + 3 < next) }.map { "m\($0)" })
            #expect(Set(store.context.ids(of: ChatExample.Message.self)) == expected, "round \(round)")
            #expect(Set(store.context.ids(of: "c", \ChatExample.Chat.$messages)) == expected, "round \(round)")
            #expect(throws: Never.self) { try store.context.checkInvariants() }
            try await store.close()
            committed = next
        }
        #expect(kills >= 20)
        #expect(committed > 24, "the writer made progress between kills")
    }
}
