import Foundation
@_spi(Paged) import RelataCore
import Synchronization
import Testing

/// The pool a backend's reads draw connections from lends one that is done with what it was sent
/// (a PostgreSQL reader's next `BEGIN`) before one still busy, opens another rather than wait
/// while it may, and never goes past its limit.
@Suite("Soundness: the reader pool lends settled connections first")
struct ConnectionPoolTests {
    /// A stand-in connection: a number, and whether it is settled.
    final class Connection: Sendable {
        let number: Int
        let settled = Atomic<Bool>(true)

        init(_ number: Int) {
            self.number = number
        }
    }

    /// How many connections a pool made.
    final class Made: Sendable {
        let count = Mutex(0)
    }

    static func pool(limit: Int, made: Made, background: Bool = false, growAfter: Int = 1) -> (ConnectionPool<Connection>, () -> Connection) {
        let make: @Sendable () -> Connection = { made.count.withLock { $0 += 1; return Connection($0) } }
        let pool = ConnectionPool<Connection>(
            limit: limit, dispose: { _ in }, isSettled: { $0.settled.load(ordering: .relaxed) },
            makeInBackground: background ? make : nil, growAfter: growAfter, closedError: { CancellationError() })
        return (pool, make)
    }

    @Test("A settled idle connection is lent before one still busy, and before a new one")
    func settledFirst() throws {
        let made = Made()
        let (pool, make) = Self.pool(limit: 4, made: made)
        // Two connections open at once, then both idle.
        let (first, second) = try pool.withConnection(make: make) { first in
            (first, try pool.withConnection(make: make) { $0 })
        }
        #expect(made.count.withLock { $0 } == 2)
        // `first` came back last; while it is busy, `second` is lent.
        first.settled.store(false, ordering: .relaxed)
        #expect(try pool.withConnection(make: make) { $0 } === second)
        // Now `second` came back last: busy, it yields to `first`, settled again.
        first.settled.store(true, ordering: .relaxed)
        second.settled.store(false, ordering: .relaxed)
        #expect(try pool.withConnection(make: make) { $0 } === first)
        second.settled.store(true, ordering: .relaxed)
        #expect(try pool.withConnection(make: make) { $0 } === first, "both settled: the one back last")
        #expect(made.count.withLock { $0 } == 2)
    }

    @Test("With every idle connection busy: the one back last is lent, and one more is made in the background while under the limit")
    func noneSettled() async throws {
        let made = Made()
        let (pool, make) = Self.pool(limit: 2, made: made, background: true)
        let only = try pool.withConnection(make: make) { $0 }
        only.settled.store(false, ordering: .relaxed)
        #expect(try pool.withConnection(make: make) { $0 } === only, "the busy one, not a wait for a new one")
        // The one made meanwhile joins the idle ones, settled: lent next, while `only` is busy.
        #expect(pool.openCount == 2, "the slot of the one being made is taken at once")
        for _ in 0..<500 where pool.idleCount < 2 { try await Task.sleep(for: .milliseconds(2)) }
        #expect(pool.idleCount == 2)
        let grown = try pool.withConnection(make: make) { $0 }
        #expect(grown !== only && grown.number == 2)
        // At the limit, nothing more is made: both busy, the one back last is lent.
        grown.settled.store(false, ordering: .relaxed)
        #expect(try pool.withConnection(make: make) { $0 } === grown)
        try await Task.sleep(for: .milliseconds(50))
        #expect(made.count.withLock { $0 } == 2 && pool.openCount == 2)
    }

    @Test("A short run of unsettled lends makes no connection; the growAfter-th in a row makes one, and a settled lend starts the count again")
    func growsAfterARun() async throws {
        let made = Made()
        let (pool, make) = Self.pool(limit: 4, made: made, background: true, growAfter: 3)
        let only = try pool.withConnection(make: make) { $0 }
        only.settled.store(false, ordering: .relaxed)
        for _ in 0..<2 { #expect(try pool.withConnection(make: make) { $0 } === only) }
        // A settled lend in between: the run starts again.
        only.settled.store(true, ordering: .relaxed)
        #expect(try pool.withConnection(make: make) { $0 } === only)
        only.settled.store(false, ordering: .relaxed)
        for _ in 0..<2 { #expect(try pool.withConnection(make: make) { $0 } === only) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(made.count.withLock { $0 } == 1 && pool.openCount == 1, "no run of 3 yet")
        #expect(try pool.withConnection(make: make) { $0 } === only)
        for _ in 0..<500 where pool.idleCount < 2 { try await Task.sleep(for: .milliseconds(2)) }
        #expect(made.count.withLock { $0 } == 2 && pool.openCount == 2, "the third in a row made one")
    }

    @Test("Without a background maker, a pool whose idle connections are busy lends one and opens none")
    func noBackgroundMaker() throws {
        let made = Made()
        let (pool, make) = Self.pool(limit: 4, made: made)
        let only = try pool.withConnection(make: make) { $0 }
        only.settled.store(false, ordering: .relaxed)
        #expect(try pool.withConnection(make: make) { $0 } === only)
        #expect(made.count.withLock { $0 } == 1 && pool.openCount == 1)
    }

    @Test("A connection made in the background after the pool closed is disposed of, and its slot freed")
    func grownAfterClose() async throws {
        let disposed = Made()
        let gate = DispatchSemaphore(value: 0)
        let pool = ConnectionPool<Connection>(
            limit: 2, dispose: { _ in disposed.count.withLock { $0 += 1 } }, isSettled: { $0.settled.load(ordering: .relaxed) },
            makeInBackground: {
                gate.wait()
                return Connection(2)
            }, growAfter: 1, closedError: { CancellationError() })
        let only = try pool.withConnection(make: { Connection(1) }) { $0 }
        only.settled.store(false, ordering: .relaxed)
        _ = try pool.withConnection(make: { Connection(1) }) { $0 }
        #expect(pool.openCount == 2, "the slot of the one being made is taken")
        pool.close()
        gate.signal()
        for _ in 0..<500 where pool.openCount > 0 || disposed.count.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(2)) }
        #expect(pool.openCount == 0)
        #expect(disposed.count.withLock { $0 } == 2, "the idle one at close, and the one made after it")
    }
}
