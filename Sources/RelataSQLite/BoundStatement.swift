import Foundation
import GRDB
import GRDBSQLite
import RelataCore

/// Runs a prepared GRDB statement many times with arguments bound straight through the SQLite C
/// API: the persist path writes hundreds of thousands of rows, and GRDB's `StatementArguments`
/// (an array of existentials per row) cost more than SQLite's own insert.
struct BoundStatement {
    let statement: Statement
    let db: Database

    init(_ db: Database, sql: String) throws {
        self.db = db
        statement = try db.cachedStatement(sql: sql)
        // GRDB leaves a statement it ran unreset until its next use: binding to it would fail.
        sqlite3_reset(statement.sqliteStatement)
    }

    /// Binds `texts` to the parameters in order, runs the statement once, and resets it.
    ///
    /// - Throws: `DatabaseError` with SQLite's code and message.
    func run(_ texts: String...) throws {
        for (offset, text) in texts.enumerated() { try bind(Int32(offset + 1), text) }
        try step()
    }

    /// Binds `text` to the parameter at `index` (from 1).
    @inline(__always)
    func bind(_ index: Int32, _ text: String) throws {
        var text = text
        let code = text.withUTF8 { bytes in
            sqlite3_bind_text(statement.sqliteStatement, index, bytes.baseAddress, Int32(bytes.count), sqliteTransient)
        }
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Binds `value` to the parameter at `index` (from 1).
    @inline(__always)
    func bind(_ index: Int32, _ value: Int64) throws {
        let code = sqlite3_bind_int64(statement.sqliteStatement, index, value)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Binds `text`, or NULL when it is `nil`, to the parameter at `index` (from 1).
    @inline(__always)
    func bind(_ index: Int32, _ text: String?) throws {
        if let text { try bind(index, text) } else { try bindNull(index) }
    }

    /// Binds `data` to the parameter at `index` (from 1).
    @inline(__always)
    func bind(_ index: Int32, _ data: Data) throws {
        let code = data.withUnsafeBytes { bytes in
            // An empty blob has no base address, and a null pointer would bind NULL.
            bytes.isEmpty
                ? sqlite3_bind_zeroblob(statement.sqliteStatement, index, 0)
                : sqlite3_bind_blob(statement.sqliteStatement, index, bytes.baseAddress, Int32(bytes.count), sqliteTransient)
        }
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Binds `data`, or NULL when it is `nil`, to the parameter at `index` (from 1).
    @inline(__always)
    func bind(_ index: Int32, _ data: Data?) throws {
        if let data { try bind(index, data) } else { try bindNull(index) }
    }

    /// Binds a property column's `value` (see ``SQLiteSchema/declaredType(_:)``), or NULL when it
    /// is `nil`, to the parameter at `index` (from 1).
    func bind(_ index: Int32, _ value: PropertyValue?) throws {
        let handle = statement.sqliteStatement
        let code: Int32
        switch value {
        case nil: code = sqlite3_bind_null(handle, index)
        case .bool(let value): code = sqlite3_bind_int64(handle, index, value ? 1 : 0)
        case .int(let value): code = sqlite3_bind_int64(handle, index, value)
        case .uint(let value): return try bind(index, String(value))
        case .double(let value): code = sqlite3_bind_double(handle, index, value)
        case .text(let text), .json(let text): return try bind(index, text)
        case .data(let data): return try bind(index, data)
        }
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Binds NULL to the parameter at `index` (from 1).
    func bindNull(_ index: Int32) throws {
        let code = sqlite3_bind_null(statement.sqliteStatement, index)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Runs the statement once with the values bound, then resets it and clears the bindings.
    ///
    /// - Throws: `DatabaseError` with SQLite's code and message.
    func step() throws {
        let handle = statement.sqliteStatement
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else { throw error(code) }
    }

    /// Binds `texts` to the parameters in order, runs the statement to its last row, resets it,
    /// and returns the sum of the integers in the first column of its rows (a `RETURNING` clause's).
    ///
    /// - Throws: `DatabaseError` with SQLite's code and message.
    func sum(_ texts: String...) throws -> Int64 {
        for (offset, text) in texts.enumerated() { try bind(Int32(offset + 1), text) }
        let handle = statement.sqliteStatement
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        var sum: Int64 = 0
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_ROW: sum &+= sqlite3_column_int64(handle, 0)
            case SQLITE_DONE: return sum
            case let code: throw error(code)
            }
        }
    }

    /// Runs the statement, which gives at most one row, and reads the integer at each of
    /// `columns` of that row (`nil` for NULL, or when there is no row); then resets it.
    ///
    /// - Throws: `DatabaseError` with SQLite's code and message.
    func integers(_ columns: Int32...) throws -> [Int64?] {
        let handle = statement.sqliteStatement
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            return columns.map { sqlite3_column_type(handle, $0) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, $0) }
        case SQLITE_DONE:
            return columns.map { _ in nil }
        case let code:
            throw error(code)
        }
    }

    private func error(_ code: Int32) -> DatabaseError {
        DatabaseError(sqliteCode: code, on: db, sql: statement.sql)
    }
}

/// Tells SQLite to copy the bound bytes before the call returns.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
