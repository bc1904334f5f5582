import Foundation

/// A query for several entities of one type: filter, sort and shape them, then ``resolve()``.
///
/// ```swift
/// let admins = User.query(in: context)
///     .with(\.$adminOf)
///     .filter { !($0.adminOf ?? []).isEmpty }
///     .sorted(by: \.name)
///     .resolve()
///
/// let adults = User.filter(\.age >= 18).sorted(by: \.name).resolve(in: context)
/// ```
///
/// Like ``Query``, a list is bound to a context (`query(in:)`) or deferred (`query()`,
/// `User.filter(_:)`) and given one by ``resolve(in:)``.
public struct QueryList<Entity: EntityModelProtocol> {
    /// The snapshot the query reads, or `nil` for a deferred query (see ``resolve(in:)``).
    public var context: Context? { boundContext }
    @usableFromInline var boundContext: Context?
    /// The ids the query was made with; `nil` for every entity of the type, read when the query
    /// resolves (so that a filter can run in storage first).
    @usableFromInline var givenIDs: [Entity.ID]?
    /// For a deferred query: the ids the context it resolves in gives (`related`, `or`).
    @usableFromInline var deferredIDs: ((Context) -> [Entity.ID])?
    /// For a deferred query: what needs the context to be added (a filter or sort by
    /// ``Metadata``), in order, added when it is bound.
    @usableFromInline var pending: [PendingStep] = []
    /// Whether the list is the placeholder a nested `with` gives its closure: the relation's
    /// targets. A closure that returns another list (`{ _ in Chat.query() }`) resolves that list.
    @usableFromInline var isRelationTargets = false
    /// For a list a nested `with`'s closure combined from its placeholder (`$0.filter(…).or(…)`):
    /// its ids in a context, given the relation's targets of one entity.
    @usableFromInline var targetIDs: ((Context, [Entity.ID]) -> [Entity.ID])?
    /// The ids of the entities, in order (every stored one of the type, for
    /// `query(in:)`); none for a deferred query until it is resolved.
    public var ids: [Entity.ID] { givenIDs ?? context?.ids(of: Entity.self) ?? [] }
    /// The tests of the predicates given to `filter(_:)` that storage can run first (see
    /// ``ColumnFilter``).
    @usableFromInline var columnFilters: [ColumnFilter] = []
    /// How many of ``filters`` storage tests with ``columnFilters`` (a predicate's one, a
    /// metadata range's two).
    @usableFromInline var filtersInStorage = 0
    /// The tests of the predicates given to `filter(_:)` that an index kept in memory can answer
    /// (see ``MemoryIndex``).
    @usableFromInline var lookups: [IndexLookup<Entity>] = []
    /// The range of save times of the first `filter(.updated(within:))`, which the save times a
    /// context keeps in order answer (see ``SaveOrder``).
    @usableFromInline var savedWithin: ClosedRange<Date>?
    /// The sort's keys, when storage can order by every one of them (see ``ColumnOrder``).
    @usableFromInline var columnOrder: [ColumnOrder]? = nil
    @usableFromInline var steps: [QueryStep<Entity>]
    @usableFromInline var filters: [(Entity) -> Bool]
    /// Every one of ``filters`` in one closure (`nil` when there are none): what a loop over
    /// entities calls, one call per entity whatever the number of filters.
    @usableFromInline var passesFilters: ((Entity) -> Bool)?
    @usableFromInline var order: ((Entity, Entity) -> Bool)?
    /// The same order as ``order`` applied to a whole array, each entity's key read once (a
    /// sort by one key path): `nil` when only ``order`` says it.
    @usableFromInline var keyedOrder: (([Entity]) -> [Entity])?
    /// At most `count` results after skipping `offset` (`limit(_:offset:)`), applied last.
    @usableFromInline var window: (count: Int, offset: Int)?
    /// The first full-text search among the filters: it ranks the results (see
    /// ``FullTextIndex``).
    @usableFromInline var textSearch: FullTextSearch<Entity>?
    /// The bound of ``limit(_:after:)`` on the sort's key, if storage or an index can narrow by it.
    @usableFromInline var keyset: KeysetBound?
    /// Whether ``limit(_:after:)`` added its filter (one that storage does not run).
    @usableFromInline var hasKeysetFilter = false
    /// Whether the sort's ties go by id (``limit(_:after:)``).
    @usableFromInline var ordersTiesByID = false
    /// Makes the bound of ``limit(_:after:)`` when the list is sorted by one key path storage orders by.
    @usableFromInline var sortKeysetBound: ((Entity) -> KeysetBound?)?
    /// Whether a filter is a closure (which may read the relations `with` resolved).
    @usableFromInline var hasClosureFilter = false
    /// Whether a filter reads the context (``Metadata``), not only the entity.
    @usableFromInline var filtersReadContext = false

    /// A query for the entities with these ids in `context`.
    @inlinable
    public init(ids: [Entity.ID], context: Context) {
        self.init(givenIDs: ids, context: context)
    }

    /// A query for `givenIDs` (every entity of the type when `nil`) in `context` (deferred when
    /// `nil`). Inlinable: specialized where it is called, a list is made without looking its
    /// type's generic metadata up at run time (a third of `related(_:)`'s time).
    @inlinable
    init(givenIDs: [Entity.ID]?, context: Context?) {
        self.givenIDs = givenIDs
        self.boundContext = context
        self.steps = []
        self.filters = []
        self.passesFilters = nil
        self.order = nil
        self.keyedOrder = nil
        self.window = nil
    }

    /// A query for the entities `ids` gives: read now from a bound `context`, from the context
    /// the query resolves in when `context` is `nil`.
    @usableFromInline
    init(context: Context?, ids: @escaping (Context) -> [Entity.ID]) {
        self.init(givenIDs: context.map(ids) ?? [], context: context)
        if context == nil { deferredIDs = ids }
    }

    /// The query, reading `context`.
    @usableFromInline
    func bound(to context: Context) -> QueryList {
        var copy = self
        copy.boundContext = context
        if let deferredIDs {
            copy.givenIDs = deferredIDs(context)
            copy.deferredIDs = nil
        }
        copy.pending = []
        for step in pending { copy = step.add(copy) }
        return copy
    }

    /// The placeholder a nested `with` gives its closure (see ``isRelationTargets``).
    @usableFromInline
    static var relationTargets: QueryList {
        var list = QueryList(givenIDs: [], context: nil)
        list.isRelationTargets = true
        return list
    }

    /// A step of a deferred query that needs the context (see ``pending``).
    @usableFromInline
    struct PendingStep {
        /// Whether the step sorts (a later sort replaces it).
        let sorts: Bool
        /// Adds the step to the list, bound.
        let add: (QueryList) -> QueryList
    }

    /// `step(self)` now in a bound list; when the list is bound, in a deferred one.
    func addingWithContext(sorts: Bool = false, _ step: @escaping (QueryList) -> QueryList) -> QueryList {
        guard context == nil else { return step(self) }
        var copy = self
        copy.pending.append(PendingStep(sorts: sorts, add: step))
        return copy
    }

    /// A query for every entity of the type in `context`.
    @usableFromInline
    init(allOf context: Context) {
        self.init(givenIDs: nil, context: context)
    }

    /// The ids to resolve: those given, else the entities of the type that may pass the
    /// predicates storage can test (all of them when there are none).
    @usableFromInline
    func idsToResolve(in context: Context) -> [Entity.ID] {
        idsToResolve(in: context, window: false).ids
    }

    /// The ids to resolve, as ``idsToResolve(in:)``; with `window`, `isWindow` says when they are
    /// the results themselves, in order: storage tested every filter exactly, ordered by every
    /// key and skipped the offset (see ``EntityTable/window(matching:orderedBy:offset:count:)``).
    /// `passed` says when every one of them passes every filter (an index answered each exactly,
    /// or they were tested), so that only the order and the window remain to apply.
    @inlinable
    func idsToResolve(in context: Context, window allowsWindow: Bool) -> (ids: [Entity.ID], isWindow: Bool, passed: Bool) {
        if let textSearch {
            // Ranked, the search's matches are the results when nothing else filters or orders
            // them: only the window's are needed.
            let first = givenIDs == nil && order == nil && filters.count == 1 ? window.map { $0.offset + $0.count } : nil
            let ranked = context.rankedIDs(of: Entity.self, textSearch, first: first)
            // In a context that holds every entity, the ranking holds exactly the entities that
            // share a trigram with the search (its index, or every entity scored): when the
            // search is the only filter, they need no second test.
            let passed = context.storage.base == nil && filters.count == 1 && !hasKeysetFilter && steps.isEmpty
            if let first { return (Array(ranked.prefix(first)), false, passed) }
            return (givenIDs.map(Set.init).map { given in ranked.filter(given.contains) } ?? ranked, false, passed)
        }
        if let givenIDs { return (givenIDs, false, false) }
        // In a context holding every entity, a sorted index of the one sort key gives the first
        // results in order (the filters test the entities as they come: without `with`, a filter
        // sees what it would see after resolving), and an index answers a predicate.
        // (After a keyset's last entity, the first rows make room for the ties at its value,
        // some of which the keyset's filter leaves out: counted once, by whichever path asks.)
        // Counted at most once, without copying the list into a closure.
        var counted: Int??
        func tiedRows() -> Int? {
            if let counted { return counted }
            let ties = keysetTies(in: context)
            counted = .some(ties)
            return ties
        }
        if let window, let columnOrder, columnOrder.count == 1, steps.isEmpty, keyset?.lookups != nil || !hasKeysetFilter,
            let ties = tiedRows(),
            let ids = context.firstIndexedIDs(
                of: Entity.self, orderedBy: columnOrder[0], lookups: indexLookups, count: window.offset + window.count + ties,
                where: passesFilters ?? { _ in true },
                // Each predicate adds at most one lookup: as many as the filters, they are the filters.
                lookupsAreFilters: filters.count == lookups.count && !hasKeysetFilter, tiesInTableOrder: !ordersTiesByID
            )
        {
            // They passed every filter (tested as they came, or answered by the index) and came
            // in the key's order, ties in the table's order as a stable sort of every entity
            // puts them: without ties to order by id, the window is the results.
            if allowsWindow, !ordersTiesByID, ties == 0 {
                return (Array(ids.dropFirst(window.offset).prefix(window.count)), true, true)
            }
            return (ids, false, true)
        }
        // An index of a property, or the save times in order, answer the filters' lookups (the
        // one that keeps fewer ids, when both can).
        let indexed = indexLookups.isEmpty ? nil : context.indexAnswer(of: Entity.self, indexLookups)
        if let savedWithin, let saved = context.savedIDs(of: Entity.self, within: savedWithin), saved.count < indexed?.ids.count ?? .max {
            return (saved, false, false)
        }
        // Each predicate adds at most one lookup: as many as the filters, they are the filters
        // (tested again after `with`, in case a property the index keeps reads a relation).
        if let indexed { return (indexed.ids, false, indexed.exact && filters.count == lookups.count && !hasKeysetFilter && steps.isEmpty) }
        // Storage may stop after the first rows when it runs every filter and orders by every
        // key: a closure filter or key could keep rows storage would have left out.
        if let window, let columnOrder, filters.count == filtersInStorage + (hasKeysetFilter ? 1 : 0),
            columnFilters.allSatisfy(\.isExact), let ties = tiedRows()
        {
            // Without a keyset, storage may give the window itself (offset skipped, nothing left
            // for Swift to test or order).
            if allowsWindow, !hasKeysetFilter, ties == 0,
                let found = context.window(of: Entity.self, matching: storedFilters, orderedBy: columnOrder, offset: window.offset, count: window.count)
            {
                return (found.ids, found.isWindow, found.isWindow)
            }
            if let ids = context.ids(of: Entity.self, matching: storedFilters, orderedBy: columnOrder, first: window.offset + window.count + ties) {
                return (ids, false, false)
            }
        }
        if !storedFilters.isEmpty, let ids = context.ids(of: Entity.self, matching: storedFilters) { return (ids, false, false) }
        return (context.ids(of: Entity.self), false, false)
    }

    /// The stored entities, shaped, filtered and sorted; ids not stored are skipped. A deferred
    /// query (no ``context``) resolves to nothing: use ``resolve(in:)``.
    @inlinable
    public func resolve() -> [Entity] {
        guard let context else { return [] }
        let region = context.readRecorder
        // Observed, a filtered query of the whole type watches the entities that can match in
        // place of reading which exist (see `RegionWatch`).
        let watches = region != nil && isWatchable
        // Unobserved, storage may answer the window whole: the results need no selection.
        let (ids, isWindow, passed) = idsToResolve(in: watches ? context.notRecording : context, window: !watches)
        if !watches {
            for id in ids { region?.insert(.entity(ObjectIdentifier(Entity.self), AnyHashable(id))) }
        }
        guard let table = context.table(Entity.self) else {
            if watches { region?.watch(RegionWatch(Entity.self, filters: filters, kept: [])) }
            return []
        }
        let modifiers = steps.map { $0.bind(context) }
        let result: [Entity] = context.exclusively {
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
        guard watches, let region else {
            if isWindow || keepsAll || passed && order == nil && window == nil { return result }
            return select(result, passed: passed)
        }
        return select(result, passed: passed) { kept in
            region.watch(RegionWatch(Entity.self, filters: filters, kept: Set(kept.lazy.map { $0.id })))
        }
    }

    /// Whether an observed resolve can watch the entities that may match (see ``RegionWatch``)
    /// in place of reading which exist: the query is of the whole type and filtered, its filters
    /// test an entity's stored values (not relations `with` resolved, nor metadata), and its
    /// order does not depend on the other entities (a full-text ranking does).
    @usableFromInline
    var isWatchable: Bool {
        givenIDs == nil && deferredIDs == nil && !filters.isEmpty && !filtersReadContext
            && (steps.isEmpty || !hasClosureFilter) && (textSearch == nil || order != nil)
    }

    /// Resolves the query in `context` (SwiftletModel's form). A query made bound to another
    /// context resolves in this one.
    @inlinable
    public func resolve(in context: Context) -> [Entity] {
        bound(to: context).resolve()
    }

    /// What the filters, the order and the window keep of resolved entities, in order; `nil`
    /// when they keep all.
    @inlinable
    var selection: (([Entity]) -> [Entity])? {
        if keepsAll { return nil }
        return { [self] entities in select(entities) }
    }

    /// Whether the filters, the order and the window keep every resolved entity, in order.
    @inlinable
    var keepsAll: Bool { filters.isEmpty && order == nil && window == nil }

    /// What the filters, the order and the window keep of `entities`, in order; `kept` is given
    /// the entities that passed the filters, in order, up to the window's end. With `passed`,
    /// every one of `entities` passes the filters (they are not tested again).
    @inlinable
    func select(_ entities: [Entity], passed: Bool = false, kept: (ArraySlice<Entity>) -> Void = { _ in }) -> [Entity] {
        var result = entities
        if !passed, let passesFilters { result.removeAll { !passesFilters($0) } }
        if let keyedOrder {
            result = keyedOrder(result)
        } else if let order {
            result.sort(by: order)
        }
        kept(window.map { result.prefix($0.offset + $0.count) } ?? result[...])
        if let window { result = Array(result.dropFirst(window.offset).prefix(window.count)) }
        return result
    }

    /// One query per id, each shaped like this one.
    public var queries: [Query<Entity>] {
        ids.map { Query(source: .id($0), context: context, steps: steps) }
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
    @inlinable
    public func resolveCount() -> Int {
        guard let context else { return 0 }
        let total: Int
        if givenIDs == nil, textSearch == nil, filters.isEmpty {
            total = context.count(of: Entity.self)
        } else if givenIDs == nil, textSearch == nil, filters.count == 1, lookups.count == 1, lookups[0].isExact,
            let count = context.indexedCount(of: Entity.self, lookups)
        {
            // One predicate, answered exactly by an index in memory.
            total = count
        } else if givenIDs == nil, textSearch == nil, filters.count == 1, let savedWithin,
            let ids = context.savedIDs(of: Entity.self, within: savedWithin)
        {
            // One range of save times, answered exactly by their order.
            total = ids.count
        } else if givenIDs == nil, textSearch == nil, filters.count == filtersInStorage, columnFilters.allSatisfy(\.isExact),
            let stored = context.storedCount(of: Entity.self, matching: columnFilters)
        {
            // Storage could not test the untested ones: the predicates do, after the reads.
            total = stored.count + stored.untested.count { passesFilters?($0) ?? true }
        } else {
            var whole = self
            whole.window = nil
            total = whole.resolve().count
        }
        guard let window else { return total }
        return Swift.max(0, Swift.min(window.count, total - window.offset))
    }

    /// How many entities ``resolve(in:)`` returns in `context` (see ``resolveCount()``).
    public func resolveCount(in context: Context) -> Int {
        bound(to: context).resolveCount()
    }

    // MARK: Shaping

    /// Resolves a to-many relation of every entity (see ``Query/with(_:fragment:_:)-(WritableKeyPath<Entity,Relation<Target,D,Relations.ToMany,K>>,_,_)``).
    @inlinable
    public func with<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>,
        fragment: Bool = false,
        _ nested: (QueryList<Target>) -> QueryList<Target> = { $0 }
    ) -> QueryList {
        adding(RelationResolver.toMany(keyPath, nested(.relationTargets), fragment: fragment))
    }

    /// Resolves a to-one relation of every entity.
    @inlinable
    public func with<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>,
        fragment: Bool = false,
        _ nested: (Query<Target>) -> Query<Target> = { $0 }
    ) -> QueryList {
        adding(RelationResolver.toOne(keyPath, nested(Query<Target>(id: nil)).steps, fragment: fragment))
    }

    /// Resolves a to-many relation of every entity with fragments (SwiftletModel's `fragment(_:)`).
    @inlinable
    public func fragment<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>,
        _ nested: (QueryList<Target>) -> QueryList<Target> = { $0 }
    ) -> QueryList {
        with(keyPath, fragment: true, nested)
    }

    /// Resolves a to-one relation of every entity with a fragment (SwiftletModel's `fragment(_:)`).
    @inlinable
    public func fragment<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>,
        _ nested: (Query<Target>) -> Query<Target> = { $0 }
    ) -> QueryList {
        with(keyPath, fragment: true, nested)
    }

    /// Fills a to-many relation of every entity with ids only.
    @inlinable
    public func id<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>
    ) -> QueryList {
        adding(RelationResolver.ids(keyPath))
    }

    /// Fills a to-one relation of every entity with an id only.
    @inlinable
    public func id<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>
    ) -> QueryList {
        adding(RelationResolver.id(keyPath))
    }

    /// Resolves a to-many relation of every entity as an appending slice (see ``Query/with(slice:fragment:_:)``).
    @inlinable
    public func with<Target, D, K>(
        slice keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>,
        fragment: Bool = false,
        _ nested: (QueryList<Target>) -> QueryList<Target> = { $0 }
    ) -> QueryList {
        adding(RelationResolver.toMany(keyPath, nested(.relationTargets), fragment: fragment, appending: true))
    }

    /// Fills a to-many relation of every entity with ids as an appending slice (see ``Query/id(slice:)``).
    @inlinable
    public func id<Target, D, K>(
        slice keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>
    ) -> QueryList {
        adding(RelationResolver.ids(keyPath, appending: true))
    }

    // MARK: Filtering and sorting

    /// Keeps the entities for which `isIncluded` is true (after relations are resolved).
    public func filter(_ isIncluded: @escaping (Entity) -> Bool) -> QueryList {
        var copy = filtering(isIncluded)
        copy.hasClosureFilter = true
        return copy
    }

    /// Adds a filter that tests an entity's stored values (a predicate's).
    @inlinable
    func filtering(_ isIncluded: @escaping (Entity) -> Bool) -> QueryList {
        var copy = self
        copy.filters.append(isIncluded)
        copy.passesFilters = passesFilters.map { earlier in { earlier($0) && isIncluded($0) } } ?? isIncluded
        return copy
    }

    /// Keeps the entities whose property at `keyPath` is true.
    public func filter(_ keyPath: KeyPath<Entity, Bool>) -> QueryList {
        filtering { $0[keyPath: keyPath] }
    }

    /// Keeps the entities whose property at `keyPath` equals `value`.
    public func filter<Value: Equatable>(_ keyPath: KeyPath<Entity, Value>, equals value: Value) -> QueryList {
        filtering { $0[keyPath: keyPath] == value }
    }

    /// Sorts the results by the property at `keyPath` (entities with equal values keep their
    /// order, as in SwiftletModel; ``limit(_:after:)`` orders them by id).
    @inlinable
    public func sorted<Value: Comparable>(by keyPath: KeyPath<Entity, Value>, ascending: Bool = true) -> QueryList {
        var copy = sorted { ascending ? $0[keyPath: keyPath] < $1[keyPath: keyPath] : $0[keyPath: keyPath] > $1[keyPath: keyPath] }
        copy.keyedOrder = { entities in
            // Stable, as the closure's sort: equal keys keep their order.
            let keys = entities.map { $0[keyPath: keyPath] }
            let order = keys.indices.sorted { ascending ? keys[$0] < keys[$1] : keys[$0] > keys[$1] }
            return order.map { entities[$0] }
        }
        copy.columnOrder = Self.columnOrder(keyPath, ascending: ascending)
        copy.sortKeysetBound = Self.keysetBound(keyPath, descending: !ascending)
        return copy
    }

    /// Sorts the results with `areInIncreasingOrder`.
    public func sorted(by areInIncreasingOrder: @escaping (Entity, Entity) -> Bool) -> QueryList {
        var copy = self
        copy.order = areInIncreasingOrder
        copy.keyedOrder = nil
        copy.columnOrder = nil
        copy.sortKeysetBound = nil
        // It replaces an earlier sort waiting for the context (asked only when steps wait: the
        // generic `removeAll` looks its types' metadata up at run time even on an empty array).
        if !copy.pending.isEmpty { copy.pending.removeAll { $0.sorts } }
        return copy
    }

    /// The order ``sorted(by:ascending:)`` gives storage: by `keyPath`'s key, if storage can
    /// order by it.
    @usableFromInline
    static func columnOrder<Value>(_ keyPath: KeyPath<Entity, Value>, ascending: Bool) -> [ColumnOrder]? {
        columnOrder(keyPath).map { [ColumnOrder(column: $0.column, descending: $0.descending != !ascending)] }
    }

    /// The key storage can order by for `keyPath` (`\.sentAt`, `\.sentAt.desc`), if it can.
    @usableFromInline
    static func columnOrder<Value>(_ keyPath: KeyPath<Entity, Value>) -> ColumnOrder? {
        let descending = Value.self is any _DescendingValue.Type
        let valueType = (Value.self as? any _DescendingValue.Type)?._valueType ?? Value.self
        guard ColumnOrder.orders(valueType), let column = Entity.columnName(of: keyPath) else { return nil }
        return ColumnOrder(column: column, descending: descending)
    }

    @inlinable
    func adding(_ step: QueryStep<Entity>) -> QueryList {
        var copy = self
        copy.steps.append(step)
        return copy
    }
}
