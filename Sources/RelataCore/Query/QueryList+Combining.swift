// SwiftletModel's combinations of list queries: `or` and `and` of another list, the first and
// last result as a query of one entity, and the static `filter` that starts a deferred list
// (`.or(.filter(\.age < 10))`).

extension QueryList {
    /// The entities of this query, then those of `other` not among them (SwiftletModel's `or`):
    /// `User.filter(\.age > 65).or(.filter(\.age < 10))`. Filters, sorts and limits added after
    /// apply to the union; the relations this query resolves (`with`, `id`) are resolved for all.
    ///
    /// - Complexity: resolves both queries, then O(n + m).
    public func or(_ other: @autoclosure () -> QueryList) -> QueryList {
        let other = other()
        return combined { context, targets in
            var seen = Set<Entity.ID>()
            return (resultIDs(in: context, targets: targets) + other.resultIDs(in: context, targets: targets)).filter { seen.insert($0).inserted }
        }
    }

    /// The entities of this query that `other` also returns, in this query's order
    /// (SwiftletModel's `and` of a list).
    ///
    /// - Complexity: resolves both queries, then O(n + m).
    public func and(_ other: @autoclosure () -> QueryList) -> QueryList {
        let other = other()
        return combined { context, targets in
            let kept = Set(other.resultIDs(in: context, targets: targets))
            return resultIDs(in: context, targets: targets).filter(kept.contains)
        }
    }

    /// A query for the first entity this query returns (SwiftletModel's `first()`), after its
    /// filters, order and limit.
    public func first() -> Query<Entity> {
        Query(context: context, steps: steps) { context in resultIDs(in: context).first }
    }

    /// A query for the last entity this query returns (SwiftletModel's `last()`).
    public func last() -> Query<Entity> {
        Query(context: context, steps: steps) { context in resultIDs(in: context).last }
    }

    /// The ids of the entities the query returns in `context`, in order.
    func resultIDs(in context: Context) -> [Entity.ID] {
        bound(to: context).resolve().map { $0.id }
    }

    /// The ids of the entities the query returns in `context`, in order; for the placeholder of
    /// a nested `with` (or a list combined from it), those it returns of the relation's
    /// `targets`.
    func resultIDs(in context: Context, targets: [Entity.ID]) -> [Entity.ID] {
        guard isRelationTargets else { return resultIDs(in: context) }
        var list = self
        list.givenIDs = targetIDs?(context, targets) ?? targets
        list.targetIDs = nil
        list.isRelationTargets = false
        return list.resultIDs(in: context)
    }

    /// A list of the ids `ids` gives (given the relation's targets of each entity, when this list
    /// is a nested `with`'s placeholder or made from it), shaped like this one (its `with` and
    /// `id`), with no filter, order or window yet.
    private func combined(_ ids: @escaping (Context, [Entity.ID]) -> [Entity.ID]) -> QueryList {
        var list: QueryList
        if isRelationTargets {
            list = .relationTargets
            list.targetIDs = ids
        } else {
            list = QueryList(context: context) { ids($0, []) }
        }
        list.steps = steps
        return list
    }
}

extension QueryList {
    /// A deferred query for the entities of the type that satisfy `predicate` (`.filter(\.age > 18)`
    /// where a list is expected, as in `or(.filter(…))`).
    public static func filter<Value>(_ predicate: Predicate<Entity, Value>) -> QueryList {
        Entity.query().filter(predicate)
    }

    /// A deferred query for the entities of the type that satisfy `predicate`.
    public static func filter<Value>(_ predicate: EqualityPredicate<Entity, Value>) -> QueryList {
        Entity.query().filter(predicate)
    }

    /// A deferred query for the entities of the type that satisfy `predicate`.
    public static func filter(_ predicate: StringPredicate<Entity>) -> QueryList {
        Entity.query().filter(predicate)
    }
}

extension EntityModelProtocol {
    /// A deferred query for the entities that satisfy `predicate` (SwiftletModel's
    /// `User.filter(\.age > 18).resolve(in: context)`).
    public static func filter<Value>(_ predicate: Predicate<Self, Value>) -> QueryList<Self> {
        query().filter(predicate)
    }

    /// A deferred query for the entities that satisfy `predicate` (`User.filter(\.role == .admin)`).
    public static func filter<Value>(_ predicate: EqualityPredicate<Self, Value>) -> QueryList<Self> {
        query().filter(predicate)
    }

    /// A deferred query for the entities that satisfy `predicate`
    /// (`Message.filter(.string(\.text, matches: "hello"))`).
    public static func filter(_ predicate: StringPredicate<Self>) -> QueryList<Self> {
        query().filter(predicate)
    }
}
