// SwiftletModel's filter, sort and limit vocabulary on a query list: predicates made with key
// path operators, sorting by several key paths (`\.age.desc` for descending), and windows of
// results. Today they run in Swift over the entities the list resolves, like closure filters.

extension QueryList {
    /// Keeps the entities that satisfy `predicate` (`\.age > 18`).
    public func filter<Value>(_ predicate: Predicate<Entity, Value>) -> QueryList {
        filter { predicate.isIncluded($0) }
    }

    /// Keeps the entities that satisfy `predicate` (`\.kind == .photo`).
    public func filter<Value>(_ predicate: EqualityPredicate<Entity, Value>) -> QueryList {
        filter { predicate.isIncluded($0) }
    }

    /// Keeps the entities that satisfy `predicate` (`.string(\.text, contains: "hi")`).
    public func filter(_ predicate: StringPredicate<Entity>) -> QueryList {
        filter { predicate.isIncluded($0) }
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
    public func sorted<T0: Comparable, T1: Comparable>(by kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>) -> QueryList {
        sorted { a, b in
            let (a0, b0) = (a[keyPath: kp0], b[keyPath: kp0])
            if a0 != b0 { return a0 < b0 }
            return a[keyPath: kp1] < b[keyPath: kp1]
        }
    }

    /// Sorts by `kp0`, then by `kp1`, then by `kp2`.
    public func sorted<T0: Comparable, T1: Comparable, T2: Comparable>(
        by kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>
    ) -> QueryList {
        sorted { a, b in
            let (a0, b0) = (a[keyPath: kp0], b[keyPath: kp0])
            if a0 != b0 { return a0 < b0 }
            let (a1, b1) = (a[keyPath: kp1], b[keyPath: kp1])
            if a1 != b1 { return a1 < b1 }
            return a[keyPath: kp2] < b[keyPath: kp2]
        }
    }

    /// Sorts by `kp0`, then by `kp1`, `kp2` and `kp3`.
    public func sorted<T0: Comparable, T1: Comparable, T2: Comparable, T3: Comparable>(
        by kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>, _ kp3: KeyPath<Entity, T3>
    ) -> QueryList {
        sorted { a, b in
            let (a0, b0) = (a[keyPath: kp0], b[keyPath: kp0])
            if a0 != b0 { return a0 < b0 }
            let (a1, b1) = (a[keyPath: kp1], b[keyPath: kp1])
            if a1 != b1 { return a1 < b1 }
            let (a2, b2) = (a[keyPath: kp2], b[keyPath: kp2])
            if a2 != b2 { return a2 < b2 }
            return a[keyPath: kp3] < b[keyPath: kp3]
        }
    }

    /// At most `count` results, after skipping the first `offset` (both at least 0): pages of a
    /// filtered, sorted list. Applied after filters and sorting.
    public func limit(_ count: Int, offset: Int = 0) -> QueryList {
        var copy = self
        copy.window = (Swift.max(0, count), Swift.max(0, offset))
        return copy
    }
}
