import GRDB
import Synchronization

/// Connections a ``SQLiteBackend`` reads on, beside its writer connection: with WAL, a read on
/// one of them sees the last commit and never waits for a write in progress (GRDB's
/// `DatabasePool` gives the same, but writes to the file when it opens — which a store refused at
/// open must not do).
///
/// A read takes an idle connection or opens one; at most ``idleLimit`` are kept open between
/// reads. Each is a read-write connection used only for reads (it sets `query_only`), so that the
/// last connection to close, whichever it is, may checkpoint and remove the -wal and -shm files.
final class SQLiteReaderPool: Sendable {
    private let path: String
    private let configuration: Configuration
    private let idle = Mutex<[DatabaseQueue]>([])
    private let isClosed = Mutex(false)
    /// How many idle connections are kept.
    let idleLimit = 4

    init(path: String, configuration: Configuration) {
        var configuration = configuration
        configuration.journalMode = .default
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
        self.path = path
        self.configuration = configuration
    }

    /// Runs `body` on a reader connection.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        guard !isClosed.withLock({ $0 }) else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "Connection is closed") }
        let connection = try idle.withLock { $0.popLast() } ?? DatabaseQueue(path: path, configuration: configuration)
        defer {
            let kept = idle.withLock { idle in
                guard idle.count < idleLimit, !isClosed.withLock({ $0 }) else { return false }
                idle.append(connection)
                return true
            }
            if !kept { try? connection.close() }
        }
        return try connection.inDatabase(body)
    }

    /// Closes the idle connections; later reads fail (one in progress closes its connection when done).
    func close() {
        isClosed.withLock { $0 = true }
        for connection in idle.withLock({ idle in defer { idle = [] }; return idle }) { try? connection.close() }
    }
}
