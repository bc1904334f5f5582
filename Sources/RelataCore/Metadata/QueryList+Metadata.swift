import Foundation

// Filtering and sorting by ``Metadata`` (SwiftletModel's `filter(.updated(within:))` and
// `sorted(by: .updatedAt)`): the time each entity was last saved is the context's (read from
// storage with the entity in a store's context), so a deferred query adds these when it is
// given a context. In a store's context, storage tests and orders by its column first.

extension QueryList {
    /// Keeps the entities whose metadata passes `predicate`: `filter(.updated(within: range))`
    /// keeps those last saved within `range` (none for an entity without a time).
    ///
    /// - Complexity: O(log n + k) for k entities found: a context that holds every entity keeps
    ///   the save times in order; in a context a ``Store`` handed out, storage finds the rows
    ///   through the index of its `updated_at` column (and counts them there for
    ///   ``resolveCount()``).
    public func filter(_ predicate: MetadataPredicate) -> QueryList {
        addingWithContext { list in
            guard let context = list.context else { return list }
            var filtered = list.filtering { predicate.includes(context.updatedAt(of: Entity.self, id: $0.id)) }
            filtered.filtersReadContext = true
            // Storage tests the time's column first (its index answers).
            filtered.columnFilters += predicate.columnFilters
            filtered.filtersInStorage += 1
            // A context holding everything finds them by the save times in order.
            if filtered.savedWithin == nil, case .updated(let range) = predicate { filtered.savedWithin = range }
            return filtered
        }
    }

    /// Sorts by `metadata`, oldest first: `sorted(by: .updatedAt)` (entities with no time first).
    /// A later sort replaces it. In a context a ``Store`` handed out, a `limit` after it reads
    /// only the first rows in that order (and those with no time).
    public func sorted(by metadata: Metadata) -> QueryList {
        addingWithContext(sorts: true) { list in
            guard let context = list.context else { return list }
            // `sorted(by:)` also drops the sorts still pending.
            var sorted = list.sorted { a, b in
                (context.updatedAt(of: Entity.self, id: a.id) ?? .distantPast) < (context.updatedAt(of: Entity.self, id: b.id) ?? .distantPast)
            }
            // Storage orders rows by the time's column (its index answers a limit's first rows).
            sorted.columnOrder = [ColumnOrder(column: ColumnFilter.updatedAt, descending: false)]
            return sorted
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
