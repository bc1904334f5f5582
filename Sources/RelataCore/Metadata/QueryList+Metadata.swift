import Foundation

// Filtering and sorting by ``Metadata`` (SwiftletModel's `filter(.updated(within:))` and
// `sorted(by: .updatedAt)`): the time each entity was last saved is the context's, so a deferred
// query adds these when it is given a context.

extension QueryList {
    /// Keeps the entities whose metadata passes `predicate`: `filter(.updated(within: range))`
    /// keeps those last saved within `range` in the context (none for an entity never saved
    /// through it).
    public func filter(_ predicate: MetadataPredicate) -> QueryList {
        addingWithContext { list in
            guard let context = list.context else { return list }
            var filtered = list.filtering { predicate.includes(context.updatedAt(of: Entity.self, id: $0.id)) }
            filtered.filtersReadContext = true
            return filtered
        }
    }

    /// Sorts by `metadata`, oldest first: `sorted(by: .updatedAt)` (entities with no time first).
    /// A later sort replaces it.
    public func sorted(by metadata: Metadata) -> QueryList {
        addingWithContext(sorts: true) { list in
            guard let context = list.context else { return list }
            // `sorted(by:)` also drops the sorts still pending.
            return list.sorted { a, b in
                (context.updatedAt(of: Entity.self, id: a.id) ?? .distantPast) < (context.updatedAt(of: Entity.self, id: b.id) ?? .distantPast)
            }
        }
    }

    /// A deferred query for the entities of the type whose metadata passes `predicate`.
    public static func filter(_ predicate: MetadataPredicate) -> QueryList {
        Entity.query().filter(predicate)
    }
}

extension Query {
    /// The query, finding nothing when the entity's metadata does not pass `predicate`
    /// (`User.query("1").filter(.updated(within: range))`).
    public func filter(_ predicate: MetadataPredicate) -> Query {
        Query(context: context, steps: steps) { context in
            guard let id = id(in: context), predicate.includes(context.updatedAt(of: Entity.self, id: id)) else { return nil }
            return id
        }
    }
}

extension EntityModelProtocol {
    /// A deferred query for the entities whose metadata passes `predicate`
    /// (`Message.filter(.updated(within: lastSync...now))`).
    public static func filter(_ predicate: MetadataPredicate) -> QueryList<Self> {
        query().filter(predicate)
    }
}
