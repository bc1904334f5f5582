// Keyset pagination: `limit(_:after:)` keeps the entities that sort after the last one of the previous
// page, so pages do not shift when entities are inserted or erased before them (an offset does).

extension QueryList {
    /// The bound `limit(_:after:)` puts on the first sort key, when storage or an index in memory can
    /// narrow the rows by it: the rows from the last value on (`>=`, `<=` when descending), and
    /// the rows at that value (the ties, of which those up to the last id are left out).
    @usableFromInline
    struct KeysetBound {
        /// From the last value on, in storage.
        @usableFromInline var bound: ColumnFilter
        /// At the last value, in storage.
        @usableFromInline var ties: ColumnFilter
        /// From the last value on, and at it, in an index in memory (ascending keys only).
        @usableFromInline
        var lookups: (bound: IndexLookup<Entity>, ties: IndexLookup<Entity>)?
    }

    /// The bound of `limit(_:after: last)` on the single key path of `sorted(by:)`, if storage orders by
    /// it.
    @usableFromInline
    static func keysetBound<Value: Comparable>(_ keyPath: KeyPath<Entity, Value>, descending: Bool) -> ((Entity) -> KeysetBound?)? {
        guard let order = columnOrder(keyPath) else { return nil }
        let isReversed = Value.self is any _DescendingValue.Type
        return { last in
            let value = last[keyPath: keyPath]
            let plain = (value as? any _DescendingValue)?._value ?? value
            guard let stored = ColumnFilter.columnValue(plain),
                let bound = ColumnFilter(column: order.column, test: order.descending != descending ? .lessOrEqual : .greaterOrEqual, value: stored),
                let ties = ColumnFilter(column: order.column, test: .equal, value: stored)
            else { return nil }
            let lookups = isReversed || descending
                ? nil : (IndexLookup<Entity>(keyPath: keyPath, test: .greaterOrEqual, value: value), IndexLookup<Entity>(keyPath: keyPath, test: .equal, value: value))
            return KeysetBound(bound: bound, ties: ties, lookups: lookups)
        }
    }

    /// A page of at most `count` results that follows `last`, the last entity of the page
    /// before (`nil` for the first page): keyset pagination. Unlike an offset, the page does not
    /// shift when entities are stored or erased before it.
    ///
    /// ```swift
    /// let first = Message.query(in: context).sorted(by: \.sentAt.desc).limit(20, after: nil).resolve()
    /// let next = Message.query(in: context).sorted(by: \.sentAt.desc).limit(20, after: first.last).resolve()
    /// ```
    ///
    /// The sort's ties are ordered by id, on every page, so that the order is total and a page
    /// ends at one place: an entity follows `last` when the sort puts it after `last`, or it ties
    /// with `last` and its id is greater. `last` needs not be stored any more. Without a sort,
    /// pages follow the ids' order. (A plain ``sorted(by:ascending:)`` keeps ties in the order
    /// the entities come, as SwiftletModel does.) Give it after the sort and the filters.
    ///
    /// - Complexity: sorted by one property storage orders by (an integer, a floating-point value
    ///   or a date), a store's context asks storage for the first `count` rows from `last`'s
    ///   value on, plus the rows tied at that value; a context that holds every entity walks a
    ///   sorted ``Index`` of the property from that value when one is declared; otherwise the
    ///   entities are tested and sorted in Swift.
    public func limit(_ count: Int, after last: Entity?) -> QueryList {
        var copy = limit(count)
        let order = self.order ?? { IDOrder.precedes($0.id, $1.id) }
        let total: (Entity, Entity) -> Bool = { a, b in order(a, b) || (!order(b, a) && IDOrder.precedes(a.id, b.id)) }
        copy.order = total
        copy.keyedOrder = nil
        copy.ordersTiesByID = true
        guard let last else { return copy }
        copy.keyset = sortKeysetBound?(last)
        copy = copy.filtering { total(last, $0) }
        copy.hasKeysetFilter = true
        return copy
    }

    /// The filters storage tests, with the keyset's bound.
    @inlinable
    var storedFilters: [ColumnFilter] {
        guard let bound = keyset?.bound else { return columnFilters }
        return columnFilters + [bound]
    }

    /// The lookups an index in memory answers, with the keyset's bound.
    @inlinable
    var indexLookups: [IndexLookup<Entity>] {
        guard let bound = keyset?.lookups?.bound else { return lookups }
        return lookups + [bound]
    }

    /// How many rows tie with the keyset's last value (storage's count, or an index's), which
    /// the first rows storage or an index gives must make room for; 0 without a keyset; `nil`
    /// when neither can count them.
    @usableFromInline
    func keysetTies(in context: Context) -> Int? {
        guard hasKeysetFilter else { return 0 }
        guard let keyset else { return nil }
        if let tieLookup = keyset.lookups?.ties, let ids = context.indexedIDs(of: Entity.self, [tieLookup], inTableOrder: false) {
            return ids.count
        }
        return context.storedCount(of: Entity.self, matching: [keyset.ties]).map { $0.count + $0.untested.count }
    }
}
