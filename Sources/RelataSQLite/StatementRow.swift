import GRDB
import GRDBSQLite

/// The current row of a statement ``SQLiteTransaction`` steps through (see
/// `SQLiteTransaction.each`), its columns read straight from SQLite with GRDB's own column
/// conversions (`StatementColumnConvertible`), as GRDB's statement-backed `Row` reads them.
///
/// GRDB's `Row.fetchCursor` reads the name of every column into a new dictionary and checks the
/// arguments against the statement each time a statement runs: for a read of one row by an
/// indexed column, that was a fifth of the read (W3's Q1). The statements stepped here are the
/// package's own, their arguments numbered to match.
struct StatementRow {
    let handle: SQLiteStatement

    /// How many columns the row has (as SQLite prepared the statement last).
    var count: Int { Int(sqlite3_column_count(handle)) }

    /// Whether column `index` is NULL.
    func hasNull(atIndex index: Int) -> Bool {
        sqlite3_column_type(handle, CInt(index)) == SQLITE_NULL
    }

    /// The value of column `index`, converted as GRDB's `Row.decode(_:atIndex:)` converts it.
    ///
    /// - Throws: ``Mismatch`` for NULL or a value `Value` cannot hold.
    func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, atIndex index: Int) throws -> Value {
        guard let value = Value.fromStatement(handle, atUncheckedIndex: CInt(index)) else { throw Mismatch(index: index) }
        return value
    }

    /// The integer in column `index`, or `nil` for NULL.
    subscript(index: Int) -> Int64? {
        hasNull(atIndex: index) ? nil : sqlite3_column_int64(handle, CInt(index))
    }

    /// The text in column `index`, or `nil` for NULL.
    subscript(index: Int) -> String? {
        hasNull(atIndex: index) ? nil : String(sqliteStatement: handle, index: CInt(index))
    }

    /// A column that is NULL or holds a value of another type.
    struct Mismatch: Error {
        let index: Int
    }
}
