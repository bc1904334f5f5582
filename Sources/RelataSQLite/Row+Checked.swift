import Foundation
import GRDB
import RelataCore

/// Reading the columns of a stored row without trusting the file: GRDB's `row[i]` stops the
/// process on a NULL or a value it cannot convert, and a crafted or damaged file may hold either.
/// Each read here throws `RelataError.Code.corruptedStore` instead, naming the table, the row and
/// the column.
struct CheckedRow<Columns: RowColumns> {
    let row: Columns
    /// The table, and which of its rows this is (its key, or its place in the scan).
    let place: () -> String
    let path: String

    /// The text in column `index` (named `column`).
    func text(_ index: Int, _ column: String) throws -> String {
        do {
            return try row.decode(String.self, atIndex: index)
        } catch {
            throw damaged(column)
        }
    }

    /// The text in column `index`, or `nil` for NULL.
    func optionalText(_ index: Int, _ column: String) throws -> String? {
        if row.hasNull(atIndex: index) { return nil }
        return try text(index, column)
    }

    /// The integer in column `index`.
    func integer(_ index: Int, _ column: String) throws -> Int {
        do {
            return try row.decode(Int.self, atIndex: index)
        } catch {
            throw damaged(column)
        }
    }

    /// The floating-point number in column `index`, or `nil` for NULL.
    func optionalReal(_ index: Int, _ column: String) throws -> Double? {
        if row.hasNull(atIndex: index) { return nil }
        do {
            return try row.decode(Double.self, atIndex: index)
        } catch {
            throw damaged(column)
        }
    }

    /// The bytes in column `index` (a BLOB, or TEXT as its UTF-8).
    func data(_ index: Int, _ column: String) throws -> Data {
        do {
            return try row.decode(Data.self, atIndex: index)
        } catch {
            throw damaged(column)
        }
    }

    /// The bytes in column `index`, or `nil` for NULL.
    func optionalData(_ index: Int, _ column: String) throws -> Data? {
        if row.hasNull(atIndex: index) { return nil }
        return try data(index, column)
    }

    /// The value of property column `index` (named `column`) holding values of `kind`, or
    /// `nil` for NULL.
    func property(_ index: Int, _ column: @autoclosure () -> String, _ kind: PropertyColumnKind) throws -> PropertyValue? {
        if row.hasNull(atIndex: index) { return nil }
        do {
            switch kind {
            case .bool: return .bool(try row.decode(Int64.self, atIndex: index) != 0)
            case .integer: return .int(try row.decode(Int64.self, atIndex: index))
            case .unsigned:
                guard let value = UInt64(try row.decode(String.self, atIndex: index)) else { throw damaged(column()) }
                return .uint(value)
            case .real: return .double(try row.decode(Double.self, atIndex: index))
            case .text: return .text(try row.decode(String.self, atIndex: index))
            case .data: return .data(try row.decode(Data.self, atIndex: index))
            case .json: return .json(try row.decode(String.self, atIndex: index))
            }
        } catch {
            throw damaged(column())
        }
    }

    private func damaged(_ column: String) -> RelataError {
        RelataError(
            code: .corruptedStore, entityType: "Store",
            message: "\(path) is damaged: \(place()) has no valid \(column) (NULL, or a value of another type)"
        )
    }
}

/// The columns of a row ``CheckedRow`` reads: a row stepped by the package
/// (``StatementRow``), or GRDB's `Row` (the schema's own tables, read once at open).
protocol RowColumns {
    /// Whether column `index` is NULL.
    func hasNull(atIndex index: Int) -> Bool
    /// The value of column `index`; throws for NULL or a value `Value` cannot hold.
    func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, atIndex index: Int) throws -> Value
}

extension Row: RowColumns {}
extension StatementRow: RowColumns {}
