import Foundation

/// One key of a query's sort that storage can order rows by (`sorted(by: \.sentAt.desc)`): a
/// property holding numbers, dates or text. SQL orders numbers and dates as Swift does; text
/// only where it is ASCII — Swift orders strings by canonical equivalence (`"é"` and
/// `"e\u{301}"` are equal), SQL by bytes (the text columns compare bytewise, PostgreSQL's
/// `COLLATE "C"`), which agree on ASCII — so storage orders the rows whose text is ASCII and
/// sends every other row for Swift to order.
@usableFromInline
package struct ColumnOrder: Sendable, Hashable {
    /// The property's name (its column's, see `_relataColumnName(_:)`).
    @usableFromInline package var column: String
    @usableFromInline package var descending: Bool

    package init(column: String, descending: Bool) {
        self.column = column
        self.descending = descending
    }

    /// Whether storage can order values of `type` as Swift does: integers, floating point,
    /// `Date`, `String` (`NaN`, unsigned values above `Int64.max` and text holding NUL are not in
    /// the ordered column: they come with the rows whose column is NULL, which a storage's first
    /// rows always include, as the rows holding text that is not ASCII do).
    package static func orders(_ type: Any.Type) -> Bool {
        type is any BinaryInteger.Type || type is any BinaryFloatingPoint.Type || type == Date.self || type == String.self
    }

    /// The SQL condition that `column`'s text is ASCII: on SQLite, the function `relata_ascii`
    /// that each connection of a `SQLiteBackend` has (a test of the bytes, in C); on PostgreSQL,
    /// as many bytes as characters.
    package static func isASCII(_ column: String, _ dialect: ColumnFilter.Dialect) -> String {
        switch dialect {
        case .sqlite: "relata_ascii(\(column))"
        case .postgres: "pg_catalog.octet_length(\(column)) = pg_catalog.char_length(\(column))"
        }
    }
}

/// `Descending`, seen through `Any`: the type of the value it reverses.
package protocol _DescendingValue {
    static var _valueType: Any.Type { get }
    /// The value it reverses.
    var _value: Any { get }
}

extension Descending: _DescendingValue {
    package static var _valueType: Any.Type { T.self }
    package var _value: Any { value }
}

/// Whether `keyPath` names the property at `base`, or `base.desc` when its values can be
/// reversed; the macro's generated `_relataColumnName(_:)` asks it for each property (one
/// function with two overloads type-checks far faster than `==` on key path literals).
@_documentation(visibility: private)
public func _relataNames<Root, Value: Comparable & Sendable>(_ keyPath: PartialKeyPath<Root>, _ base: KeyPath<Root, Value>) -> Bool {
    if keyPath == base { return true }
    // Only a key path to a `Descending<Value>` can be `base.desc`: the appended key path (made at
    // run time, its generic arguments resolved) is built for that one only.
    guard type(of: keyPath).valueType == Descending<Value>.self else { return false }
    return keyPath == base.appending(path: \Value.desc)
}

/// Whether `keyPath` names the property at `base` (whose values cannot be reversed).
@_documentation(visibility: private)
public func _relataNames<Root, Value>(_ keyPath: PartialKeyPath<Root>, _ base: KeyPath<Root, Value>) -> Bool {
    keyPath == base
}
