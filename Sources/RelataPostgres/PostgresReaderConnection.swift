import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// A connection reads run on, which rests between reads with the next read's transaction already
/// begun: when a read ends, its `COMMIT` and the next `BEGIN` are sent at once, without waiting,
/// so the next read on this connection starts with the statement that reads the log's bounds.
///
/// postgres-nio sends one statement at a time on a connection (each waits for the answer of the
/// one before), so a read that began its transaction itself paid a round trip for `BEGIN`, and
/// one for the last read's `COMMIT` when it came soon after. Sent ahead, both travel while the
/// connection is idle.
///
/// A `REPEATABLE READ` transaction takes its snapshot at its first statement that is not
/// transaction control (PostgreSQL's documentation, "Repeatable Read Isolation Level"), not at
/// `BEGIN`: a transaction begun ahead sees every commit made before the read's first statement,
/// as one begun by the read does. Until then it holds no snapshot and no lock — it keeps
/// `VACUUM` from nothing — and shows in `pg_stat_activity` as `idle in transaction`. A server
/// whose `idle_in_transaction_session_timeout` ends such a connection costs nothing but a new
/// connection: a read finding its connection closed takes another.
final class PostgresReaderConnection: Sendable {
    let connection: PostgresConnection
    /// The `BEGIN` sent ahead for the next read, if any; taken by that read.
    private let begun = Mutex<EventLoopFuture<PostgresQueryResult>?>(nil)
    /// Whether the statements sent ahead were answered (or none were sent).
    private let settled = Atomic<Bool>(true)

    init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// The statement that begins a read: `REPEATABLE READ`, `READ ONLY`.
    static let begin = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"

    /// Whether the connection can take a read without waiting for the statements sent ahead.
    var isSettled: Bool { settled.load(ordering: .acquiring) }

    /// The `BEGIN` sent ahead, for the read about to run (it waits for its answer with its first
    /// statement); `nil` when none was sent, and the read begins its transaction itself.
    func takeBegun() -> EventLoopFuture<PostgresQueryResult>? {
        begun.withLock { taken in
            defer { taken = nil }
            return taken
        }
    }

    /// Ends the read that ran on the connection (`COMMIT`, unless it was rolled back already) and
    /// begins the next one, without waiting for either.
    func rest(committing: Bool, logger: Logger) {
        guard !connection.isClosed else { return }
        settled.store(false, ordering: .releasing)
        if committing { _ = connection.query(PostgresQuery(unsafeSQL: "COMMIT"), logger: logger) }
        let next = connection.query(PostgresQuery(unsafeSQL: Self.begin), logger: logger)
        begun.withLock { $0 = next }
        next.whenComplete { _ in self.settled.store(true, ordering: .releasing) }
    }
}
