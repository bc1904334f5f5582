// SwiftletModel's filter, sort and limit vocabulary on a query list: predicates made with key
// path operators, sorting by several key paths (`\.age.desc` for descending), and windows of
// results. They run in Swift over the entities the list resolves, like closure filters; on a
// query of a whole type in a store's context, the predicates storage can test exactly enough
// (`ColumnFilter`) first select the rows there, so the type is not read whole.

extension QueryList {
    /// Keeps the entities that satisfy `predicate` (`\.age > 18`).
    @inlinable
    public func filter<Value>(_ predicate: Predicate<Entity, Value>) -> QueryList {
        var copy = filter({ predicate.isIncluded($0) }, storage: predicate.columnFilter(of: Entity.self))
        if let lookup = predicate.lookup { copy.lookups.append(lookup) }
        return copy
    }

    /// Keeps the entities that satisfy `predicate` (`\.kind == .photo`).
    @inlinable
    public func filter<Value>(_ predicate: EqualityPredicate<Entity, Value>) -> QueryList {
        var copy = filter({ predicate.isIncluded($0) }, storage: predicate.columnFilter(of: Entity.self))
        if let lookup = predicate.lookup { copy.lookups.append(lookup) }
        return copy
    }

    /// Keeps the entities that satisfy `predicate` (`.string(\.text, contains: "hi")`).
    ///
    /// A `matches` test of the properties a ``FullTextIndex`` covers (the same key paths, in the
    /// same order) follows the index: it keeps the entities whose lowercased text shares a
    /// trigram with the search and ranks them, best first (see ``FullTextIndex``); a later
    /// `sorted(by:)` orders them by its keys instead. In a context that holds every entity, a
    /// `contains`, `hasPrefix` or `hasSuffix` test of an ASCII value of three characters or more
    /// on properties a ``FullTextIndex`` covers tests only the entities holding every trigram of
    /// the value (the results are the same).
    public func filter(_ predicate: StringPredicate<Entity>) -> QueryList {
        if case .matches(let tokens) = predicate.method, Entity.fullTextIndex(on: predicate.keyPaths) != nil {
            let search = FullTextSearch<Entity>(keyPaths: predicate.keyPaths, tokens: tokens)
            var copy = filtering { search.matches($0) }
            if copy.textSearch == nil { copy.textSearch = search }
            return copy
        }
        var copy = filter({ predicate.isIncluded($0) }, storage: predicate.columnFilter(of: Entity.self))
        if let lookup = predicate.textLookup { copy.lookups.append(lookup) }
        return copy
    }

    /// `filter(isIncluded)`, with the test storage can run first, if any — made only for a list
    /// that may read storage: not one bound to a context that holds everything (an in-memory
    /// `Context`), which would never use it.
    @inlinable
    func filter(_ isIncluded: @escaping (Entity) -> Bool, storage test: @autoclosure () -> ColumnFilter?) -> QueryList {
        var copy = filtering(isIncluded)
        if boundContext?.storage.base != nil || boundContext == nil, let test = test() {
            copy.columnFilters.append(test)
            copy.filtersInStorage += 1
        }
        return copy
    }

    /// Keeps, of the entities kept so far, those that also satisfy `predicate`.
    public func and<Value>(_ predicate: Predicate<Entity, Value>) -> QueryList {
        filter(predicate)
    }

    /// Keeps, of the entities kept so far, those that also satisfy `predicate`.
    public func and<Value>(_ predicate: EqualityPredicate<Entity, Value>) -> QueryList {
        filter(predicate)
    }

    /// Keeps, of the entities kept so far, those that also satisfy `predicate`.
    public func and(_ predicate: StringPredicate<Entity>) -> QueryList {
        filter(predicate)
    }

    /// Sorts by `kp0`, then by `kp1` where `kp0` ties (`sorted(by: \.lastName, \.firstName)`).
    @inlinable
    public func sorted<T0: Comparable, T1: Comparable>(by kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>) -> QueryList {
        sorted(byKeys: [Self.key(kp0), Self.key(kp1)], storage: [Self.columnOrder(kp0), Self.columnOrder(kp1)],
            columns: [Self.keyColumn(kp0), Self.keyColumn(kp1)])
    }

    /// Sorts by `kp0`, then by `kp1`, then by `kp2`.
    @inlinable
    public func sorted<T0: Comparable, T1: Comparable, T2: Comparable>(
        by kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>
    ) -> QueryList {
        sorted(byKeys: [Self.key(kp0), Self.key(kp1), Self.key(kp2)], storage: [Self.columnOrder(kp0), Self.columnOrder(kp1), Self.columnOrder(kp2)],
            columns: [Self.keyColumn(kp0), Self.keyColumn(kp1), Self.keyColumn(kp2)])
    }

    /// Sorts by `kp0`, then by `kp1`, `kp2` and `kp3`.
    @inlinable
    public func sorted<T0: Comparable, T1: Comparable, T2: Comparable, T3: Comparable>(
        by kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>, _ kp3: KeyPath<Entity, T3>
    ) -> QueryList {
        sorted(byKeys: [Self.key(kp0), Self.key(kp1), Self.key(kp2), Self.key(kp3)], storage: [Self.columnOrder(kp0), Self.columnOrder(kp1), Self.columnOrder(kp2), Self.columnOrder(kp3)],
            columns: [Self.keyColumn(kp0), Self.keyColumn(kp1), Self.keyColumn(kp2), Self.keyColumn(kp3)])
    }

    /// One sort key: whether `a` goes before `b` by it, or `nil` when they tie.
    @inlinable
    static func key<T: Comparable>(_ keyPath: KeyPath<Entity, T>) -> (Entity, Entity) -> Bool? {
        { a, b in
            let (x, y) = (a[keyPath: keyPath], b[keyPath: keyPath])
            return x == y ? nil : x < y
        }
    }

    /// One sort key read from every entity of a list once: whether the entity at one position
    /// goes before the one at another by it, or `nil` when they tie.
    @inlinable
    static func keyColumn<T: Comparable>(_ keyPath: KeyPath<Entity, T>) -> ([Entity]) -> (Int, Int) -> Bool? {
        { entities in
            let keys = entities.map { $0[keyPath: keyPath] }
            return { a, b in keys[a] == keys[b] ? nil : keys[a] < keys[b] }
        }
    }

    /// Sorts by the first key that does not tie; storage orders rows by the same keys when it
    /// can order by each. A list is sorted by `columns`: each key read once per entity, not at
    /// every comparison (stable, as the closure's sort).
    @inlinable
    func sorted(byKeys keys: [(Entity, Entity) -> Bool?], storage: [ColumnOrder?], columns: [([Entity]) -> (Int, Int) -> Bool?]) -> QueryList {
        var copy = sorted { a, b in
            for key in keys {
                if let before = key(a, b) { return before }
            }
            return false
        }
        copy.keyedOrder = { entities in
            let read = columns.map { $0(entities) }
            let order = entities.indices.sorted { a, b in
                for column in read {
                    if let before = column(a, b) { return before }
                }
                return false
            }
            return order.map { entities[$0] }
        }
        if storage.allSatisfy({ $0 != nil }) { copy.columnOrder = storage.compactMap { $0 } }
        return copy
    }

    /// At most `count` results, after skipping the first `offset` (both at least 0): pages of a
    /// filtered, sorted list. Applied after filters and sorting.
    ///
    /// `Int.max` for either means "all": a count or an offset beyond any number of entities
    /// (`Int.max / 4`) is taken as that bound, so the sums a page is planned with never overflow.
    public func limit(_ count: Int, offset: Int = 0) -> QueryList {
        var copy = self
        copy.window = (Swift.min(Swift.max(0, count), Self.windowBound), Swift.min(Swift.max(0, offset), Self.windowBound))
        return copy
    }

    /// The largest count or offset a window keeps (see ``limit(_:offset:)``).
    @usableFromInline static var windowBound: Int { Int.max / 4 }
}
