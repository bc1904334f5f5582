/// A query for several entities of one type: filter, sort and shape them, then ``resolve()``.
///
/// ```swift
/// let admins = User.query(in: context)
///     .with(\.$adminOf)
///     .filter { !($0.adminOf ?? []).isEmpty }
///     .sorted(by: \.name)
///     .resolve()
/// ```
public struct QueryList<Entity: EntityModelProtocol> {
    /// The snapshot the query reads.
    public let context: Context
    /// The ids the query was made with; `nil` for every entity of the type, read when the query
    /// resolves (so that a filter can run in storage first).
    @usableFromInline let givenIDs: [Entity.ID]?
    /// The ids of the entities, in order (every stored one of the type, for
    /// `query(in:)`).
    public var ids: [Entity.ID] { givenIDs ?? context.ids(of: Entity.self) }
    /// The tests of the predicates given to `filter(_:)` that storage can run first (see
    /// ``ColumnFilter``).
    @usableFromInline var columnFilters: [ColumnFilter] = []
    /// The tests of the predicates given to `filter(_:)` that an index kept in memory can answer
    /// (see ``MemoryIndex``).
    @usableFromInline var lookups: [IndexLookup<Entity>] = []
    /// The sort's keys, when storage can order by every one of them (see ``ColumnOrder``).
    @usableFromInline var columnOrder: [ColumnOrder]? = nil
    @usableFromInline var modifiers: [Modifier<Entity>]
    @usableFromInline var filters: [(Entity) -> Bool]
    @usableFromInline var order: ((Entity, Entity) -> Bool)?
    /// At most `count` results after skipping `offset` (`limit(_:offset:)`), applied last.
    @usableFromInline var window: (count: Int, offset: Int)?
    /// The first full-text search among the filters: it ranks the results (see
    /// ``FullTextIndex``).
    @usableFromInline var textSearch: FullTextSearch<Entity>?

    /// A query for the entities with these ids in `context`.
    @inlinable
    public init(ids: [Entity.ID], context: Context) {
        self.init(givenIDs: ids, context: context)
    }

    /// A query for `givenIDs` (every entity of the type when `nil`) in `context`.
    @usableFromInline
    init(givenIDs: [Entity.ID]?, context: Context) {
        self.givenIDs = givenIDs
        self.context = context
        self.modifiers = []
        self.filters = []
        self.order = nil
        self.window = nil
    }

    /// A query for every entity of the type in `context`.
    @usableFromInline
    init(allOf context: Context) {
        self.init(givenIDs: nil, context: context)
    }

    /// The ids to resolve: those given, else the entities of the type that may pass the
    /// predicates storage can test (all of them when there are none).
    @usableFromInline
    func idsToResolve() -> [Entity.ID] {
        if let textSearch {
            // Ranked, the search's matches are the results when nothing else filters or orders
            // them: only the window's are needed.
            let first = givenIDs == nil && order == nil && filters.count == 1 ? window.map { $0.offset + $0.count } : nil
            let ranked = context.rankedIDs(of: Entity.self, textSearch, first: first)
            if let first { return Array(ranked.prefix(first)) }
            return givenIDs.map(Set.init).map { given in ranked.filter(given.contains) } ?? ranked
        }
        if let givenIDs { return givenIDs }
        // In a context holding every entity, a sorted index of the one sort key gives the first
        // results in order (the filters test the entities as they come: without `with`, a filter
        // sees what it would see after resolving), and an index answers a predicate.
        if let window, let columnOrder, columnOrder.count == 1, modifiers.isEmpty,
            let ids = context.firstIndexedIDs(
                of: Entity.self, orderedBy: columnOrder[0], lookups: lookups, count: window.offset + window.count,
                where: { [filters] entity in filters.allSatisfy { $0(entity) } }
            )
        {
            return ids
        }
        if !lookups.isEmpty, let ids = context.indexedIDs(of: Entity.self, lookups) { return ids }
        // Storage may stop after the first rows when it runs every filter and orders by every
        // key: a closure filter or key could keep rows storage would have left out.
        if let window, let columnOrder, filters.count == columnFilters.count, columnFilters.allSatisfy(\.isExact),
            let ids = context.ids(of: Entity.self, matching: columnFilters, orderedBy: columnOrder, first: window.offset + window.count)
        {
            return ids
        }
        if !columnFilters.isEmpty, let ids = context.ids(of: Entity.self, matching: columnFilters) { return ids }
        return context.ids(of: Entity.self)
    }

    /// The stored entities, shaped, filtered and sorted; ids not stored are skipped.
    @inlinable
    public func resolve() -> [Entity] {
        let ids = idsToResolve()
        let region = context.readRecorder
        for id in ids { region?.insert(.entity(ObjectIdentifier(Entity.self), AnyHashable(id))) }
        guard let table = context.table(Entity.self) else { return [] }
        var result: [Entity] = context.exclusively {
            context.planned(ids, modifiers) {
                var result: [Entity] = []
                result.reserveCapacity(ids.count)
                for id in ids {
                    guard var entity = table.entity(id) else { continue }
                    for modifier in modifiers { modifier.apply(&entity) }
                    result.append(entity)
                }
                return result
            }
        }
        // The caller's closures run after the reads, without the context's lock.
        if !filters.isEmpty { result.removeAll { entity in !filters.allSatisfy { $0(entity) } } }
        if let order { result.sort(by: order) }
        if let window { result = Array(result.dropFirst(window.offset).prefix(window.count)) }
        return result
    }

    /// One query per id, each shaped like this one.
    public var queries: [Query<Entity>] {
        ids.map { Query(id: $0, context: context, modifiers: modifiers) }
    }

    /// The number of ids in the query (before filtering; no entity is built). For the number of
    /// results, see ``resolveCount()``.
    public var count: Int { ids.count }

    /// How many entities ``resolve()`` returns, filters, limit and offset applied.
    ///
    /// ```swift
    /// let unread = Message.query(in: context).filter(\.isRead == false).resolveCount()
    /// ```
    ///
    /// - Complexity: in a context that holds every entity, with one key-path predicate an index
    ///   of the type answers (see ``Index``), the index counts. In a context a ``Store`` handed
    ///   out, when every filter is a key-path predicate storage tests exactly (comparisons,
    ///   equality; not a closure, a text test or a search) and the context wrote no entity of
    ///   the type, storage counts the rows (through an index of the property when one is
    ///   declared). No entity is built in either case; otherwise the query resolves and its
    ///   results are counted.
    public func resolveCount() -> Int {
        let total: Int
        if givenIDs == nil, textSearch == nil, filters.isEmpty {
            total = context.count(of: Entity.self)
        } else if givenIDs == nil, textSearch == nil, filters.count == 1, lookups.count == 1,
            let ids = context.indexedIDs(of: Entity.self, lookups, inTableOrder: false)
        {
            // One predicate, answered exactly by an index in memory.
            total = ids.count
        } else if givenIDs == nil, textSearch == nil, filters.count == columnFilters.count, columnFilters.allSatisfy(\.isExact),
            let stored = context.storedCount(of: Entity.self, matching: columnFilters)
        {
            // Storage could not test the untested ones: the predicates do, after the reads.
            total = stored.count + stored.untested.count { entity in filters.allSatisfy { $0(entity) } }
        } else {
            var whole = self
            whole.window = nil
            total = whole.resolve().count
        }
        guard let window else { return total }
        return Swift.max(0, Swift.min(window.count, total - window.offset))
    }

    // MARK: Shaping

    /// Resolves a to-many relation of every entity (see ``Query/with(_:_:)-(WritableKeyPath<Entity,Relation<Target,D,Relations.ToMany,K>>,_)``).
    @inlinable
    public func with<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>,
        _ nested: (Query<Target>) -> Query<Target> = { $0 }
    ) -> QueryList {
        adding(RelationResolver.toMany(keyPath, nested(Query<Target>(id: nil, context: context)).modifiers, context))
    }

    /// Resolves a to-one relation of every entity.
    @inlinable
    public func with<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>,
        _ nested: (Query<Target>) -> Query<Target> = { $0 }
    ) -> QueryList {
        adding(RelationResolver.toOne(keyPath, nested(Query<Target>(id: nil, context: context)).modifiers, context))
    }

    /// Fills a to-many relation of every entity with ids only.
    @inlinable
    public func id<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>
    ) -> QueryList {
        adding(RelationResolver.ids(keyPath, context))
    }

    /// Fills a to-one relation of every entity with an id only.
    @inlinable
    public func id<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>
    ) -> QueryList {
        adding(RelationResolver.id(keyPath, context))
    }

    /// Resolves a to-many relation of every entity as an appending slice (see ``Query/with(slice:_:)``).
    @inlinable
    public func with<Target, D, K>(
        slice keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>,
        _ nested: (Query<Target>) -> Query<Target> = { $0 }
    ) -> QueryList {
        adding(RelationResolver.toMany(keyPath, nested(Query<Target>(id: nil, context: context)).modifiers, context, appending: true))
    }

    /// Fills a to-many relation of every entity with ids as an appending slice (see ``Query/id(slice:)``).
    @inlinable
    public func id<Target, D, K>(
        slice keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>
    ) -> QueryList {
        adding(RelationResolver.ids(keyPath, context, appending: true))
    }

    // MARK: Filtering and sorting

    /// Keeps the entities for which `isIncluded` is true (after relations are resolved).
    public func filter(_ isIncluded: @escaping (Entity) -> Bool) -> QueryList {
        var copy = self
        copy.filters.append(isIncluded)
        return copy
    }

    /// Keeps the entities whose property at `keyPath` is true.
    public func filter(_ keyPath: KeyPath<Entity, Bool>) -> QueryList {
        filter { $0[keyPath: keyPath] }
    }

    /// Keeps the entities whose property at `keyPath` equals `value`.
    public func filter<Value: Equatable>(_ keyPath: KeyPath<Entity, Value>, equals value: Value) -> QueryList {
        filter { $0[keyPath: keyPath] == value }
    }

    /// Sorts the results by the property at `keyPath`.
    public func sorted<Value: Comparable>(by keyPath: KeyPath<Entity, Value>, ascending: Bool = true) -> QueryList {
        var copy = sorted { ascending ? $0[keyPath: keyPath] < $1[keyPath: keyPath] : $0[keyPath: keyPath] > $1[keyPath: keyPath] }
        copy.columnOrder = Self.columnOrder(keyPath).map { [ColumnOrder(column: $0.column, descending: $0.descending != !ascending)] }
        return copy
    }

    /// Sorts the results with `areInIncreasingOrder`.
    public func sorted(by areInIncreasingOrder: @escaping (Entity, Entity) -> Bool) -> QueryList {
        var copy = self
        copy.order = areInIncreasingOrder
        copy.columnOrder = nil
        return copy
    }

    /// The key storage can order by for `keyPath` (`\.sentAt`, `\.sentAt.desc`), if it can.
    static func columnOrder<Value>(_ keyPath: KeyPath<Entity, Value>) -> ColumnOrder? {
        let descending = Value.self is any _DescendingValue.Type
        let valueType = (Value.self as? any _DescendingValue.Type)?._valueType ?? Value.self
        guard ColumnOrder.orders(valueType), let column = Entity._relataColumnName(keyPath) else { return nil }
        return ColumnOrder(column: column, descending: descending)
    }

    @inlinable
    func adding(_ modifier: Modifier<Entity>) -> QueryList {
        var copy = self
        copy.modifiers.append(modifier)
        return copy
    }
}
