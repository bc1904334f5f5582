import Foundation

/// The normalized store of entities and their links.
///
/// `Context` is a value: copying it is O(1) and a copy is an independent snapshot (copy-on-write,
/// per entity type). Mutate it through `inout`, as every `save` and `delete` does:
///
/// ```swift
/// var context = Context()
/// try chat.save(to: &context)
/// let snapshot = context          // unaffected by later saves
/// ```
///
/// Entities are stored with their relations stripped (``EntityModelProtocol/normalize()``); the
/// links live in one table per relation, and both directions of a mutual relation are written
/// in the same operation.
public struct Context: Sendable {
    @usableFromInline
    var storage: Storage

    /// An empty context.
    public init() {
        storage = Storage()
    }

    @usableFromInline
    init(storage: Storage) {
        self.storage = storage
    }

    /// A shared empty storage, for placeholders that are never mutated.
    @usableFromInline
    static let emptyStorage = Storage()

    /// The entity tables, one per type. A short array scanned by type identity: a program has
    /// few entity types, and comparing a few pointers is cheaper than hashing on every access.
    /// The properties every save or read touches are `@exclusivity(unchecked)`, like the tables'
    /// own (a storage is mutated only by the context that holds it uniquely, under its lock when
    /// shared): the run-time exclusivity checks were 5 % of an in-memory save.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @usableFromInline @exclusivity(unchecked) var types: ContiguousArray<ObjectIdentifier> = []
        @usableFromInline @exclusivity(unchecked) var tables: ContiguousArray<AnyEntityTable> = []
        /// Jitter for new position keys; reseeded in every copy so copies draw different keys.
        @usableFromInline @exclusivity(unchecked) var generator = JitterGenerator()

        @usableFromInline init() {}

        /// Changes recorded since ``Context/beginRecordingChanges(replica:)``, if recording.
        @usableFromInline @exclusivity(unchecked) var recorder: ChangeRecorder?
        /// The Store write whose changes the tables mark, if any (see `Context.beginTracking(_:)`).
        @usableFromInline @exclusivity(unchecked) var tracker: ChangeTracker?
        /// Dynamic relationships, once one is made (see `Context.relate(_:_:_:)`).
        var dynamic: DynamicLinks?
        /// Records what is read, for an observed closure (see `Context.recordingReads(into:)`);
        /// copies do not inherit it.
        @usableFromInline @exclusivity(unchecked) var region: RegionRecorder?
        /// What a context over storage reads what it does not hold from (see
        /// `Context.init(over:)`); `nil` in a context that holds everything.
        @usableFromInline @exclusivity(unchecked) var base: ContextBase?
        /// The entities whose dynamic relationships a context over storage holds.
        var dynamicLoaded: Set<EntityReference> = []
        /// In a Store write over storage: what its closure left unread, read in one batch before
        /// the write's delta (see ``WriteOverlay``); empty in every other context.
        @usableFromInline @exclusivity(unchecked) var write = WriteOverlay()

        /// A copy sharing the tables (each is copied when first mutated), with fresh jitter.
        @usableFromInline
        func copy() -> Storage {
            let copy = Storage()
            copy.types = types
            copy.tables = tables
            copy.recorder = recorder
            // A copy made after its write ended stops tracking (see `ChangeTracker`).
            copy.tracker = tracker?.isActive == true ? tracker : nil
            copy.dynamic = dynamic
            copy.base = base
            copy.dynamicLoaded = dynamicLoaded
            copy.write = write
            return copy
        }

        /// Whether a running Store write tracks this storage's changes.
        @inlinable var isTracking: Bool {
            tracker?.isActive == true
        }

        @inlinable
        func index(of type: ObjectIdentifier) -> Int? {
            var i = 0
            while i < types.count {
                if types[i] == type { return i }
                i += 1
            }
            return nil
        }
    }

    /// The table of `Entity`, read-only; `nil` if nothing of that type was ever stored.
    @inlinable
    func table<Entity: EntityModelProtocol>(_: Entity.Type) -> EntityTable<Entity>? {
        guard let index = storage.index(of: ObjectIdentifier(Entity.self)) else { return nil }
        return unsafeDowncast(storage.tables[index], to: EntityTable<Entity>.self)
    }

    /// The table of `Entity`, unique to this context, so that it can be mutated in place.
    @inlinable
    mutating func mutableTable<Entity: EntityModelProtocol>(_: Entity.Type) -> EntityTable<Entity> {
        if !isKnownUniquelyReferenced(&storage) {
            storage = storage.copy()
        }
        // A copy that escaped a write which has ended: it no longer tracks (see `ChangeTracker`).
        if let tracker = storage.tracker, !tracker.isActive { storage.tracker = nil }
        let key = ObjectIdentifier(Entity.self)
        guard let index = storage.index(of: key) else {
            let table = EntityTable<Entity>()
            if storage.tracker != nil { table.setTracking(true) }
            storage.types.append(key)
            storage.tables.append(table)
            return table
        }
        if !isKnownUniquelyReferenced(&storage.tables[index]) {
            storage.tables[index] = storage.tables[index].clone()
        }
        let table = unsafeDowncast(storage.tables[index], to: EntityTable<Entity>.self)
        // Marks left by a write that has ended (this is a copy that escaped it): stop marking.
        if table.dirty != nil, storage.tracker == nil { table.setTracking(false) }
        return table
    }
}

// MARK: - Reading

extension Context {
    /// The stored entity of this type and id (normalized: every relation is `.none`).
    ///
    /// - Complexity: O(1).
    @inlinable
    public func entity<Entity: EntityModelProtocol>(_ type: Entity.Type, id: Entity.ID) -> Entity? {
        exclusively {
            noteRead(.entity(ObjectIdentifier(Entity.self), AnyHashable(id)))
            return table(Entity.self)?.entity(id)
        }
    }

    /// The stored entity of this type and id.
    ///
    /// - Throws: ``RelataError`` with code ``RelataError/Code/entityNotFound`` naming the type and id.
    public func find<Entity: EntityModelProtocol>(_ type: Entity.Type, id: Entity.ID) throws -> Entity {
        guard let entity = entity(type, id: id) else {
            throw RelataError.entityNotFound(Entity.self, id: id)
        }
        return entity
    }

    /// The ids of every stored entity of this type, in no particular order.
    public func ids<Entity: EntityModelProtocol>(of type: Entity.Type) -> [Entity.ID] {
        exclusively {
            noteRead(.type(ObjectIdentifier(Entity.self)))
            guard let table = table(Entity.self) else { return [] }
            table.ensureAll()
            return Array(table.entities.ids)
        }
    }

    /// The ids of the stored entities of this type that may pass `filters` (see
    /// ``ColumnFilter``), found by them in storage; `nil` when this context does not read storage
    /// for the type or holds all of it (test every entity then).
    /// With `order` and `first`, storage sends only enough rows for the first `first` results in
    /// that order.
    @inlinable
    func ids<Entity: EntityModelProtocol>(
        of type: Entity.Type, matching filters: [ColumnFilter], orderedBy order: [ColumnOrder] = [], first: Int? = nil
    ) -> [Entity.ID]? {
        exclusively {
            noteRead(.type(ObjectIdentifier(Entity.self)))
            return table(Entity.self)?.ids(matching: filters, orderedBy: order, first: first)
        }
    }

    /// ``EntityTable/window(matching:orderedBy:offset:count:)`` of `type`'s table: a query's
    /// window as storage answers it, when it can answer it whole; `nil` as
    /// ``ids(of:matching:orderedBy:first:)``.
    @inlinable
    func window<Entity: EntityModelProtocol>(
        of type: Entity.Type, matching filters: [ColumnFilter], orderedBy order: [ColumnOrder], offset: Int, count: Int
    ) -> (ids: [Entity.ID], isWindow: Bool)? {
        exclusively {
            noteRead(.type(ObjectIdentifier(Entity.self)))
            return table(Entity.self)?.window(matching: filters, orderedBy: order, offset: offset, count: count)
        }
    }

    /// The ids of the rows storage sends for `filters` that this context did not write, and the
    /// ids of the entities it wrote that pass one of `lookups` (see
    /// ``EntityTable/writtenIDs(_:)``): together, every entity that may hold what the lookups
    /// test, without testing each written one; `nil` when either cannot answer.
    func storedAndWrittenIDs<Entity: EntityModelProtocol>(
        of type: Entity.Type, matching filters: [ColumnFilter], _ lookups: [IndexLookup<Entity>], first: Int
    ) -> [Entity.ID]? {
        exclusively {
            noteRead(.type(ObjectIdentifier(Entity.self)))
            guard let table = table(Entity.self), let written = table.writtenIDs(lookups),
                let stored = table.storedIDs(matching: filters, first: first)
            else { return nil }
            return stored + written
        }
    }

    /// The first entity of this type that passes `isIncluded` among the rows storage sends for
    /// `filters` that this context did not write, read a page at a time until one passes (see
    /// ``EntityTable/firstStoredID(matching:where:)``), and after them those it wrote that pass
    /// one of `lookups` (see ``EntityTable/writtenIDs(_:)``) — the order of
    /// ``storedAndWrittenIDs(of:matching:_:first:)``: `.some(nil)` when none does; `nil` when
    /// either cannot answer.
    func firstStoredOrWrittenID<Entity: EntityModelProtocol>(
        of type: Entity.Type, matching filters: [ColumnFilter], _ lookups: [IndexLookup<Entity>], where isIncluded: (Entity) -> Bool
    ) -> Entity.ID?? {
        exclusively {
            noteRead(.type(ObjectIdentifier(Entity.self)))
            guard let table = table(Entity.self) else { return nil }
            // A table that wrote nothing has no index of its writes, and nothing to find there.
            guard let written = table.wroteEntities ? table.writtenIDs(lookups) : [],
                let stored = table.firstStoredID(matching: filters, where: isIncluded)
            else { return nil }
            if let stored { return stored }
            return written.first { id in table.entity(id).map(isIncluded) ?? false }
        }
    }

    /// The ids of the entities of this type passing one of `lookups`, found in an index the
    /// context keeps in memory (see ``EntityTable/indexedIDs(_:)``); `nil` when none answers.
    @inlinable
    func indexedIDs<Entity: EntityModelProtocol>(of type: Entity.Type, _ lookups: [IndexLookup<Entity>], inTableOrder: Bool = true) -> [Entity.ID]? {
        indexAnswer(of: type, lookups, inTableOrder: inTableOrder)?.ids
    }

    /// The ids ``indexedIDs(of:_:inTableOrder:)`` gives, and whether they are exactly the
    /// entities passing every one of `lookups` (see ``EntityTable/indexAnswer(_:inTableOrder:)``).
    @inlinable
    func indexAnswer<Entity: EntityModelProtocol>(
        of type: Entity.Type, _ lookups: [IndexLookup<Entity>], inTableOrder: Bool = true
    ) -> (ids: [Entity.ID], exact: Bool)? {
        exclusively {
            noteRead(.type(ObjectIdentifier(Entity.self)))
            return table(Entity.self)?.indexAnswer(lookups, inTableOrder: inTableOrder)
        }
    }

    /// How many entities of this type pass `lookups` (exact ones), counted by an index the
    /// context keeps in memory; `nil` when none answers.
    @usableFromInline
    func indexedCount<Entity: EntityModelProtocol>(of type: Entity.Type, _ lookups: [IndexLookup<Entity>]) -> Int? {
        exclusively {
            noteRead(.type(ObjectIdentifier(Entity.self)))
            return table(Entity.self)?.indexedCount(lookups)
        }
    }

    /// The ids of the entities of this type last saved within `range`, in the table's order,
    /// from the save times the context keeps in order (see ``SaveOrder``); `nil` when it keeps
    /// none (a context over storage: storage's index answers there).
    @usableFromInline
    func savedIDs<Entity: EntityModelProtocol>(of type: Entity.Type, within range: ClosedRange<Date>) -> [Entity.ID]? {
        exclusively {
            noteRead(.type(ObjectIdentifier(Entity.self)))
            return table(Entity.self)?.savedIDs(within: range)
        }
    }

    /// The first `count` entities of this type passing `isIncluded` in the order of `order`'s
    /// property, from a sorted index the context keeps in memory (see
    /// ``EntityTable/firstIndexedIDs(orderedBy:descending:lookups:count:where:lookupsAreFilters:tiesInTableOrder:)``).
    @inlinable
    func firstIndexedIDs<Entity: EntityModelProtocol>(
        of type: Entity.Type, orderedBy order: ColumnOrder, lookups: [IndexLookup<Entity>], count: Int,
        where isIncluded: (Entity) -> Bool, lookupsAreFilters: Bool, tiesInTableOrder: Bool
    ) -> [Entity.ID]? {
        exclusively {
            noteRead(.type(ObjectIdentifier(Entity.self)))
            return table(Entity.self)?.firstIndexedIDs(
                orderedBy: order.column, descending: order.descending, lookups: lookups, count: count, where: isIncluded,
                lookupsAreFilters: lookupsAreFilters, tiesInTableOrder: tiesInTableOrder
            )
        }
    }

    /// How many stored entities of this type pass `filters` exactly, counted by storage, and the
    /// entities it could not test (see ``EntityTable/storedCount(matching:)``); `nil` when
    /// storage cannot answer for this context.
    @usableFromInline
    func storedCount<Entity: EntityModelProtocol>(of type: Entity.Type, matching filters: [ColumnFilter]) -> (count: Int, untested: [Entity])? {
        exclusively {
            noteRead(.type(ObjectIdentifier(Entity.self)))
            return table(Entity.self)?.storedCount(matching: filters)
        }
    }

    /// The ids of the entities of this type `search` matches, best first (with `first`, the
    /// best `first` at least).
    @usableFromInline
    func rankedIDs<Entity: EntityModelProtocol>(of type: Entity.Type, _ search: FullTextSearch<Entity>, first: Int?) -> [Entity.ID] {
        exclusively {
            noteRead(.type(ObjectIdentifier(Entity.self)))
            return table(Entity.self)?.rankedIDs(search, first: first) ?? []
        }
    }

    /// The number of stored entities of this type.
    ///
    /// - Complexity: O(1) in a context a ``Store`` handed out that has not written entities of
    ///   the type (storage keeps the count); O(n) the first time otherwise (every entity is read).
    public func count<Entity: EntityModelProtocol>(of type: Entity.Type) -> Int {
        exclusively {
            noteRead(.type(ObjectIdentifier(Entity.self)))
            return table(Entity.self)?.count() ?? 0
        }
    }

    /// The ids an entity links to through a relation, in order, without building any entity.
    ///
    /// ```swift
    /// let chatIDs = context.ids(of: "1", \User.$chats)
    /// ```
    @inlinable
    public func ids<Source: EntityModelProtocol, Target, D, C, K>(
        of id: Source.ID,
        _ keyPath: KeyPath<Source, Relation<Target, D, C, K>>
    ) -> [Target.ID] {
        let key = Source.relationKey(keyPath)
        return exclusively {
            noteRead(.links(ObjectIdentifier(Source.self), key.ordinal, AnyHashable(id)))
            return table(Source.self)?.existingLinkTable(key, Target.ID.self)?.targets(of: id, toMany: key.toMany) ?? []
        }
    }

    /// The ids an entity links to through a to-many relation in one page of its list — its first
    /// or last elements, or a range of offsets — without building any entity.
    ///
    /// ```swift
    /// // A chat screen: the newest 20 messages, whatever the chat's length.
    /// let newest = context.ids(of: "c0", \Chat.$messages, page: .last(20))
    /// ```
    ///
    /// - Complexity: in a context a ``Store`` handed out, a list the context has not read or
    ///   written is read a page at a time — the page's rows only, by index, and not kept — where
    ///   the relation's side stores its links; otherwise the list is read (once) and sliced.
    @inlinable
    public func ids<Source: EntityModelProtocol, Target, D, C, K>(
        of id: Source.ID,
        _ keyPath: KeyPath<Source, Relation<Target, D, C, K>>,
        page: ListPage
    ) -> [Target.ID] {
        let key = Source.relationKey(keyPath)
        return exclusively {
            noteRead(.links(ObjectIdentifier(Source.self), key.ordinal, AnyHashable(id)))
            guard let links = table(Source.self)?.existingLinkTable(key, Target.ID.self) else { return [] }
            guard key.toMany else { return Array(page.slice(links.targets(of: id, toMany: false))) }
            return links.targets(of: id, page: page)
        }
    }

    /// The number of targets an entity links to through a relation, without building any entity.
    ///
    /// - Complexity: O(1); in a context a ``Store`` handed out, a list the context has not read
    ///   or written is counted by storage, on an index, without reading it.
    @inlinable
    public func count<Source: EntityModelProtocol, Target, D, C, K>(
        of id: Source.ID,
        _ keyPath: KeyPath<Source, Relation<Target, D, C, K>>
    ) -> Int {
        let key = Source.relationKey(keyPath)
        return exclusively {
            noteRead(.links(ObjectIdentifier(Source.self), key.ordinal, AnyHashable(id)))
            return table(Source.self)?.existingLinkTable(key, Target.ID.self)?.count(of: id, toMany: key.toMany) ?? 0
        }
    }
}

extension EntityModelProtocol {
    /// The relation key for a key path to a projected relation; a programmer error otherwise.
    @usableFromInline
    static func relationKey(_ keyPath: AnyKeyPath) -> _AnyRelationKey {
        KeyPathCaches.relationKeys.value(for: keyPath) {
            guard let key = _relataRelationKey(keyPath) else {
                preconditionFailure("\(keyPath) is not a @Relationship of \(Self.self)")
            }
            return key
        }
    }
}
