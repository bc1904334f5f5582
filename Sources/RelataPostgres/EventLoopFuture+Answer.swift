import Dispatch
import NIOCore
import PostgresNIO
import Synchronization

extension EventLoopFuture where Value: Sendable {
    /// Blocks the calling thread (a store's writer queue, never Swift's cooperative pool) until
    /// the future completes — or, when `connection` was closed and still no answer came a second
    /// later, throws ``PostgresConnectionLost``: when the server ends a session (a restart,
    /// `pg_terminate_backend`) the driver can leave a query's answer pending for ever.
    func answer(from connection: PostgresConnection) throws -> Value {
        try answer(giveUp: { connection.isClosed }, after: .seconds(1))
    }

    /// Waits at most `limit` (closing a connection), then throws ``PostgresConnectionLost``.
    func answer(within limit: Duration) throws -> Value {
        try answer(giveUp: { true }, after: limit)
    }

    private func answer(giveUp: () -> Bool, after grace: Duration) throws -> Value {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<Value, any Error>?>(nil)
        whenComplete { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        var since: ContinuousClock.Instant?
        while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            guard giveUp() else { continue }
            let now = ContinuousClock.now
            if let since, now - since >= grace { throw PostgresConnectionLost() }
            if since == nil { since = now }
        }
        return try outcome.withLock { $0! }.get()
    }
}

/// The connection closed and its answer never came (see ``EventLoopFuture/answer(from:)``).
struct PostgresConnectionLost: Error {}
