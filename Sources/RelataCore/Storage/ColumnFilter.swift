import Foundation

/// One test of a property's column that storage runs for a query's predicate (`\.age > 18`,
/// `.string(\.text, contains: "hi", caseSensitive: true)`): a *prefilter*. Storage returns every row
/// that passes it and may return more — a row whose value is not in the column (a `nil`, a value
/// kept in its payload, a row written before the column existed) always passes — and the query
/// then tests each entity in Swift. A predicate is only made a filter where SQL can never drop a
/// row Swift keeps (see ``init(column:test:value:)``).
@usableFromInline
package struct ColumnFilter: Sendable, Equatable {
    /// What the column is tested for.
    @usableFromInline
    package enum Test: Sendable, Hashable {
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
        /// The text holds the value (bytewise, case-sensitive).
        case contains
        case hasPrefix
        case hasSuffix
        /// No column of the property holds a value (see ``ColumnFilter/isNull(_:)``).
        case isNull
    }

    /// The property's name (its column's, see `_relataColumnName(_:)`).
    package var column: String
    package var test: Test
    package var value: PropertyValue

    /// A filter, if storage can test it without ever dropping a row Swift would keep: integers,
    /// floating-point values, dates and `Bool`s for every comparison (not `NaN`); text for
    /// equality and the case-sensitive text tests when the value is ASCII (Swift compares
    /// strings by canonical equivalence, SQL by bytes: they agree on ASCII values); `Data` for
    /// equality; never an unsigned value above `Int64.max` (stored as text).
    package init?(column: String, test: Test, value: PropertyValue) {
        switch value {
        case .int, .bool: break
        case .double(let number): if number.isNaN { return nil }
        case .text(let text):
            guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
            switch test {
            case .equal, .notEqual, .contains, .hasPrefix, .hasSuffix, .isNull: break
            case .less, .lessOrEqual, .greater, .greaterOrEqual: return nil
            }
        case .data: if test != .equal && test != .notEqual { return nil }
        case .uint, .json: return nil
        }
        self.column = column
        self.test = test
        self.value = value
    }

    /// The filter of a `nil` value: no column of the property holds a value. Rows whose value is
    /// kept in their payload (`nil`, and the few values no column holds exactly: `NaN`, text
    /// holding NUL) pass, so it is never exact. Its ``value`` is not used.
    package static func isNull(_ column: String) -> ColumnFilter {
        ColumnFilter(column: column, test: .isNull, value: .bool(false))!
    }

    /// The name a filter or order uses for the time each entity was last saved (``Metadata``),
    /// kept in its own column (``TableCatalog/updatedAtColumn``); no property is named so.
    package static let updatedAt = "@updatedAt"

    /// The filters of `filter(.updated(within: range))`: the time, seconds since 2001, within the
    /// range's bounds.
    package static func updated(within range: ClosedRange<Date>) -> [ColumnFilter] {
        [
            ColumnFilter(column: updatedAt, test: .greaterOrEqual, value: .double(range.lowerBound.timeIntervalSinceReferenceDate)),
            ColumnFilter(column: updatedAt, test: .lessOrEqual, value: .double(range.upperBound.timeIntervalSinceReferenceDate)),
        ].compactMap { $0 }
    }

    /// The value a column holds for `value` (a scalar, a raw-value enum, an optional of them),
    /// or `nil` when it is none of these.
    package static func columnValue(_ value: Any) -> PropertyValue? {
        // A scalar first: the commonest value, found with one cast (a failed existential cast
        // looks conformances up: a tenth of an indexed query in memory).
        if let scalar = value as? any _StoredScalar { return PropertyValue(scalar._storedValue) }
        var value = value
        if let optional = value as? any _OptionalValue {
            guard let wrapped = optional._wrapped else { return nil }
            value = wrapped
        }
        if let scalar = value as? any _StoredScalar { return PropertyValue(scalar._storedValue) }
        if let enumeration = value as? any RawRepresentable, let raw = enumeration.rawValue as? any _StoredScalar {
            return PropertyValue(raw._storedValue)
        }
        return nil
    }
}

extension ColumnFilter {
    /// The SQL dialects the backends speak.
    package enum Dialect: Sendable {
        case sqlite, postgres
    }

    /// Whether SQL keeps exactly the rows Swift keeps, of those whose column holds a value: not
    /// for the text tests (SQL finds `"e"` in `"e\u{301}"`, Swift does not: `é` is one
    /// `Character`). Storage may stop after the first rows only when every filter is exact.
    @usableFromInline
    package var isExact: Bool {
        switch test {
        case .contains, .hasPrefix, .hasSuffix, .isNull: false
        default: true
        }
    }

    /// Whether an index whose first column is the filter's can find the rows passing it (a
    /// comparison, not a text test).
    package var searchesIndex: Bool {
        switch test {
        case .equal, .less, .lessOrEqual, .greater, .greaterOrEqual: true
        default: false
        }
    }

    /// The SQL condition this filter puts on `column`, its value bound as `parameter` (used once
    /// or twice); a NULL column passes (its value may be in the row's payload) — except the time
    /// an entity was saved: a row without one is never within a range (``MetadataPredicate``), so
    /// the column's index answers alone.
    package func condition(on column: String, parameter p: String, _ dialect: Dialect) -> String {
        if self.column == Self.updatedAt { return test(on: column, parameter: p, dialect) }
        return "(\(test(on: column, parameter: p, dialect)) OR \(column) IS NULL)"
    }

    /// The SQL test of this filter on `column`, its value bound as `parameter`: false for NULL.
    package func test(on column: String, parameter p: String, _ dialect: Dialect) -> String {
        let test: String
        switch (self.test, dialect) {
        case (.equal, _): test = "\(column) = \(p)"
        case (.notEqual, _): test = "\(column) <> \(p)"
        case (.less, _): test = "\(column) < \(p)"
        case (.lessOrEqual, _): test = "\(column) <= \(p)"
        case (.greater, _): test = "\(column) > \(p)"
        case (.greaterOrEqual, _): test = "\(column) >= \(p)"
        case (.contains, .sqlite): test = "instr(\(column), \(p)) > 0"
        // PostgreSQL: `LIKE` with the value's `\`, `%` and `_` escaped (its default escape is
        // `\`). The planner folds the pattern into a constant and estimates from it how many
        // rows match: a rare text is found by a scan, not by walking the id index to a page's
        // end (`strpos`, which it cannot estimate, walked all 100,000 messages of W3's Q6 in
        // id order: 32 ms, against 9 ms).
        case (.contains, .postgres): test = "\(column) LIKE '%' || \(Self.likeEscaped(p)) || '%'"
        case (.hasPrefix, .sqlite): test = "substr(\(column), 1, length(\(p))) = \(p)"
        case (.hasPrefix, .postgres): test = "\(column) LIKE \(Self.likeEscaped(p)) || '%'"
        case (.hasSuffix, .sqlite): test = "substr(\(column), -length(\(p))) = \(p)"
        case (.hasSuffix, .postgres): test = "\(column) LIKE '%' || \(Self.likeEscaped(p))"
        case (.isNull, _): test = "\(column) IS NULL"
        }
        return test
    }

    /// PostgreSQL's text `parameter` with `LIKE`'s escape character and wildcards escaped: it
    /// matches itself only.
    static func likeEscaped(_ parameter: String) -> String {
        #"pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(\#(parameter), '\', '\\'), '%', '\%'), '_', '\_')"#
    }
}
