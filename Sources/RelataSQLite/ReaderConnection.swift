import GRDB
import Synchronization

/// One connection of ``SQLiteBackend``'s readers, numbered so that its `PRAGMA data_version`
/// makes a commit token (see ``commitToken(_:)``).
///
/// `data_version` is a number of each connection's own — it changes when another connection
/// commits — so two numbers compare only when one connection read both; the token carries the
/// connection's number, never given to another connection of the process.
final class ReaderConnection: Sendable {
    let queue: DatabaseQueue
    /// This connection's number, unique in the process.
    let number: Int64

    private static let numbers = Atomic<Int64>(0)

    init(_ queue: DatabaseQueue) {
        self.queue = queue
        number = Self.numbers.add(1, ordering: .relaxed).newValue
    }

    /// The commit token of `db`, this connection's database: its number with its `PRAGMA
    /// data_version`. In a transaction, as of the transaction's state (the pragma starts it);
    /// outside, as of now.
    func commitToken(_ db: Database) throws -> Int64 {
        // Marked as bookkeeping: not counted in the backend's statements (`StatementTrace`).
        let version = try BoundStatement(db, sql: "-- commit token\nPRAGMA data_version").integers(0)[0] ?? 0
        // data_version is a 32-bit counter; the connection's number above it.
        return number << 32 | (version & 0xFFFF_FFFF)
    }
}
