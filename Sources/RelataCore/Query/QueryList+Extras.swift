import Foundation

extension QueryList {
    /// The state only some lists use — a deferred list's steps, a nested `with`'s placeholder,
    /// the tests storage runs first, a full-text search, keyset pagination, metadata filters —
    /// kept in one optional value, so that making, copying and dropping a plain list (most
    /// queries of a context in memory) touches none of it. Read and written through the list's
    /// properties of the same names, which give each one's default while it is `nil`.
    @usableFromInline
    struct Extras {
        /// For a deferred query: the ids the context it resolves in gives (`related`, `or`).
        @usableFromInline var deferredIDs: ((Context) -> [Entity.ID])?
        /// For a deferred query: what needs the context to be added (a filter or sort by
        /// ``Metadata``), in order, added when it is bound.
        @usableFromInline var pending: [PendingStep] = []
        /// Whether the list is the placeholder a nested `with` gives its closure: the
        /// relation's targets. A closure that returns another list (`{ _ in Chat.query() }`)
        /// resolves that list.
        @usableFromInline var isRelationTargets = false
        /// For a list a nested `with`'s closure combined from its placeholder
        /// (`$0.filter(…).or(…)`): its ids in a context, given the relation's targets of one entity.
        @usableFromInline var targetIDs: ((Context, [Entity.ID]) -> [Entity.ID])?
        /// The tests of the predicates given to `filter(_:)` that storage can run first (see
        /// ``ColumnFilter``).
        @usableFromInline var columnFilters: [ColumnFilter] = []
        /// How many of the list's filters storage tests with ``columnFilters`` (a predicate's
        /// one, a metadata range's two).
        @usableFromInline var filtersInStorage = 0
        /// The range of save times of the first `filter(.updated(within:))`, which the save
        /// times a context keeps in order answer (see ``SaveOrder``).
        @usableFromInline var savedWithin: ClosedRange<Date>?
        /// The first full-text search among the filters: it ranks the results (see
        /// ``FullTextIndex``).
        @usableFromInline var textSearch: FullTextSearch<Entity>?
        /// The bound of ``QueryList/limit(_:after:)`` on the sort's key, if storage or an index
        /// can narrow by it.
        @usableFromInline var keyset: KeysetBound?
        /// Whether ``QueryList/limit(_:after:)`` added its filter (one that storage does not run).
        @usableFromInline var hasKeysetFilter = false
        /// Whether the sort's ties go by id (``QueryList/limit(_:after:)``).
        @usableFromInline var ordersTiesByID = false
        /// Makes the bound of ``QueryList/limit(_:after:)`` when the list is sorted by one key
        /// path storage orders by.
        @usableFromInline var sortKeysetBound: ((Entity) -> KeysetBound?)?
        /// Whether two entities tie on the sort's keys (a sort by key paths).
        @usableFromInline var sortKeysTie: ((Entity, Entity) -> Bool)?
        /// Whether a filter reads the context (``Metadata``), not only the entity.
        @usableFromInline var filtersReadContext = false

        @inlinable init() {}
    }

    /// ``Extras`` in a box a list and its copies share until one writes (copy-on-write): a list
    /// holds one reference, `nil` while it has none.
    @usableFromInline
    final class ExtrasBox {
        @usableFromInline var value: Extras
        @inlinable init(_ value: Extras) { self.value = value }
    }

    /// The list's extras, if it has any.
    @inlinable var extras: Extras? { extrasBox?.value }

    /// Makes the list's own ``extras`` (made, or copied out of a box another list shares) when a
    /// value other than its default (`isDefault` false) is written to it, or when it has extras;
    /// whether there are extras to write to.
    @inlinable
    mutating func makesExtras(unless isDefault: Bool) -> Bool {
        guard extrasBox != nil else {
            if isDefault { return false }
            extrasBox = ExtrasBox(Extras())
            return true
        }
        if !isKnownUniquelyReferenced(&extrasBox!) { extrasBox = ExtrasBox(extrasBox!.value) }
        return true
    }

    @inlinable var deferredIDs: ((Context) -> [Entity.ID])? {
        get { extrasBox?.value.deferredIDs }
        set { if makesExtras(unless: newValue == nil) { extrasBox!.value.deferredIDs = newValue } }
    }

    @inlinable var pending: [PendingStep] {
        get { extrasBox?.value.pending ?? [] }
        set { if makesExtras(unless: newValue.isEmpty) { extrasBox!.value.pending = newValue } }
    }

    @inlinable var isRelationTargets: Bool {
        get { extrasBox?.value.isRelationTargets ?? false }
        set { if makesExtras(unless: !newValue) { extrasBox!.value.isRelationTargets = newValue } }
    }

    @inlinable var targetIDs: ((Context, [Entity.ID]) -> [Entity.ID])? {
        get { extrasBox?.value.targetIDs }
        set { if makesExtras(unless: newValue == nil) { extrasBox!.value.targetIDs = newValue } }
    }

    @inlinable var columnFilters: [ColumnFilter] {
        get { extrasBox?.value.columnFilters ?? [] }
        set { if makesExtras(unless: newValue.isEmpty) { extrasBox!.value.columnFilters = newValue } }
    }

    @inlinable var filtersInStorage: Int {
        get { extrasBox?.value.filtersInStorage ?? 0 }
        set { if makesExtras(unless: newValue == 0) { extrasBox!.value.filtersInStorage = newValue } }
    }

    @inlinable var savedWithin: ClosedRange<Date>? {
        get { extrasBox?.value.savedWithin }
        set { if makesExtras(unless: newValue == nil) { extrasBox!.value.savedWithin = newValue } }
    }

    @inlinable var textSearch: FullTextSearch<Entity>? {
        get { extrasBox?.value.textSearch }
        set { if makesExtras(unless: newValue == nil) { extrasBox!.value.textSearch = newValue } }
    }

    @inlinable var keyset: KeysetBound? {
        get { extrasBox?.value.keyset }
        set { if makesExtras(unless: newValue == nil) { extrasBox!.value.keyset = newValue } }
    }

    @inlinable var hasKeysetFilter: Bool {
        get { extrasBox?.value.hasKeysetFilter ?? false }
        set { if makesExtras(unless: !newValue) { extrasBox!.value.hasKeysetFilter = newValue } }
    }

    @inlinable var ordersTiesByID: Bool {
        get { extrasBox?.value.ordersTiesByID ?? false }
        set { if makesExtras(unless: !newValue) { extrasBox!.value.ordersTiesByID = newValue } }
    }

    @inlinable var sortKeysetBound: ((Entity) -> KeysetBound?)? {
        get { extrasBox?.value.sortKeysetBound }
        set { if makesExtras(unless: newValue == nil) { extrasBox!.value.sortKeysetBound = newValue } }
    }

    @inlinable var sortKeysTie: ((Entity, Entity) -> Bool)? {
        get { extrasBox?.value.sortKeysTie }
        set { if makesExtras(unless: newValue == nil) { extrasBox!.value.sortKeysTie = newValue } }
    }

    @inlinable var filtersReadContext: Bool {
        get { extrasBox?.value.filtersReadContext ?? false }
        set { if makesExtras(unless: !newValue) { extrasBox!.value.filtersReadContext = newValue } }
    }
}
