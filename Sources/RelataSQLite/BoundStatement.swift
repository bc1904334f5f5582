import Foundation
import GRDB
import GRDBSQLite

/// Runs a prepared GRDB statement many times with arguments bound straight through the SQLite C
/// API: the persist path writes hundreds of thousands of rows, and GRDB's `StatementArguments`
/// (an array of existentials per row) cost more than SQLite's own insert.
struct BoundStatement {
    let statement: Statement
    let db: Database

    init(_ db: Database, sql: String) throws {
        self.db = db
        statement = try db.cachedStatement(sql: sql)
    }

    /// Binds `values` (text, blob or NULL) to the parameters in order, runs the statement once,
    /// and resets it.
    ///
    /// - Throws: `DatabaseError` with SQLite's code and message.
    func run(_ values: Value...) throws {
        let handle = statement.sqliteStatement
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32 =
                switch value {
                case .text(let text): sqlite3_bind_text(handle, index, text, -1, transient)
                case .blob(let data):
                    data.withUnsafeBytes { bytes in
                        sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), transient)
                    }
                case .null: sqlite3_bind_null(handle, index)
                }
            guard code == SQLITE_OK else { throw error(code) }
        }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else { throw error(code) }
    }

    enum Value {
        case text(String)
        case blob(Data)
        case null

        static func optional(_ text: String?) -> Value { text.map(Value.text) ?? .null }
    }

    private func error(_ code: Int32) -> DatabaseError {
        let message = sqlite3_errmsg(db.sqliteConnection).map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
    }
}

/// SQLite copies the bound bytes before the call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
