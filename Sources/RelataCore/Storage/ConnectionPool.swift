import Foundation

/// The connections a backend reads on: at most ``limit`` open at once, idle ones kept for the next
/// read, callers past the limit waiting their turn (in order of arrival), and every call refused
/// once the pool is closed — as GRDB's `DatabasePool` bounds its readers
/// (`maximumReaderCount`) and postgres-nio's `PostgresClient` its connections.
///
/// **Invariant**: `open` counts the connections made and not yet disposed of (idle or lent),
/// and never exceeds `limit`; after ``close()``, idle is empty and nothing is lent anew.
///
/// A connection's owner blocks while it waits: callers are reader threads (a store's reader
/// queues, or a synchronous `Store.read`), never the cooperative pool's by the store's own doing.
package final class ConnectionPool<Connection: AnyObject>: @unchecked Sendable {
    /// The most connections open at once.
    package let limit: Int
    private let condition = NSCondition()
    /// The idle connections, oldest first: kept as `AnyObject`, so that the array's operations
    /// are not generic — this class runs unspecialized in the backends' modules, where an array
    /// of `Connection` looked its metadata up at each call (a point read on SQLite, which lends
    /// twice, took 2.5% less without it). Each is a `Connection` (see ``connection(_:)``).
    private var idle: [AnyObject] = []
    private var open = 0
    private var isClosed = false
    /// Tickets of the callers waiting, served in order.
    private var nextTicket: UInt64 = 0
    private var serving: UInt64 = 0
    private let dispose: (Connection) -> Void
    private let isUsable: (Connection) -> Bool
    private let isSettled: (Connection) -> Bool
    private let makeInBackground: (@Sendable () throws -> Connection)?
    /// How many connections in a row must be lent unsettled before one more is made.
    private let growAfter: Int
    /// How many connections in a row were lent unsettled.
    private var unsettledLends = 0
    private let closedError: () -> any Error

    /// A pool of at most `limit` connections (at least 1), closed by `dispose`; an idle one
    /// `isUsable` refuses (lost) is disposed of and replaced. Calls after ``close()`` throw
    /// `closedError()`.
    ///
    /// - Parameters:
    ///   - isSettled: Whether an idle connection is done with what it was sent when it came back
    ///     (a reader connection's next `BEGIN`). The pool lends a settled one first; with none
    ///     settled, the one that came back last (its caller waits for what is in flight).
    ///   - makeInBackground: Makes a connection on a thread of its own. When given, the
    ///     `growAfter`-th connection in a row lent unsettled, while fewer than `limit` are open,
    ///     has one more made this way for the calls after: a caller never waits for a connection
    ///     it does not need, and a long run of reads in quick succession soon finds one settled.
    ///     A short run makes none: a new connection costs its server (a PostgreSQL backend starts
    ///     with empty caches), more than a few reads gain.
    package init(
        limit: Int, dispose: @escaping (Connection) -> Void, isUsable: @escaping (Connection) -> Bool = { _ in true },
        isSettled: @escaping (Connection) -> Bool = { _ in true }, makeInBackground: (@Sendable () throws -> Connection)? = nil,
        growAfter: Int = 16, closedError: @escaping () -> any Error
    ) {
        self.limit = max(1, limit)
        self.dispose = dispose
        self.isUsable = isUsable
        self.isSettled = isSettled
        self.makeInBackground = makeInBackground
        self.growAfter = max(1, growAfter)
        self.closedError = closedError
    }

    /// Runs `body` with a connection of the pool — an idle one, or one `make` makes — waiting for
    /// one while `limit` are lent.
    ///
    /// - Throws: `closedError()` when the pool is closed (before or while waiting); what making a
    ///   connection or `body` throws.
    package func withConnection<T>(make: () throws -> Connection, _ body: (Connection) throws -> T) throws -> T {
        let lent = try acquire(make: make)
        defer { release(lent) }
        return try body(lent)
    }

    /// Runs `body`, which may ask for its connection more than once (`acquire`): the first call
    /// lends one, each later call disposes of the one lent and makes a new one in its slot (a
    /// connection found lost as the transaction began). The last one lent comes back.
    package func withReplaceableConnection<T>(
        make: () throws -> Connection, _ body: (_ acquire: () throws -> Connection) throws -> T
    ) throws -> T {
        var lent: Connection?
        var holdsSlot = false
        defer {
            if let lent {
                release(lent)
            } else if holdsSlot {
                freeSlot()
            }
        }
        func lend(_ make: () throws -> Connection) throws -> Connection {
            guard holdsSlot else {
                let connection = try acquire(make: make)
                holdsSlot = true
                lent = connection
                return connection
            }
            if let previous = lent {
                lent = nil
                dispose(previous)
            }
            let fresh = try make()
            lent = fresh
            return fresh
        }
        return try withoutActuallyEscaping(make) { make in
            try body { try lend(make) }
        }
    }

    /// Frees the slot of a connection disposed of and not replaced.
    private func freeSlot() {
        condition.lock()
        open -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Closes the idle connections and refuses every later call; connections lent are disposed of
    /// when they come back.
    package func close() {
        condition.lock()
        isClosed = true
        let idle = self.idle
        self.idle = []
        open -= idle.count
        condition.broadcast()
        condition.unlock()
        for connection in idle { dispose(Self.connection(connection)) }
    }

    /// An idle connection as what it is.
    private static func connection(_ object: AnyObject) -> Connection {
        unsafeDowncast(object, to: Connection.self)
    }

    /// How many connections are idle.
    package var idleCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return idle.count
    }

    /// How many connections are open (idle or lent; one being made in the background too).
    package var openCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return open
    }

    private func acquire(make: () throws -> Connection) throws -> Connection {
        condition.lock()
        let ticket = nextTicket
        nextTicket &+= 1
        // Wait for this caller's turn, and then for a connection or a free slot.
        while !isClosed, ticket != serving || (idle.isEmpty && open >= limit) {
            condition.wait()
        }
        if isClosed {
            condition.unlock()
            throw closedError()
        }
        serving &+= 1
        var lost: [AnyObject] = []
        var found: Connection?
        // The most recently returned settled connection, else the most recently returned (and,
        // after a run of those, while a slot is free, one more made in the background).
        // Plain index loops (see `idle`).
        var index = idle.count - 1
        var settled: Int?
        while index >= 0 {
            if !isUsable(Self.connection(idle[index])) {
                lost.append(idle.remove(at: index))
                open -= 1
                settled = settled.map { $0 - 1 }
            } else if settled == nil, isSettled(Self.connection(idle[index])) {
                settled = index
            }
            index -= 1
        }
        var grows = false
        if let index = settled {
            found = Self.connection(idle.remove(at: index))
            unsettledLends = 0
        } else if let last = idle.popLast() {
            found = Self.connection(last)
            unsettledLends += 1
            grows = makeInBackground != nil && open < limit && unsettledLends >= growAfter
            if grows {
                open += 1
                unsettledLends = 0
            }
        }
        // No usable idle one: a slot is free (the wait above, or the lost ones just dropped).
        if found == nil { open += 1 }
        condition.broadcast()
        condition.unlock()
        for connection in lost { dispose(Self.connection(connection)) }
        if grows, let makeInBackground { grow(makeInBackground) }
        if let found { return found }
        do {
            return try make()
        } catch {
            condition.lock()
            open -= 1
            condition.broadcast()
            condition.unlock()
            throw error
        }
    }

    /// Makes a connection with `make` on a thread of its own, in the slot taken for it, and adds
    /// it to the idle ones (disposed of when the pool closed meanwhile; the slot freed when making
    /// it failed).
    private func grow(_ make: @escaping @Sendable () throws -> Connection) {
        DispatchQueue.global().async { [self] in
            let made = try? make()
            condition.lock()
            let keep = made != nil && !isClosed
            if keep, let made { idle.append(made) } else { open -= 1 }
            condition.broadcast()
            condition.unlock()
            if !keep, let made { dispose(made) }
        }
    }

    private func release(_ connection: Connection) {
        condition.lock()
        let keep = !isClosed && isUsable(connection)
        if keep { idle.append(connection) } else { open -= 1 }
        condition.broadcast()
        condition.unlock()
        if !keep { dispose(connection) }
    }
}
