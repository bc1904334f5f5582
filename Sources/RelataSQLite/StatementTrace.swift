import GRDB
import GRDBSQLite
import RelataCore

/// Counts the statements a connection runs into a ``StatementTally``, through SQLite's trace hook
/// directly: GRDB's `Database.trace` makes a string of each statement's SQL, which would cost
/// every statement of every store. Statements SQLite runs for another (FTS5's reads of its own
/// tables, triggers) come with SQL starting `--`: they are not counted, nor the commit token's
/// `PRAGMA data_version`, marked the same way (``ReaderConnection``).
package enum StatementTrace {
    /// Counts `db`'s statements into `tally` from now on, for the life of the connection (which
    /// keeps `tally`).
    package static func install(_ tally: StatementTally, on db: Database) {
        // Retained once per connection and never released: a connection's trace hook may run
        // until it closes, and a tally is a counter.
        let context = Unmanaged.passRetained(tally).toOpaque()
        sqlite3_trace_v2(db.sqliteConnection, CUnsignedInt(SQLITE_TRACE_STMT), { _, context, _, sql in
            let text = sql?.assumingMemoryBound(to: UInt8.self)
            if let text, text[0] == UInt8(ascii: "-"), text[1] == UInt8(ascii: "-") { return 0 }
            Unmanaged<StatementTally>.fromOpaque(context!).takeUnretainedValue().add()
            return 0
        }, context)
    }
}
