/// A comparison of one property with a value: `\.age > 18`, `\.name == "Ann"`. Made by the key
/// path operators below and passed to a query list's `filter(_:)` or `and(_:)`, as in
/// SwiftletModel.
///
/// ```swift
/// let adults = User.query(in: context).filter(\.age >= 18).resolve()
/// ```
public struct Predicate<Entity, Value: Comparable & Sendable> {
    let keyPath: KeyPath<Entity, Value>
    let method: Method
    let value: Value

    /// Whether `entity` satisfies the comparison.
    public func isIncluded(_ entity: Entity) -> Bool {
        let property = entity[keyPath: keyPath]
        switch method {
        case .equal: return property == value
        case .notEqual: return property != value
        case .lessThan: return property < value
        case .lessThanOrEqual: return property <= value
        case .greaterThan: return property > value
        case .greaterThanOrEqual: return property >= value
        }
    }

    enum Method {
        case equal, notEqual, lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual
    }
}

extension KeyPath where Value: Comparable & Sendable {
    /// The entities whose property equals `rhs`.
    public static func == (lhs: KeyPath<Root, Value>, rhs: Value) -> Predicate<Root, Value> {
        Predicate(keyPath: lhs, method: .equal, value: rhs)
    }

    /// The entities whose property differs from `rhs`.
    public static func != (lhs: KeyPath<Root, Value>, rhs: Value) -> Predicate<Root, Value> {
        Predicate(keyPath: lhs, method: .notEqual, value: rhs)
    }

    /// The entities whose property is less than `rhs`.
    public static func < (lhs: KeyPath<Root, Value>, rhs: Value) -> Predicate<Root, Value> {
        Predicate(keyPath: lhs, method: .lessThan, value: rhs)
    }

    /// The entities whose property is at most `rhs`.
    public static func <= (lhs: KeyPath<Root, Value>, rhs: Value) -> Predicate<Root, Value> {
        Predicate(keyPath: lhs, method: .lessThanOrEqual, value: rhs)
    }

    /// The entities whose property is greater than `rhs`.
    public static func > (lhs: KeyPath<Root, Value>, rhs: Value) -> Predicate<Root, Value> {
        Predicate(keyPath: lhs, method: .greaterThan, value: rhs)
    }

    /// The entities whose property is at least `rhs`.
    public static func >= (lhs: KeyPath<Root, Value>, rhs: Value) -> Predicate<Root, Value> {
        Predicate(keyPath: lhs, method: .greaterThanOrEqual, value: rhs)
    }
}

extension Predicate where Entity: EntityModelProtocol {
    /// The test storage can run for this predicate, if it can (see ``ColumnFilter``).
    @usableFromInline
    func columnFilter(of _: Entity.Type) -> ColumnFilter? {
        guard let column = Entity.columnName(of: keyPath), let stored = ColumnFilter.columnValue(value) else { return nil }
        let test: ColumnFilter.Test =
            switch method {
            case .equal: .equal
            case .notEqual: .notEqual
            case .lessThan: .less
            case .lessThanOrEqual: .lessOrEqual
            case .greaterThan: .greater
            case .greaterThanOrEqual: .greaterOrEqual
            }
        return ColumnFilter(column: column, test: test, value: stored)
    }
}

extension Predicate {
    /// The lookup an index in memory answers for this comparison (`!=` has none).
    @usableFromInline
    var lookup: IndexLookup<Entity>? {
        let test: ColumnFilter.Test
        switch method {
        case .equal: test = .equal
        case .notEqual: return nil
        case .lessThan: test = .less
        case .lessThanOrEqual: test = .lessOrEqual
        case .greaterThan: test = .greater
        case .greaterThanOrEqual: test = .greaterOrEqual
        }
        return IndexLookup(keyPath: keyPath, test: test, value: value)
    }
}
