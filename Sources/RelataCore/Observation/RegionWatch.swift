/// What a filtered query of a whole type watches, for an observed closure (see
/// ``Store/observe(_:)``): a commit can change its results only through an entity whose old
/// value matched (it is among the ids the query kept, up to the end of its window) or whose new
/// value matches (its predicates pass on it). A commit touching only other entities of the type
/// leaves the query's value as it was, and does not reach the observer.
@usableFromInline
struct RegionWatch: @unchecked Sendable {
    // The predicates are the query's own closures; they run on the observation queue only.
    /// The entity type watched.
    let type: ObjectIdentifier
    /// Whether a commit's delta touches an entity that can change the query's results.
    let isTouched: (StoreDelta) -> Bool

    /// Watches the entities of `Entity` that pass every one of `filters` (new values), and those
    /// in `kept` (old values that passed).
    @usableFromInline
    init<Entity: EntityModelProtocol>(_: Entity.Type, filters: [(Entity) -> Bool], kept: Set<Entity.ID>) {
        type = ObjectIdentifier(Entity.self)
        isTouched = { delta in
            guard let table = delta.table(of: Entity.self) else { return false }
            for (id, value) in table.entities {
                if kept.contains(id) { return true }
                if let value, filters.allSatisfy({ $0(value) }) { return true }
            }
            return false
        }
    }

    /// Whether any of `commits` touches an entity the watch can be changed by.
    ///
    /// - Complexity: O(entities of the type in the commits).
    func isTouched(by commits: [StoreCommit]) -> Bool {
        commits.contains { isTouched($0.delta) }
    }
}
