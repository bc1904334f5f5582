import Dispatch
import Foundation
import Relata
@testable import RelataCore
import Synchronization
import Testing

/// After a large write the other copy of the state catches up on another thread. A write that
/// begins before that is done takes the published copy (no reader holds it), and readers wait
/// for the caught-up copy: they must only ever see whole committed writes, a failed write must
/// leave the state as before, and both copies must end equal.
@Suite("Store: catch-up beside the next write")
struct StoreDeferredCatchUpTests {
    typealias Large = StoreLargeWriteTests

    /// A gate the store's background catch-up waits at, so a test decides when it finishes.
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        func wait() { semaphore.wait() }
        func open() { semaphore.signal() }
    }

    /// A store with users, chats and 600 messages, whose last (large) write's catch-up is held at
    /// the returned gate, as is every later one until the gate opens for it.
    static func storeWithHeldCatchUp(_ harness: StoreHarness) async throws -> (Store, Gate) {
        let store = try await Store(backend: try harness.backend(), schema: StoreHarness.schema)
        try await store.write { context in
            for user in Large.users { try User(id: user, name: "name \(user)").save(to: &context) }
            for chat in Large.chats { try Chat(id: chat, users: .ids([Large.users[0]])).save(to: &context) }
        }
        let gate = Gate()
        await store.setCatchUpHook { gate.wait() }
        try await store.write { context in
            for j in 0..<600 { try Large.message(j).save(to: &context) }
        }
        return (store, gate)
    }

    static func messageCount(_ context: Context) -> Int {
        Message.query(in: context).resolve().count
    }

    @Test("A write that begins during a catch-up takes the published copy; readers wait, then see whole writes", arguments: BackendKind.allCases)
    func writeDuringCatchUp(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let (store, gate) = try await Self.storeWithHeldCatchUp(harness)
        // The catch-up of that write now waits at the gate.
        let bodyRan = Mutex(false)
        let second = Task {
            try await store.write { context in
                for j in 600..<1_200 { try Large.message(j).save(to: &context) }
                bodyRan.withLock { $0 = true }
            }
        }
        // (Polled: a blocking wait here could hold the thread the write needs.)
        let deadline = ContinuousClock.now + .seconds(20)
        while !bodyRan.withLock({ $0 }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        guard bodyRan.withLock({ $0 }) else {
            Issue.record("the second write waited for the catch-up instead of taking the published copy")
            gate.open()
            gate.open()
            _ = try? await second.value
            return
        }
        // The second write holds the published copy: a reader waits for the other copy.
        let seen = Mutex<Int?>(nil)
        let reader = Thread {
            let count = Self.messageCount(store.context)
            seen.withLock { $0 = count }
        }
        reader.start()
        try await Task.sleep(for: .milliseconds(200))
        #expect(seen.withLock { $0 } == nil, "a reader must wait while the catch-up is held back")
        gate.open()
        try await second.value
        while seen.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(5)) }
        let count = try #require(seen.withLock { $0 })
        #expect(count == 600 || count == 1_200, "a whole write, never part of one")
        #expect(await store.writesOnPublishedCopy == 1)
        #expect(Self.messageCount(store.context) == 1_200)
        gate.open()  // the second write's own catch-up
        try await Large.expectCopiesAgree(store, "two overlapping large writes")

        let before = Large.dumped(store.context)
        try await store.close()
        let reopened = try await Store(backend: try harness.backend(), schema: StoreHarness.schema)
        #expect(Large.dumped(reopened.context) == before)
    }

    @Test("A write that fails on the published copy leaves the state as before", arguments: BackendKind.allCases)
    func failureDuringCatchUp(kind: BackendKind) async throws {
        struct Refused: Error {}
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let (store, gate) = try await Self.storeWithHeldCatchUp(harness)
        let before = Large.dumped(store.context)
        await #expect(throws: Refused.self) {
            try await store.write { context in
                for j in 600..<1_200 { try Large.message(j).save(to: &context) }
                try Chat.delete(id: "c1", from: &context)
                gate.open()
                throw Refused()
            }
        }
        #expect(await store.writesOnPublishedCopy == 1)
        #expect(Large.dumped(store.context) == before)
        try await Large.expectCopiesAgree(store, "a failed write on the published copy")

        // The store goes on: back-to-back large writes, each catch-up running beside the next.
        await store.setCatchUpHook(nil)
        for start in stride(from: 600, to: 3_000, by: 600) {
            try await store.write { context in
                for j in start..<(start + 600) { try Large.message(j % 1_600, chat: j, author: j / 3).save(to: &context) }
            }
        }
        try await Large.expectCopiesAgree(store, "back-to-back large writes")
        let written = Large.dumped(store.context)
        try await store.close()
        let reopened = try await Store(backend: try harness.backend(), schema: StoreHarness.schema)
        #expect(Large.dumped(reopened.context) == written)
    }
}
