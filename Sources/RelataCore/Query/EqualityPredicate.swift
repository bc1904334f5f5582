/// An equality test of a property that is `Equatable` but not `Comparable` (`\.kind == .photo`
/// for an enum without an order), as in SwiftletModel.
public struct EqualityPredicate<Entity, Value: Equatable & Sendable> {
    @usableFromInline let keyPath: KeyPath<Entity, Value>
    @usableFromInline let isEqual: Bool
    @usableFromInline let value: Value

    /// Whether `entity` satisfies the test.
    public func isIncluded(_ entity: Entity) -> Bool {
        (entity[keyPath: keyPath] == value) == isEqual
    }
}

extension KeyPath where Value: Equatable & Sendable {
    /// The entities whose property equals `rhs`.
    public static func == (lhs: KeyPath<Root, Value>, rhs: Value) -> EqualityPredicate<Root, Value> {
        EqualityPredicate(keyPath: lhs, isEqual: true, value: rhs)
    }

    /// The entities whose property differs from `rhs`.
    public static func != (lhs: KeyPath<Root, Value>, rhs: Value) -> EqualityPredicate<Root, Value> {
        EqualityPredicate(keyPath: lhs, isEqual: false, value: rhs)
    }
}

extension EqualityPredicate where Entity: EntityModelProtocol {
    /// The test storage can run for this predicate, if it can (see ``ColumnFilter``).
    @usableFromInline
    func columnFilter(of _: Entity.Type) -> ColumnFilter? {
        guard let column = Entity.columnName(of: keyPath), let stored = ColumnFilter.columnValue(value) else { return nil }
        return ColumnFilter(column: column, test: isEqual ? .equal : .notEqual, value: stored)
    }
}

extension EqualityPredicate {
    /// The lookup an index in memory answers for this test (`!=` has none).
    @usableFromInline
    var lookup: IndexLookup<Entity>? {
        isEqual ? IndexLookup(keyPath: keyPath, test: .equal, value: value) : nil
    }
}
