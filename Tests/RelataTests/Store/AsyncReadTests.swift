import Dispatch
import Foundation
import Relata
import Synchronization
import Testing

/// `try await store.read { … }` and the background gets run on the store's reader threads: a read
/// that waits for storage (a PostgreSQL round trip) blocks one of those, never a thread of Swift's
/// cooperative pool.
@Suite("Store: async reads off the cooperative pool")
struct AsyncReadTests {
    /// Holds storage reads until it is opened; counts the reads waiting.
    final class Gate: Sendable {
        private let state = Mutex((isOpen: true, waiting: 0, openedBy: ""))
        private let opened = DispatchSemaphore(value: 0)

        var waiting: Int { state.withLock { $0.waiting } }
        var openedBy: String { state.withLock { $0.openedBy } }

        func close() { state.withLock { $0 = (false, 0, "") } }

        func open(by who: String) {
            let waiters = state.withLock { state -> Int? in
                guard !state.isOpen else { return nil }
                state.isOpen = true
                state.openedBy = who
                return state.waiting
            }
            for _ in 0..<(waiters ?? 0) { opened.signal() }
        }

        func pass() {
            let mustWait = state.withLock { state -> Bool in
                if !state.isOpen { state.waiting += 1 }
                return !state.isOpen
            }
            if mustWait { opened.wait() }
        }
    }

    /// A backend whose reads wait at `gate` first, as reads waiting for a server do.
    final class GatedBackend: StorageBackend {
        let wrapped: InMemoryBackend
        let gate: Gate
        /// Whether reads fail, as when the server is unreachable.
        let failing = Mutex(false)

        init(_ wrapped: InMemoryBackend, gate: Gate) {
            self.wrapped = wrapped
            self.gate = gate
        }

        func read<T>(_ body: (any StorageReader) throws -> T) throws -> T {
            gate.pass()
            if failing.withLock({ $0 }) { throw RelataError(code: .storageFailed, entityType: "Store", message: "server unreachable") }
            return try wrapped.read(body)
        }

        func write<T>(_ body: (any StorageTransaction) throws -> T) throws -> T { try wrapped.write(body) }
        func hasNewCommits() throws -> Bool { false }
        func close() throws { try wrapped.close() }
    }

    @Test("More reads waiting for storage than the cooperative pool has threads: other tasks still run, and every read answers")
    func blockedReadsLeaveThePoolFree() async throws {
        let gate = Gate()
        let store = try await Store(
            backend: GatedBackend(InMemoryBackend(), gate: gate), schema: EntitySchema(User.self, Chat.self, Message.self, Attachment.self),
            followInterval: nil, cacheLimit: 0)
        try await store.write { try User(id: "u", name: "Ada").save(to: &$0) }
        gate.close()
        // Opens the gate if nothing else could (the pool blocked): the test then fails, not hangs.
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { gate.open(by: "watchdog") }
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let names = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<count {
                group.addTask {
                    index.isMultiple(of: 2)
                        ? try await store.read { $0.entity(User.self, id: "u")?.name }
                        : await store.entity(User.self, id: "u")?.name
                }
            }
            // This task runs on the cooperative pool while the reads wait for storage. (The reads'
            // tasks start on that pool too: under the whole suite's load they may take seconds.)
            let deadline = ContinuousClock.now + .seconds(30)
            while gate.waiting < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(gate.waiting >= 2, "the reads reached storage")
            gate.open(by: "test")
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(gate.openedBy == "test")
        #expect(names == Array(repeating: "Ada", count: count))
        try await store.close()
    }

    @Test("An async read in a cancelled task throws CancellationError without running its body")
    func cancelledRead() async throws {
        let store = try await Store.inMemory(entities: User.self)
        try await store.write { try User(id: "u", name: "Ada").save(to: &$0) }
        let ran = Atomic<Bool>(false)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.read { context in
                ran.store(true, ordering: .relaxed)
                return context.entity(User.self, id: "u")?.name
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        let didRun = ran.load(ordering: .relaxed)
        #expect(!didRun)
        #expect(try await store.read { $0.entity(User.self, id: "u")?.name } == "Ada")
        try await store.close()
    }

    @Test("An async read throws the read storage could not answer, as the synchronous one does")
    func asyncReadThrowsStorageFailure() async throws {
        let gate = Gate()
        let backend = GatedBackend(InMemoryBackend(), gate: gate)
        let store = try await Store(backend: backend, schema: EntitySchema(User.self), followInterval: nil, cacheLimit: 0)
        try await store.write { try User(id: "u", name: "Ada").save(to: &$0) }
        backend.failing.withLock { $0 = true }
        await #expect(throws: RelataError.self) { try await store.read { $0.entity(User.self, id: "u") } }
        #expect(throws: RelataError.self) { try store.read { $0.entity(User.self, id: "u") } }
        try await store.close()
    }
}
