import Foundation
import GRDB
import GRDBSQLite

/// The values bound to a statement ``SQLiteTransaction`` steps (see `SQLiteTransaction.each`),
/// in the order of its parameters (`?1`, `?2`…), bound through SQLite's C API.
///
/// GRDB's `StatementArguments` maps its values through a generic its module does not
/// specialize for the caller's, then binds them again one by one: a twentieth of a read of a
/// page by value (W3's Q2).
struct StatementValues: ExpressibleByArrayLiteral {
    private(set) var values: [DatabaseValue]

    init(_ values: [(any DatabaseValueConvertible)?]) {
        self.values = values.map { $0?.databaseValue ?? .null }
    }

    init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        self.init(elements)
    }

    /// Binds the values to `statement`'s parameters, from the first, after clearing the bindings
    /// of its last run.
    ///
    /// - Throws: `DatabaseError` with SQLite's code and message.
    func bind(to statement: Statement, in db: Database) throws {
        let handle = statement.sqliteStatement
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = CInt(offset + 1)
            let code: CInt
            switch value.storage {
            case .null: code = sqlite3_bind_null(handle, index)
            case .int64(let number): code = sqlite3_bind_int64(handle, index, number)
            case .double(let number): code = sqlite3_bind_double(handle, index, number)
            case .string(let text):
                var text = text
                code = text.withUTF8 { bytes in sqlite3_bind_text(handle, index, bytes.baseAddress, CInt(bytes.count), sqliteTransient) }
            case .blob(let data):
                code = data.withUnsafeBytes { bytes in
                    // An empty blob has no base address, and a null pointer would bind NULL.
                    bytes.isEmpty
                        ? sqlite3_bind_zeroblob(handle, index, 0)
                        : sqlite3_bind_blob(handle, index, bytes.baseAddress, CInt(bytes.count), sqliteTransient)
                }
            }
            guard code == SQLITE_OK else { throw DatabaseError(sqliteCode: code, on: db, sql: statement.sql) }
        }
    }
}
