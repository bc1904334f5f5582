import ChatExample
import Foundation
import Relata
import Testing

/// `relata-demo`, run as a real process on a store file of its own: what a newcomer sees.
@Suite("relata-demo", .serialized)
struct DemoTests {
    /// Runs relata-demo with `arguments` and returns what it printed (it must exit with 0).
    static func demo(_ arguments: String...) async throws -> String {
        let process = Process()
        process.executableURL = try TypeSafetyCompileTests.buildDirectory().appendingPathComponent("relata-demo")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = MultiProcessStoreTests.Worker(process: process, output: StoreCrashSafetyTests.Output(pipe.fileHandleForReading))
        let lines = try await output.finish()
        #expect(process.terminationStatus == 0, "relata-demo \(arguments) failed: \(lines.suffix(3))")
        return lines.joined(separator: "\n")
    }

    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("relata-demo-\(UUID().uuidString).sqlite").path
    }

    @Test("A first run loads and summarizes in a few lines (no JSON dump, no invariant check unless asked); a second reports the first")
    func firstAndSecondRun() async throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let first = try await Self.demo("--path", path, "--messages", "2000")
        #expect(first.contains("1. A new store"))
        #expect(first.contains("loaded 1000/2000 messages"), "a progress line per write of the bulk load")
        #expect(first.contains("Bob is in 1 chat(s)") && first.contains("answered \"Yes.\" by Alice"))
        #expect(first.contains("chat list: 100 chats with their newest message"), "an app's chat list")
        #expect(first.contains("chat c0's latest 20 messages"), "an app's chat screen: the newest page of one chat")
        #expect(!first.contains("{"), "no JSON unless --json")
        #expect(!first.contains("Checked:"), "no invariant check unless --check")
        let second = try await Self.demo("--path", path, "--messages", "2000", "--json", "--check")
        #expect(second.contains("Found the store of 1 earlier run(s)"))
        #expect(second.contains("\"name\" : \"Bob\""), "--json prints the README chat as JSON")
        #expect(second.contains("Checked: every link has its other side"))
    }

    @Test("After a run stopped mid-load, the next reopens that store, says so with its counts, and finishes the load")
    func resumesAnUnfinishedLoad() async throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        // What a run killed after its first bulk write leaves: users, chats, 1,000 messages, no run recorded.
        // The demo's models are ChatExample's (stored under that module's names), not this target's.
        typealias User = ChatExample.User
        typealias Chat = ChatExample.Chat
        typealias Message = ChatExample.Message
        typealias Attachment = ChatExample.Attachment
        let store = try await Store(path: path, entities: User.self, Chat.self, Message.self, Attachment.self)
        try await store.write { context in
            for i in 0..<1_000 { try User(id: "u\(i)", name: "User \(i)").save(to: &context) }
            for c in 0..<100 { try Chat(id: "c\(c)").save(to: &context) }
            for m in 0..<1_000 { try Message(id: "m\(m)", text: "message \(m)", author: .id("u\(m % 1_000)"), chat: .id("c\(m % 100)")).save(to: &context) }
        }
        try await store.close()
        let output = try await Self.demo("--path", path, "--messages", "3000")
        #expect(output.contains("Reopened a store an earlier run left unfinished (stopped mid-load): 1000 users, 100 chats, 1000 messages"))
        #expect(output.contains("going on with the bulk load from message 1000"))
        #expect(!output.contains("A new store"))
        #expect(output.contains("loaded 3000/3000 messages"))
        let reopened = try await Store(path: path, entities: User.self, Chat.self, Message.self, Attachment.self)
        #expect(reopened.context.ids(of: Message.self).count { $0.hasPrefix("m") } == 3_000)
        try await reopened.close()
    }

    @Test("search prints the best matches with their authors and chats, best first (\"the best match\" for one, \"no message matches\" for none); a search without a word of three characters is refused")
    func search() async throws {
        let path = Self.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        _ = try await Self.demo("--path", path, "--messages", "2000")
        let found = try await Self.demo("search", "1042", "--path", path, "--limit", "3")
        let lines = found.split(separator: "\n").map(String.init)
        #expect(lines.first == "The 3 best matches for \"1042\":", "\(lines)")
        // The message holding every trigram of the search, in a short text, ranks first.
        #expect(lines.dropFirst().first?.contains("1. message 1042  — User 42, in chat c42 (message m1042)") == true, "\(lines)")
        #expect(lines.count == 5 && lines.last?.hasPrefix("Opened in ") == true)
        let one = try await Self.demo("search", "1042", "--path", path, "--limit", "1").split(separator: "\n").map(String.init)
        #expect(one.first == "The best match for \"1042\":" && one.count == 3, "\(one)")
        let none = try await Self.demo("search", "qqqzzz", "--path", path).split(separator: "\n").map(String.init)
        #expect(none.first == "No message matches \"qqqzzz\"." && none.count == 2, "\(none)")
        let process = Process()
        process.executableURL = try TypeSafetyCompileTests.buildDirectory().appendingPathComponent("relata-demo")
        process.arguments = ["search", "hi", "--path", path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus != 0, "a search that can match nothing is a usage error")
    }
}
