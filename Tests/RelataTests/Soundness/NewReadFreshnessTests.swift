import ChatExample
import Foundation
import Relata
import RelataSQLite
import Testing

/// A new read answers as of storage's newest commit, whoever made it: another `Store` in this
/// process or another process, with the store following others in the background or not. Its
/// rows may be in the store's cache from an earlier read; the cache must not hide the commit.
@Suite("Soundness: a new read sees every commit made before it", .serialized, .timeLimit(.minutes(3)))
struct NewReadFreshnessTests {
    typealias Workers = MultiProcessStoreTests
    typealias User = ChatExample.User
    typealias Chat = ChatExample.Chat
    typealias Message = ChatExample.Message
    typealias Attachment = ChatExample.Attachment

    static func open(_ path: String, followInterval: Duration?) async throws -> Store {
        try await Store(
            backend: SQLiteBackend(path: path), schema: EntitySchema(User.self, Chat.self, Message.self, Attachment.self),
            followInterval: followInterval)
    }

    @Test("Two stores in one process: a new read of a list another store appended to lists the new message", arguments: [false, true])
    func twoStoresOneProcess(follows: Bool) async throws {
        let (directory, path) = try Workers.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = try await Self.open(path, followInterval: follows ? .milliseconds(10) : nil)
        let b = try await Self.open(path, followInterval: nil)
        try await b.write { context in
            try User(id: "u", name: "U").save(to: &context)
            try Chat(id: "c0").save(to: &context)
        }
        var stale = 0
        for round in 0..<40 {
            let before = try await a.read { $0.ids(of: "c0", \Chat.$messages) }
            try await b.write { try Message(id: "m\(round)", text: "t", author: .id("u"), chat: .id("c0")).save(to: &$0) }
            let after = try await a.read { $0.ids(of: "c0", \Chat.$messages) }
            // The synchronous read (a closure that is not `async` calls it).
            let synchronous = try { try a.read { $0.ids(of: "c0", \Chat.$messages) } }()
            if after != before + ["m\(round)"] || synchronous != after { stale += 1 }
        }
        #expect(stale == 0, "stale in \(stale) of 40 rounds")
        try await a.close()
        try await b.close()
    }

    @Test("A new read of a chat and then its messages, after another store appended to the cached chat, answers and does not throw staleSnapshot")
    func noStaleSnapshotInAFreshRead() async throws {
        let (directory, path) = try Workers.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = try await Self.open(path, followInterval: .milliseconds(10))
        let b = try await Self.open(path, followInterval: nil)
        try await b.write { try User(id: "u", name: "U").save(to: &$0) }
        var failures: [String] = []
        for round in 0..<40 {
            try await b.write { try Chat(id: "r\(round)").save(to: &$0) }
            _ = try await a.read { $0.entity(Chat.self, id: "r\(round)") }
            try await b.write { try Message(id: "x\(round)", text: "t", author: .id("u"), chat: .id("r\(round)")).save(to: &$0) }
            do {
                let ids = try await a.read { context -> [String] in
                    guard context.entity(Chat.self, id: "r\(round)") != nil else { return [] }
                    return context.ids(of: "r\(round)", \Chat.$messages)
                }
                if ids != ["x\(round)"] { failures.append("round \(round): \(ids)") }
            } catch {
                failures.append("round \(round): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of 40 rounds: \(failures.prefix(3))")
        try await a.close()
        try await b.close()
    }

    @Test("Another process appends: a new read in this one lists its message at once (no refresh)")
    func anotherProcess() async throws {
        let (directory, path) = try Workers.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = try await Self.open(path, followInterval: .milliseconds(10))
        try await a.write { context in
            try User(id: "u", name: "U").save(to: &context)
            try Chat(id: "c").save(to: &context)
        }
        var stale = 0
        for round in 0..<6 {
            let before = try await a.read { $0.ids(of: "c", \Chat.$messages) }
            let lines = try await Workers.start("append", path, "p\(round)", "1").finish()
            #expect(lines.last == "done 1", "worker output: \(lines.suffix(3))")
            let after = try await a.read { $0.ids(of: "c", \Chat.$messages) }
            if after != before + ["p\(round)-0"] { stale += 1 }
        }
        #expect(stale == 0, "stale in \(stale) of 6 rounds")
        try await a.close()
    }
}
