import GRDB
import GRDBSQLite

/// `relata_ascii(x)`: 1 when `x` is text whose bytes are all ASCII, else 0 (NULL for NULL) — the
/// test a sorted page makes of every row's text keys (`ColumnOrder.isASCII`), registered on each
/// connection a backend opens.
///
/// A C function over the text's bytes, eight at a time: SQL's own form of the test,
/// `length(CAST(x AS BLOB)) = length(x)`, counts the text's characters and was a sixth of W3's
/// Q4 at S=10 (two text keys over 1,668 rows). Deterministic and innocuous: it reads its
/// argument only. It is used in queries only, never in the schema, so `sqlite3` reads every file
/// without it.
enum SQLiteASCIIFunction {
    static let name = "relata_ascii"

    /// Registers the function on `db`.
    static func install(on db: Database) throws {
        let code = sqlite3_create_function_v2(
            db.sqliteConnection, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil,
            { context, _, arguments in
                guard let value = arguments?[0] else { return sqlite3_result_null(context) }
                switch sqlite3_value_type(value) {
                case SQLITE_NULL: sqlite3_result_null(context)
                case SQLITE_TEXT:
                    let count = Int(sqlite3_value_bytes(value))
                    guard count > 0, let bytes = sqlite3_value_text(value) else { return sqlite3_result_int(context, 1) }
                    sqlite3_result_int(context, SQLiteASCIIFunction.isASCII(UnsafeRawPointer(bytes), count) ? 1 : 0)
                default: sqlite3_result_int(context, 0)
                }
            },
            nil, nil, nil
        )
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot register \(name)") }
    }

    /// Whether the `count` bytes at `bytes` are all below 0x80.
    static func isASCII(_ bytes: UnsafeRawPointer, _ count: Int) -> Bool {
        var index = 0
        var high: UInt64 = 0
        while index + 8 <= count {
            high |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < count {
            high |= UInt64(bytes.load(fromByteOffset: index, as: UInt8.self))
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}
