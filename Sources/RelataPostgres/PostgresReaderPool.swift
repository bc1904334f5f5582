import PostgresNIO
import Synchronization

/// Connections a ``PostgresBackend`` reads on, beside its connection for writes: a read runs its
/// `REPEATABLE READ` transaction on one of them, so it never waits for a write in progress (nor
/// for another read), and never begins inside the write's transaction.
///
/// A read takes an idle connection or opens one; at most ``idleLimit`` are kept open between
/// reads. A connection found closed is dropped.
final class PostgresReaderPool: Sendable {
    private let idle = Mutex<[PostgresConnection]>([])
    private let isClosed = Mutex(false)
    /// How many idle connections are kept.
    let idleLimit = 4

    /// Runs `body`, which gets a connection from `acquire` (an idle one, else a new one opened by
    /// `open`; called again for a new one when the first was found lost). The last connection
    /// acquired goes back to the pool.
    func read<T>(open: @escaping () throws -> PostgresConnection, _ body: (_ acquire: () throws -> PostgresConnection) throws -> T) throws -> T {
        var used: PostgresConnection?
        defer {
            if let used {
                let kept = idle.withLock { idle in
                    guard !used.isClosed, idle.count < idleLimit, !isClosed.withLock({ $0 }) else { return false }
                    idle.append(used)
                    return true
                }
                if !kept { Closing.close(used) }
            }
        }
        return try body {
            if let used { Closing.close(used) }
            var connection = idle.withLock { $0.popLast() }
            while let found = connection, found.isClosed { connection = idle.withLock { $0.popLast() } }
            let chosen = try connection ?? open()
            used = chosen
            return chosen
        }
    }

    /// Closes the idle connections; connections in use close when their read ends.
    func close() {
        isClosed.withLock { $0 = true }
        for connection in idle.withLock({ idle in defer { idle = [] }; return idle }) where !connection.isClosed {
            Closing.close(connection)
        }
    }
}
