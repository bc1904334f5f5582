import Dispatch
import Foundation
import Relata
@testable import RelataCore
import Synchronization
import Testing

/// A write runs in place on the published copy when no reader holds it; the other copy then
/// catches up only when it is needed. Readers must only ever see whole committed writes and
/// never wait for a write's closure; a failed write must leave the state as before; both copies
/// must end equal and the store must reopen the same.
@Suite("Store: lazy catch-up of the spare copy")
struct StoreDeferredCatchUpTests {
    typealias Large = StoreLargeWriteTests

    /// A store with users, chats and 600 messages.
    static func storeWith600Messages(_ harness: StoreHarness) async throws -> Store {
        let store = try await Store(backend: try harness.backend(), schema: StoreHarness.schema)
        try await store.write { context in
            for user in Large.users { try User(id: user, name: "name \(user)").save(to: &context) }
            for chat in Large.chats { try Chat(id: chat, users: .ids([Large.users[0]])).save(to: &context) }
        }
        try await store.write { context in
            for j in 0..<600 { try Large.message(j).save(to: &context) }
        }
        return store
    }

    /// A message with no to-many link: a write of such messages never compares with the state
    /// before it, so it never waits for the spare to catch up.
    static func plainMessage(_ j: Int) -> Message {
        var message = Large.message(j)
        message.$viewedBy = .none
        return message
    }

    /// Expects both copies of `store` to agree, then closes it and expects it to reopen the same.
    static func expectAgreesAndReopens(_ store: Store, _ harness: StoreHarness, after step: String) async throws {
        try await Large.expectCopiesAgree(store, step)
        let before = Large.dumped(store.context)
        try await store.close()
        let reopened = try await Store(backend: try harness.backend(), schema: StoreHarness.schema)
        #expect(Large.dumped(reopened.context) == before)
    }

    static func messageCount(_ context: Context) -> Int {
        Message.query(in: context).resolve().count
    }

    /// What a reader thread saw, once it has read.
    final class Seen: Sendable {
        private let count = Mutex<Int?>(nil)
        var value: Int? { count.withLock { $0 } }
        func set(_ value: Int) { count.withLock { $0 = value } }
    }

    /// Reads the message count on a thread of its own (not the write's).
    static func readOnThread(_ store: Store) -> Seen {
        let seen = Seen()
        Thread {
            seen.set(messageCount(store.context))
        }.start()
        return seen
    }

    /// Polls `condition` (without awaiting, from inside a write's closure) for up to 20 s.
    static func poll(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(20)
        while !condition(), ContinuousClock.now < deadline { usleep(2_000) }
        return condition()
    }

    @Test("With no reader, writes run in place and the spare only keeps what it lacks", arguments: BackendKind.allCases)
    func writesInPlace(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await Self.storeWith600Messages(harness)
        for start in stride(from: 600, to: 1_600, by: 250) {
            try await store.write { context in
                for j in start..<min(start + 250, 1_600) { try Self.plainMessage(j).save(to: &context) }
            }
        }
        #expect(await store.writesOnPublishedCopy == 5, "every write after the first ran in place")
        // The 600 messages (some viewed by users: link rows) were compared with the state before
        // them, so the next write started the spare's catch-up; the four after it did not.
        #expect(store.pendingCatchUps == 4, "the spare lacks the writes since then, and nothing caught it up")
        #expect(Self.messageCount(store.context) == 1_600)
        try await Self.expectAgreesAndReopens(store, harness, after: "writes in place")
    }

    @Test("A reader that arrives during a write in place gets the last committed state before the write ends", arguments: BackendKind.allCases)
    func readerDuringWriteInPlace(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await Self.storeWith600Messages(harness)
        let readDuringClosure = try await store.write { context in
            for j in 600..<1_200 { try Large.message(j).save(to: &context) }
            // The closure is still running: the reader must not wait for it.
            let seen = Self.readOnThread(store)
            return Self.poll { seen.value != nil } ? seen.value : nil
        }
        #expect(readDuringClosure == 600, "the reader saw the committed state (the spare caught up), not part of the write")
        #expect(await store.writesOnPublishedCopy == 2)
        #expect(Self.messageCount(store.context) == 1_200)
        try await Self.expectAgreesAndReopens(store, harness, after: "a write in place with a reader")
    }

    @Test("A reader waiting for a held-back catch-up is woken by the write's commit, and sees the whole write", arguments: BackendKind.allCases)
    func readerWokenByCommit(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await Self.storeWith600Messages(harness)
        let gate = DispatchSemaphore(value: 0)
        await store.setCatchUpHook { gate.wait() }
        let seen = try await store.write { context in
            for j in 600..<1_200 { try Self.plainMessage(j).save(to: &context) }
            let seen = Self.readOnThread(store)
            // The reader found no published copy and started the spare's catch-up, held at the gate.
            #expect(Self.poll { store.isCatchingUp })
            return seen
        }
        // Only the commit can wake the reader.
        #expect(Self.poll { seen.value != nil })
        #expect(seen.value == 1_200, "a whole write, never part of one")
        gate.signal()
        await store.setCatchUpHook(nil)
        try await Large.expectCopiesAgree(store, "a catch-up that finished after the commit")
        try await store.write { context in
            for j in 1_200..<1_600 { try Large.message(j).save(to: &context) }
        }
        try await Large.expectCopiesAgree(store, "the next write")
        #expect(Self.messageCount(store.context) == 1_600)
    }

    @Test("A reader holding the published copy sends the write to the other copy", arguments: BackendKind.allCases)
    func writeBesideHeldSnapshot(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await Self.storeWith600Messages(harness)
        let held = store.context
        let heldDump = Large.dumped(held)
        let inPlaceBefore = await store.writesOnPublishedCopy
        try await store.write { context in
            for j in 600..<1_000 { try Large.message(j).save(to: &context) }
            try Chat.delete(id: "c1", from: &context)
        }
        #expect(await store.writesOnPublishedCopy == inPlaceBefore, "the write ran on the spare")
        #expect(store.pendingCatchUps == 1, "the copy the reader holds lacks that write only")
        #expect(Large.dumped(held) == heldDump, "a snapshot never changes")
        try await Self.expectAgreesAndReopens(store, harness, after: "a write beside a held snapshot")
    }

    @Test("When the spare lacks more rows than the state has entities, a write beside a reader shares the published copy instead", arguments: BackendKind.allCases)
    func longLogIsDropped(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await Store(backend: try harness.backend(), schema: StoreHarness.schema)
        for round in 0..<4 {
            try await store.write { context in try User(id: "u1", name: "round \(round)").save(to: &context) }
        }
        #expect(store.pendingCatchUps == 4, "four rows of one entity: the spare lacks every write")
        let dropped = store.droppedCatchUpLogs
        let held = store.context
        try await store.write { context in try User(id: "u1", name: "beside a reader").save(to: &context) }
        #expect(store.droppedCatchUpLogs == dropped + 1, "the log was longer than the state: dropped, not applied")
        #expect(store.pendingCatchUps == 1, "the held copy, now the spare, lacks one write")
        #expect(User.query("u1", in: held).resolve()?.name == "round 3")
        #expect(User.query("u1", in: store.context).resolve()?.name == "beside a reader")
        let spare = await store.spareForTesting
        #expect(User.query("u1", in: spare).resolve()?.name == "beside a reader")
        try await store.close()
    }

    @Test("A write that fails in place leaves the state as before, however far behind the spare was", arguments: BackendKind.allCases)
    func failureInPlace(kind: BackendKind) async throws {
        struct Refused: Error {}
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await Self.storeWith600Messages(harness)
        try await store.write { context in
            for j in 600..<900 { try Large.message(j).save(to: &context) }
        }
        let before = Large.dumped(store.context)
        await #expect(throws: Refused.self) {
            try await store.write { context in
                for j in 900..<1_200 { try Large.message(j).save(to: &context) }
                try Chat.delete(id: "c1", from: &context)
                throw Refused()
            }
        }
        #expect(await store.writesOnPublishedCopy == 3)
        #expect(Large.dumped(store.context) == before)
        try await Large.expectCopiesAgree(store, "a failed write in place")

        // The store goes on: writes that add, move and erase, in place.
        for start in stride(from: 600, to: 3_000, by: 600) {
            try await store.write { context in
                for j in start..<(start + 600) { try Large.message(j % 1_600, chat: j, author: j / 3).save(to: &context) }
                try Chat.delete(id: "c\(start / 600 + 1)", from: &context)
            }
        }
        try await Self.expectAgreesAndReopens(store, harness, after: "writes in place that erase")
    }
}
