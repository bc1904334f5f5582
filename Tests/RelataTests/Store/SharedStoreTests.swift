import Foundation
import GRDB
import PropertyBased
import Relata
@testable import RelataCore
import Testing

/// Several stores on one storage (one SQLite file, one in-memory backend) in one process: each is
/// a replica that catches up under the write lock before every write, on `refresh()`, and in the
/// background. (Real processes: `MultiProcessStoreTests`.)
@Suite("Store: several stores on one storage", .timeLimit(.minutes(3)))
struct SharedStoreTests {
    typealias Copies = StoreRandomWritesPropertyTests

    /// Opens stores on one storage: `open()` gives another replica each time.
    struct Shared: Sendable {
        let kind: BackendKind
        let harness: StoreHarness
        let retention: Int

        init(_ kind: BackendKind, retention: Int = 10_000) throws {
            self.kind = kind
            harness = try StoreHarness(kind)
            self.retention = retention
        }

        var schema: EntitySchema { EntitySchema(User.self, Chat.self, Message.self, Attachment.self) }

        /// A replica that follows only when told (`refresh`) or when it writes, unless `follow`.
        func open(follow: Bool = false) async throws -> Store {
            let backend: any StorageBackend =
                kind.isSQLite ? try SQLiteBackend(path: harness.path, logRetention: try LogRetention(maxRecords: retention)) : harness.memory
            return try await kind.open(backend, schema: schema, followInterval: follow ? .milliseconds(5) : nil)
        }
    }

    @Test("Random writes from two replicas, sometimes behind: after a refresh each equals the other, position keys included", arguments: BackendKind.allCases)
    func twoReplicasAgree(kind: BackendKind) async {
        await propertyCheck(count: kind.isSQLite ? 8 : 30, input: Gen.int(in: 0...100_000).array(of: 1...60)) { codes in
            await Self.replicasAgree(codes, on: kind)
        }
    }

    @Test("Regression: a context kept from a write that appended to the chats of a user with no entity, assigned back on the other replica, leaves both sides of every link", arguments: BackendKind.allCases)
    func keptAppendedListAssignedBack(kind: BackendKind) async {
        // Found by `twoReplicasAgree` (in memory): the whole comparison read the lists of
        // entities only, so the user's list, held in part, was written as that part.
        await Self.replicasAgree([40573, 0, 61845, 41995, 0, 86054, 88010], on: kind)
    }

    /// Applies `codes` in batches from two replicas on one storage of `kind`, the one not writing
    /// left behind now and then, comparing them after every refresh and once reopened.
    static func replicasAgree(_ codes: [Int], on kind: BackendKind) async {
        guard let shared = try? Shared(kind) else { return }
        defer { shared.harness.remove() }
        guard let a = try? await shared.open(), let b = try? await shared.open() else {
            Issue.record("cannot open")
            return
        }
        var kept = Context()
        var rest = codes[...]
        while !rest.isEmpty {
            let batch = Array(rest.prefix(1 + rest.first! % 7))
            rest = rest.dropFirst(batch.count)
            let (writer, other) = batch.first! % 2 == 0 ? (a, b) : (b, a)
            let kind = Copies.ClosureKind(rawValue: batch.last! % Copies.ClosureKind.allCases.count)!
            let stale = kept
            let result = try? await writer.write { context in
                try Copies.perform(batch, as: kind, on: &context, stale: stale)
                return context
            }
            if let result { kept = result }
            // The other replica is left behind now and then: its next write catches up first.
            guard batch.first! % 3 != 0 else { continue }
            #expect((try? await other.refresh()) != nil)
            let written = Copies.dumped(writer.context)
            #expect(Copies.dumped(other.context) == written, "the other replica, position keys included")
            #expect(throws: Never.self) { try other.context.checkInvariants() }
        }
        #expect((try? await a.refresh()) != nil)
        #expect((try? await b.refresh()) != nil)
        let final = Copies.dumped(a.context)
        #expect(final == Copies.dumped(b.context))
        try? await a.close()
        try? await b.close()
        guard let reopened = try? await shared.open() else {
            Issue.record("cannot reopen")
            return
        }
        #expect(Copies.dumped(reopened.context) == final)
        try? await reopened.close()
    }

    @Test("A write catches up first: a delete cascades to messages another replica appended, and no link dangles", arguments: BackendKind.allCases)
    func cascadeSeesCommittedLinks(kind: BackendKind) async throws {
        let shared = try Shared(kind)
        defer { shared.harness.remove() }
        let deleter = try await shared.open()
        let appender = try await shared.open()
        try await deleter.write { try Chat(id: "c").save(to: &$0) }
        try await appender.write { context in
            for i in 0..<20 {
                try Message(id: "m\(i)", text: "hi", author: .id("u"), chat: .id("c")).save(to: &context)
            }
        }
        // No follow, no refresh: a new context reads the newest commit at its first read.
        #expect(deleter.context.ids(of: Message.self).count == 20)
        try await deleter.write { try Chat(id: "c").delete(from: &$0) }
        #expect(deleter.context.ids(of: Message.self).isEmpty)
        try deleter.context.checkInvariants()
        try await appender.refresh()
        #expect(appender.context.ids(of: Message.self).isEmpty, "the cascade reached the other replica")
        #expect(appender.context.ids(of: Chat.self).isEmpty)
        try appender.context.checkInvariants()
        try await deleter.close()
        try await appender.close()
        let reopened = try await shared.open()
        #expect(reopened.context.ids(of: Message.self).isEmpty, "and the storage")
        try reopened.context.checkInvariants()
        try await reopened.close()
    }

    @Test("Without refresh, a replica sees another's commit in the background", arguments: BackendKind.allCases)
    func followsInBackground(kind: BackendKind) async throws {
        let shared = try Shared(kind)
        defer { shared.harness.remove() }
        let follower = try await shared.open(follow: true)
        let writer = try await shared.open()
        try await writer.write { context in
            try Chat(id: "c", users: .relation([User(id: "u", name: "Ann")])).save(to: &context)
        }
        try await waitUntil(seconds: 10) { follower.context.ids(of: "c", \Chat.$users) == ["u"] }
        #expect(follower.context.ids(of: "c", \Chat.$users) == ["u"])
        #expect(follower.context.ids(of: "u", \User.$chats) == ["c"], "both sides of the link")
        try await follower.close()
        try await writer.close()
    }

    @Test("A store behind the pruned log drops the rows it kept, says so, and reads storage", arguments: BackendKind.allCases)
    func reloadsWhenLogPruned(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let memory = InMemoryBackend(logRetention: try LogRetention(maxRecords: 2))
        func open() async throws -> Store {
            let backend: any StorageBackend = kind.isSQLite ? try SQLiteBackend(path: harness.path, logRetention: try LogRetention(maxRecords: 2)) : memory
            return try await kind.open(backend, schema: StoreHarness.schema, followInterval: nil)
        }
        let behind = try await open()
        let writer = try await open()
        try await writer.write { try User(id: "u0", name: "first").save(to: &$0) }
        try await behind.refresh()
        #expect(behind.fullReloads == 0, "one commit behind: caught up from the log")
        for i in 1...5 { try await writer.write { try User(id: "u\(i)", name: "n").save(to: &$0) } }
        try await writer.write { try User(id: "u0", name: "first").delete(from: &$0) }
        try await behind.refresh()
        #expect(behind.fullReloads == 1)
        #expect(behind.context.ids(of: User.self).sorted() == ["u1", "u2", "u3", "u4", "u5"])
        try await behind.write { try User(id: "u6", name: "after").save(to: &$0) }
        try await writer.refresh()
        #expect(writer.context.ids(of: User.self).sorted() == ["u1", "u2", "u3", "u4", "u5", "u6"])
        try await behind.close()
        try await writer.close()
    }

    @Test("A write that waits past the busy timeout throws storeBusy; the state and the file are unchanged")
    func busyTimeout() async throws {
        let harness = try StoreHarness(.sqlite)
        defer { harness.remove() }
        let store = try await Store(
            backend: SQLiteBackend(path: harness.path, busyTimeout: .milliseconds(200)), schema: StoreHarness.schema, followInterval: nil
        )
        try await store.write { try User(id: "a", name: "A").save(to: &$0) }
        // Another connection holds the write lock for a second.
        let other = try DatabaseQueue(path: harness.path)
        let locked = DispatchSemaphore(value: 0)
        let holder = Thread {
            try? other.inTransaction(.immediate) { _ in
                locked.signal()
                Thread.sleep(forTimeInterval: 1)
                return .rollback
            }
        }
        holder.start()
        locked.wait()
        await #expect {
            try await store.write { try User(id: "b", name: "B").save(to: &$0) }
        } throws: { error in
            (error as? RelataError)?.code == .storeBusy && "\(error)".contains(harness.path)
        }
        while holder.isExecuting { try await Task.sleep(for: .milliseconds(20)) }
        try other.close()
        #expect(store.context.ids(of: User.self) == ["a"])
        try await store.write { try User(id: "c", name: "C").save(to: &$0) }
        try await store.close()
        let reopened = try await harness.open()
        #expect(reopened.context.ids(of: User.self).sorted() == ["a", "c"])
        try await reopened.close()
    }
}
