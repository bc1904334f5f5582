import GRDB
import GRDBSQLite

extension DatabaseError {
    /// The failure SQLite reported with `code` on `db`'s connection, with its message, for
    /// `sql`: what the statements stepped and bound through SQLite's C API throw, as GRDB's own
    /// would.
    init(sqliteCode code: CInt, on db: Database, sql: String) {
        let message = sqlite3_errmsg(db.sqliteConnection).map { String(cString: $0) }
        self.init(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
    }
}
