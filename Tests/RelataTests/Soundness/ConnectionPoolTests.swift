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

    static func pool(limit: Int, made: Made) -> (ConnectionPool<Connection>, () -> Connection) {
        let pool = ConnectionPool<Connection>(
            limit: limit, dispose: { _ in }, isSettled: { $0.settled.load(ordering: .relaxed) },
            closedError: { CancellationError() })
        return (pool, { made.count.withLock { $0 += 1; return Connection($0) } })
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

    @Test("With every idle connection busy: a new one while under the limit, else the one back last")
    func noneSettled() throws {
        let made = Made()
        let (pool, make) = Self.pool(limit: 2, made: made)
        let only = try pool.withConnection(make: make) { $0 }
        only.settled.store(false, ordering: .relaxed)
        let fresh = try pool.withConnection(make: make) { $0 }
        #expect(fresh !== only && made.count.withLock { $0 } == 2, "under the limit: a new connection")
        fresh.settled.store(false, ordering: .relaxed)
        let lent = try pool.withConnection(make: make) { $0 }
        #expect(lent === fresh, "at the limit: the busy one back last")
        #expect(made.count.withLock { $0 } == 2)
        #expect(pool.openCount == 2)
    }
}
