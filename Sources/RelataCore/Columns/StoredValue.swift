import Foundation

/// One stored property's value as storage keeps it: what the code `@EntityModel` generates
/// writes for each column and reads back (see `_ColumnWriter` and `_ColumnReader`).
///
/// Integers, floating point, `Bool`, `String`, `Date`, `UUID`, `Data`, `URL` and raw-value enums
/// are stored as the scalar they are; any other `Codable` value is stored whole.
@_documentation(visibility: private)
public enum StoredValue: Sendable, Hashable {
    /// A `Bool`.
    case bool(Bool)
    /// A signed integer (every integer type whose value fits in `Int64`).
    case int(Int64)
    /// An unsigned integer above `Int64.max`.
    case uint(UInt64)
    /// A `Double`, `Float` or `Date` (seconds since 2001-01-01, as `Date` counts them).
    case double(Double)
    /// A `String`, `UUID` (its `uuidString`) or `URL` (its `absoluteString`).
    case text(String)
    /// `Data`.
    case data(Data)

    /// The kind of value, as an error names it.
    var kind: String {
        switch self {
        case .bool: "a Bool"
        case .int, .uint: "an integer"
        case .double: "a floating-point number"
        case .text: "text"
        case .data: "data"
        }
    }
}
