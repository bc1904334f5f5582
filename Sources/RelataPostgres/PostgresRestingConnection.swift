import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// A connection of the backend that rests between transactions with the next one already begun:
/// when a transaction ends, its `COMMIT` (for a read, whose end answers nothing it needs) and the
/// next `BEGIN` are sent at once, without waiting, so the next transaction on this connection
/// starts with its first statement. Reader connections begin `REPEATABLE READ READ ONLY`
/// transactions (``readBegin``); the connection for writes, plain `BEGIN` (`READ COMMITTED`).
///
/// postgres-nio sends one statement at a time on a connection (each waits for the answer of the
/// one before), so a transaction that began itself paid a round trip for `BEGIN`, and a read one
/// for the last read's `COMMIT` when it came soon after. Sent ahead, both travel while the
/// connection is idle.
///
/// A `REPEATABLE READ` transaction takes its snapshot at its first statement that is not
/// transaction control (PostgreSQL's documentation, "Repeatable Read Isolation Level"), not at
/// `BEGIN`, and a `READ COMMITTED` one a snapshot per statement: a transaction begun ahead sees
/// every commit made before its first statement, as one begun then does. Until then it holds no
/// snapshot and no lock — it keeps `VACUUM` from nothing — and shows in `pg_stat_activity` as
/// `idle in transaction`. A server whose `idle_in_transaction_session_timeout` ends such a
/// connection costs nothing but a new connection: a transaction finding its connection closed
/// takes another.
final class PostgresRestingConnection: Sendable {
    let connection: PostgresConnection
    /// The statement that begins its transactions.
    let begin: String
    /// The `BEGIN` sent ahead for the next transaction, if any; taken by that transaction.
    private let begun = Mutex<EventLoopFuture<PostgresQueryResult>?>(nil)
    /// Whether the statements sent ahead were answered (or none were sent).
    private let settled = Atomic<Bool>(true)

    /// `connection`, whose transactions begin with `begin`.
    init(_ connection: PostgresConnection, begin: String) {
        self.connection = connection
        self.begin = begin
    }

    /// The statement that begins a read: `REPEATABLE READ`, `READ ONLY`.
    static let readBegin = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"

    /// Whether the connection can take a transaction without waiting for the statements sent ahead.
    var isSettled: Bool { settled.load(ordering: .acquiring) }

    /// The `BEGIN` sent ahead, for the transaction about to run (it waits for its answer with its
    /// first statement); `nil` when none was sent, and the transaction sends ``begin`` itself.
    func takeBegun() -> EventLoopFuture<PostgresQueryResult>? {
        begun.withLock { taken in
            defer { taken = nil }
            return taken
        }
    }

    /// Begins the next transaction without waiting — after the `COMMIT` of the one that ran,
    /// when `committing` (a read's); else that one was committed or rolled back already.
    func rest(committing: Bool, logger: Logger) {
        guard !connection.isClosed else { return }
        settled.store(false, ordering: .releasing)
        if committing { _ = connection.query(PostgresQuery(unsafeSQL: "COMMIT"), logger: logger) }
        let next = connection.query(PostgresQuery(unsafeSQL: begin), logger: logger)
        begun.withLock { $0 = next }
        next.whenComplete { _ in self.settled.store(true, ordering: .releasing) }
    }
}
