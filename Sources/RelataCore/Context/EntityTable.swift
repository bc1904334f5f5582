import Foundation

/// Type-erased base of ``EntityTable`` so tables of every type fit in one dictionary.
@usableFromInline
class AnyEntityTable: @unchecked Sendable {
    /// The store-side code of the table's type, which a Store write calls for this table.
    @usableFromInline let descriptor: _EntityStoreDescriptor
    @usableFromInline init(descriptor: _EntityStoreDescriptor) { self.descriptor = descriptor }
    @usableFromInline func clone() -> AnyEntityTable { fatalError("abstract") }
    /// Points the faulters of the table, its link tables and its backlink indexes at `base`
    /// (tables a context takes, see `Context.init(over:taking:)`); `false` when the table reads
    /// no storage (it has no faulter).
    func repointFaulters(to base: ContextBase) -> Bool { false }
    func checkInvariants(in context: Context) throws {}
    /// Starts (or stops) recording which entities and links change (a Store write).
    @usableFromInline func setTracking(_ on: Bool) {}
    /// Whether an entity of this type owns `id` (links to it through a `.cascadeOrphans`
    /// relation), leaving out the owners in `except`.
    func ownsTarget<Target: EntityModelProtocol>(
        _: Target.Type, id: Target.ID, in context: Context, except: Set<EntityReference>
    ) -> Bool { false }
    /// How many entities the table holds.
    var entityCount: Int { 0 }
    /// In a context over storage: how many ids the table holds the answer for, and sources its
    /// link tables hold the links of.
    var heldRowCount: Int { 0 }
    /// Marks every entity and link of this table and of its counterpart in `base` as changed.
    func markAllDirty(comparedTo base: Context) { fatalError("abstract") }
    /// An empty table of the same type.
    func emptyCopy() -> AnyEntityTable { fatalError("abstract") }
    /// Makes the indexes in memory again if the entities were set without them (a load).
    func remakeIndexes() {}
    /// In a context over storage: reads every entity of the type, the links of each through
    /// every relation and their dynamic relationships, as a whole load would hold them — and the
    /// links of the sources with no entity that this table holds in part or `other` (the same
    /// type's table in another context: what storage holds now) holds.
    func holdEverything(in context: Context, alongside other: AnyEntityTable?) {}
}

/// The entities of one type, the links of each of its relations, and the backlinks of the
/// one-way relations of other types that point to it.
///
/// Its hot properties are `@exclusivity(unchecked)`: they are reached through a class, so every
/// access paid a run-time exclusivity check (~8% of an in-memory save). A table is only mutated
/// by the one writer that owns its copy of the context (see `Context.mutableTable`); the Store's
/// background catch-up writes the other copy's tables only (see `PublishedContext`).
@usableFromInline
final class EntityTable<Entity: EntityModelProtocol>: AnyEntityTable, @unchecked Sendable {
    /// Normalized entities: every relation is `.none`.
    @usableFromInline @exclusivity(unchecked) var entities = EntityStorage<Entity.ID, Entity>()
    /// Link tables by relation ordinal (`LinkTable<Entity.ID, Target.ID>`), created on first use.
    @usableFromInline @exclusivity(unchecked) var links: ContiguousArray<AnyLinkTable?> = []
    /// Sources of one-way relations of other types that point to entities of this type.
    @usableFromInline @exclusivity(unchecked) var backlinks: [RelationKey: AnyBacklinks] = [:]
    /// The ids whose entity was stored or erased since tracking began, or `nil` when not tracking.
    @usableFromInline @exclusivity(unchecked) var dirty: Set<Entity.ID>?
    /// How many ids the last tracked write marked: the next one starts with room for as many (a
    /// bulk load's writes are alike, and growing the set from empty rehashes it a dozen times).
    private var lastDirtyCount = 0
    /// In a context over storage (see ``ContextBase``): reads the entities the table does not
    /// hold yet. `nil` in a context that holds everything.
    @usableFromInline @exclusivity(unchecked) var faulter: EntityFaulter<Entity>?
    /// The ids the table holds the answer for (an entity, or none), read or written here.
    @usableFromInline @exclusivity(unchecked) var loadedIDs: Set<Entity.ID> = []
    /// Whether the table holds every entity of the type.
    @usableFromInline @exclusivity(unchecked) var holdsAll = false
    /// Whether an entity was stored or erased here (not only read from the base): the stored
    /// count of the type is then not the table's.
    @usableFromInline @exclusivity(unchecked) var wroteEntities = false
    /// In a table that reads storage, the hash indexes of the type's one-property ``Unique``
    /// declarations over the entities written here (made at the first write): a save's collision
    /// check finds another holder among them by lookup, where testing every written entity made
    /// a write of `n` such entities O(n²). Storage answers for the rest.
    @usableFromInline @exclusivity(unchecked) var writtenIndexes: [MemoryIndex<Entity>]?

    /// The type's declared indexes kept in memory (see ``MemoryIndex``), in a context that holds
    /// every entity: made by the first save or erase, then kept by each (``setEntity(_:for:)``);
    /// remade where entities are set another way (a load, a write's changes applied).
    @usableFromInline @exclusivity(unchecked) var memoryIndexes: [MemoryIndex<Entity>]?
    /// In a context that holds every entity: the ids in the order of their save times (the
    /// times are in ``entities``' slots), which answer `filter(.updated(within:))`; `nil` in a
    /// table that reads storage (storage's index answers there) and before the first save.
    @usableFromInline @exclusivity(unchecked) var saveOrder: SaveOrder<Entity.ID>?

    @inlinable init() { super.init(descriptor: Entity._relataStoreDescriptor) }

    /// Makes sure the table holds the answer for `id`: read from the base the first time, in a
    /// context over storage; nothing otherwise.
    @inlinable @inline(__always)
    func ensure(_ id: Entity.ID) {
        // The only cost in a context that holds everything: the slow path stays out of line.
        if faulter != nil { fault(id) }
    }

    @inlinable @inline(never)
    func fault(_ id: Entity.ID) {
        guard let faulter, !holdsAll, !loadedIDs.contains(id) else { return }
        guard let found = faulter.read([id]) else { return }
        if let index = found.entities.firstIndex(where: { $0.0 == id }) { keepRead(found.entities[index].1, for: id, savedAt: found.times[index]) }
        loadedIDs.insert(id)
        if faulter.placesRowLinks { for fill in faulter.rowLinks { fill(self, [id], found.rows) } }
    }

    /// Reads the entities of those of `ids` the table does not hold, in one batch; with
    /// `placingRowLinks`, their rows' to-one links go to their link tables too (a caller about
    /// to read every relation of them: an erasure), whatever the faulter does by default.
    @inlinable
    func ensure(_ ids: some Collection<Entity.ID>, placingRowLinks: Bool = false) {
        guard let faulter, !holdsAll else { return }
        // Marked loaded as they are picked (one hash operation each, and each once); unmarked
        // if the read fails.
        var missing: [Entity.ID] = []
        for id in ids where loadedIDs.insert(id).inserted { missing.append(id) }
        guard !missing.isEmpty else { return }
        guard let found = faulter.read(missing) else {
            for id in missing { loadedIDs.remove(id) }
            return
        }
        // Only ids of `missing` are found: none is held.
        for (index, (id, entity)) in found.entities.enumerated() { keepRead(entity, for: id, savedAt: found.times[index]) }
        if faulter.placesRowLinks || placingRowLinks { for fill in faulter.rowLinks { fill(self, missing, found.rows) } }
    }

    /// Whether the table holds the answer for each of `ids` (reading them reads no storage).
    @inlinable
    func holds(_ ids: some Collection<Entity.ID>) -> Bool {
        faulter == nil || holdsAll || ids.allSatisfy { loadedIDs.contains($0) }
    }

    /// The entity `id`, read from the base if the table does not hold it.
    @inlinable @inline(__always)
    func entity(_ id: Entity.ID) -> Entity? {
        ensure(id)
        return entities[id]
    }

    /// Stores `entity` (or erases it, `nil`) under `id`; in a context over storage, the table
    /// holds the answer for `id` from then on.
    @inlinable
    func setEntity(_ entity: Entity?, for id: Entity.ID) {
        // An erasure takes the entity's time out of the order first (its slot goes with it).
        if entity == nil, saveOrder != nil { setSavedAt(nil, for: id) }
        if faulter != nil {
            loadedIDs.insert(id)
            wroteEntities = true
            updateWrittenIndexes(old: entities[id], new: entity)
        }
        if faulter == nil { updateIndexes(old: entities[id], new: entity) }
        entities[id] = entity
    }

    /// Stores `entity` as the entity `id`, saved at `time` (a save: its entity and its time
    /// found with one hash lookup), as ``setEntity(_:for:)`` does.
    @inlinable
    func setEntity(_ entity: Entity, for id: Entity.ID, savedAt time: Date) {
        if faulter != nil {
            loadedIDs.insert(id)
            wroteEntities = true
            updateWrittenIndexes(old: entities[id], new: entity)
        }
        if faulter == nil { updateIndexes(old: entities[id], new: entity) }
        let old = entities.store(entity, for: id, savedAt: time)
        if saveOrder != nil, old != time { moveSaveTime(id, from: old, to: time) }
    }

    /// Keeps `entity`, read from storage, with the time its row keeps (as ``setSavedAt(_:for:)``
    /// would set it): one hash lookup when the table did not hold it.
    @inlinable
    func keepRead(_ entity: Entity, for id: Entity.ID, savedAt time: Date?) {
        if entities.place(entity, for: id, timeIfNew: time) != nil {
            if let time { setSavedAt(time, for: id) }
        } else if saveOrder != nil, let time {
            moveSaveTime(id, from: nil, to: time)
        }
    }

    /// When the entity `id` was last saved (here, or as read from storage with it), if the
    /// table holds it and its time (see ``Metadata``).
    @inlinable
    func savedAt(_ id: Entity.ID) -> Date? { entities.time(of: id) }

    /// Sets the save time of the entity `id`, which the table holds (nothing otherwise), keeping
    /// ``saveOrder``.
    @inlinable
    func setSavedAt(_ time: Date?, for id: Entity.ID) {
        let old = entities.setTime(time, for: id)
        if saveOrder != nil, old != time { moveSaveTime(id, from: old, to: time) }
    }

    /// Keeps ``saveOrder`` as the time of `id` changes from `old` to `new`.
    @inlinable
    func moveSaveTime(_ id: Entity.ID, from old: Date?, to new: Date?) {
        saveOrder!.move(id, from: old, to: new, live: entities.count) { entities.time(of: $0) }
    }

    /// Keeps the indexes in memory as `old` becomes `new` (made first, from every entity, when
    /// the table has none yet).
    @inlinable @inline(__always)
    func updateIndexes(old: @autoclosure () -> Entity?, new: Entity?) {
        if let memoryIndexes {
            if !memoryIndexes.isEmpty { updateIndexes(memoryIndexes, old: old(), new: new) }
        } else {
            rebuildIndexes()
            updateIndexes(old: old(), new: new)
        }
    }

    /// Keeps ``writtenIndexes`` as an entity held as `old` (read or written) is written as `new`
    /// (a hash index's removal of an entity it does not hold does nothing).
    @inlinable @inline(__always)
    func updateWrittenIndexes(old: @autoclosure () -> Entity?, new: Entity?) {
        if writtenIndexes == nil { makeWrittenIndexes() }
        if let writtenIndexes, !writtenIndexes.isEmpty { updateIndexes(writtenIndexes, old: old(), new: new) }
    }

    @usableFromInline
    func makeWrittenIndexes() {
        writtenIndexes = Entity._relataIndexes.filter { $0.kind == .unique && $0.keyPaths.count == 1 }.compactMap { $0.memoryIndex?() }
    }

    /// The ids of the entities written here that pass one of `lookups`, from
    /// ``writtenIndexes``; `nil` when none of them answers (or nothing was written).
    func writtenIDs(_ lookups: [IndexLookup<Entity>]) -> [Entity.ID]? {
        guard let writtenIndexes else { return nil }
        for index in writtenIndexes {
            if let ids = index.ids(lookups) { return ids }
        }
        return nil
    }

    @usableFromInline @inline(never)
    func updateIndexes(_ indexes: [MemoryIndex<Entity>], old: Entity?, new: Entity?) {
        for index in indexes {
            if let old { index.remove(old) }
            if let new { index.insert(new) }
        }
    }

    /// Makes the indexes in memory from every entity the table holds (none for a type that
    /// declares none, and none in a table that reads storage: storage answers there).
    @usableFromInline
    func rebuildIndexes() {
        guard faulter == nil else {
            memoryIndexes = []
            saveOrder = nil
            return
        }
        if saveOrder == nil {
            saveOrder = SaveOrder(sorting: zip(entities.ids, entities.times).compactMap { id, time in time.map { (id, $0) } })
        }
        let made = Entity._relataIndexes.compactMap { $0.memoryIndex?() }
        for index in made { index.build(from: entities.values) }
        memoryIndexes = made
    }

    override func remakeIndexes() {
        if memoryIndexes == nil { rebuildIndexes() }
    }

    /// The first `count` entities passing `isIncluded` in the order of the property `column`,
    /// and every one after them tying with the last, read from a sorted index of it in memory —
    /// within the range of a lookup of that property, if one is given; `nil` when the table reads
    /// storage or keeps no such index. Entities with equal values come in the table's order
    /// (`tiesInTableOrder`; the index keeps its own), so that the first `count` are those a stable
    /// sort of every entity by the property puts first, and a sort breaking ties by id finds its
    /// first `count` among them. `lookupsAreFilters` says `isIncluded` tests the lookups and
    /// nothing else: when each is of that property and exact, no entity is read.
    @inlinable
    func firstIndexedIDs(
        orderedBy column: String, descending: Bool, lookups: [IndexLookup<Entity>], count: Int,
        where isIncluded: (Entity) -> Bool, lookupsAreFilters: Bool, tiesInTableOrder: Bool
    ) -> [Entity.ID]? {
        guard faulter == nil, let memoryIndexes else { return nil }
        for index in memoryIndexes where Entity.columnName(of: index.keyPath) == column {
            let testsEntities = !(lookupsAreFilters && lookups.allSatisfy { $0.isExact && $0.keyPath == index.keyPath })
            // The ids found, and where each run of equal values starts among them.
            var found: [Entity.ID] = [], runStarts: [Int] = []
            // Whether a value other than the last found one's came since (an id left out may start it).
            var isFull = false, startsRun = true
            let ordered = count == 0 || index.forEachInOrder(descending: descending, within: lookups) { id, tiesWithPrevious in
                if isFull, !tiesWithPrevious { return false }
                if !tiesWithPrevious { startsRun = true }
                if testsEntities {
                    guard let entity = entities[id], isIncluded(entity) else { return true }
                }
                if startsRun {
                    runStarts.append(found.count)
                    startsRun = false
                }
                found.append(id)
                isFull = isFull || found.count >= count
                return true
            }
            guard ordered else { continue }
            guard tiesInTableOrder, runStarts.count < found.count else { return found }
            for (place, start) in runStarts.enumerated() {
                let end = place + 1 < runStarts.count ? runStarts[place + 1] : found.count
                guard end - start > 1 else { continue }
                found.replaceSubrange(start..<end, with: tableOrdered(Array(found[start..<end])))
            }
            return found
        }
        return nil
    }

    /// The ids of the entities passing the lookups of the index that answers with the fewest
    /// (every lookup of its property), in the table's order (`inTableOrder`; otherwise in no
    /// order); `nil` when the table reads storage, or no declared index answers any.
    @inlinable
    func indexedIDs(_ lookups: [IndexLookup<Entity>], inTableOrder: Bool = true) -> [Entity.ID]? {
        indexAnswer(lookups, inTableOrder: inTableOrder)?.ids
    }

    /// The ids ``indexedIDs(_:inTableOrder:)`` gives, and whether they are exactly the entities
    /// passing every one of `lookups` (the index that gave them answers each exactly: see
    /// ``MemoryIndex/answersExactly(_:)``).
    @inlinable
    func indexAnswer(_ lookups: [IndexLookup<Entity>], inTableOrder: Bool = true) -> (ids: [Entity.ID], exact: Bool)? {
        // Never made here: a read does not write tables its context's copies share.
        guard faulter == nil, let memoryIndexes, !memoryIndexes.isEmpty else { return nil }
        var best: (ids: [Entity.ID], index: MemoryIndex<Entity>, exact: Bool?)?
        for index in memoryIndexes {
            if let found = index.answer(lookups), found.ids.count < best?.ids.count ?? .max { best = (found.ids, index, found.exact) }
            // No index gives fewer than one (a unique value's holder).
            if let best, best.ids.count <= 1 { break }
        }
        guard let best else { return nil }
        let exact = best.exact ?? best.index.answersExactly(lookups)
        guard inTableOrder, best.ids.count > 1 else { return (best.ids, exact) }
        return (tableOrdered(best.ids), exact)
    }

    /// `ids` (of entities the table holds) in the table's order: each position looked up once.
    @inlinable
    func tableOrdered(_ ids: [Entity.ID]) -> [Entity.ID] {
        let positions = entities.positions
        let keys = ids.map { positions[$0] ?? 0 }
        return keys.indices.sorted { keys[$0] < keys[$1] }.map { ids[$0] }
    }

    /// How many entities pass `lookups` (each exact), counted by the first declared index that
    /// answers them, without listing their ids where it can; `nil` as for
    /// ``indexedIDs(_:inTableOrder:)``.
    func indexedCount(_ lookups: [IndexLookup<Entity>]) -> Int? {
        guard faulter == nil, let memoryIndexes else { return nil }
        for index in memoryIndexes {
            if let count = index.count(lookups) { return count }
        }
        return nil
    }

    /// The ids of the entities last saved within `range`, in the table's order, from the save
    /// times kept in order (see ``SaveOrder``); `nil` when the table reads storage or keeps no
    /// such order yet.
    func savedIDs(within range: ClosedRange<Date>) -> [Entity.ID]? {
        guard faulter == nil, let saveOrder else { return nil }
        return tableOrdered(saveOrder.ids(within: range) { entities.time(of: $0) })
    }

    /// How many entities of the type there are: in a context over storage that wrote none of
    /// them, the stored count (read without reading the entities); otherwise every entity is held
    /// first.
    @inlinable
    func count() -> Int {
        if let faulter, !holdsAll, !wroteEntities, let stored = faulter.count() { return stored }
        ensureAll()
        return entities.count
    }

    /// The ids of the entities that may pass `filters` (a prefilter, see ``ColumnFilter``), read
    /// from storage by them, in the table's order: those whose stored rows pass, and those
    /// written here (what the table holds wins); `nil` when the table does not read storage or
    /// holds every entity already (then test them all). With `order` and `first`, storage sends
    /// only the first rows in that order, enough for the first `first` results whatever this
    /// table changed: `first` plus every id it stored or erased (``dirty`` in a write; every id
    /// it holds when it saved outside one). An entity it only read is storage's own row at the
    /// same commit, so it ranks there as here and adds nothing — a context that starts from the
    /// tables the last read kept (``PlacedRows``) asks for `first` rows, not more at every read.
    /// Without `order`, the first in id order. What storage found is kept, as reads keep what
    /// they read.
    @inlinable
    func ids(matching filters: [ColumnFilter], orderedBy order: [ColumnOrder] = [], first: Int? = nil) -> [Entity.ID]? {
        guard let found = storedRows(matching: filters, orderedBy: order, first: first) else { return nil }
        // An entity only read here is storage's own row at this commit: if storage did not send
        // it, it does not pass. Those stored or erased here are the caller's to test (all held
        // ones when it saved outside a write, which keeps no `dirty`).
        guard !wroteEntities || dirty != nil else { return Array(entities.ids) }
        // Storage sends each id once: with nothing written here, they are the answer.
        guard let dirty, !dirty.isEmpty else { return inTableOrder(found) }
        var kept = dirty
        kept.reserveCapacity(kept.count + found.count)
        for id in found { kept.insert(id) }
        return inTableOrder(Array(kept))
    }

    /// `ids` (each once, every one held) in the table's order: a few among many held are placed
    /// by their positions (hashing each held id instead cost a lookup after many others 40 µs
    /// with 1,000 held).
    @inlinable
    func inTableOrder(_ ids: [Entity.ID]) -> [Entity.ID] {
        if ids.count < 2 { return ids }
        guard ids.count < entities.count / 2 else {
            let kept = Set(ids)
            return entities.ids.filter(kept.contains)
        }
        return ids.compactMap { entities.positions[$0] }.sorted().map { entities.ids[$0] }
    }

    /// The ids of a query's window — its `count` results after the first `offset` — in order,
    /// when storage answers it whole: it tests `filters` exactly and keeps `order` (ties by id)
    /// for every matching row, and this table wrote no entity of the type (one written here
    /// could take a place in it). Otherwise, `isWindow` false, the ids to test and order in
    /// Swift, as ``ids(matching:orderedBy:first:)`` gives them for the first `offset + count`;
    /// `nil` as there.
    @inlinable
    func window(matching filters: [ColumnFilter], orderedBy order: [ColumnOrder], offset: Int, count: Int) -> (ids: [Entity.ID], isWindow: Bool)? {
        guard let faulter, !holdsAll, !wroteEntities else {
            return ids(matching: filters, orderedBy: order, first: offset + count).map { ($0, false) }
        }
        guard let found = faulter.readFirst(filters, order, count, skipping: offset) else { return nil }
        return (place(found, faulter), found.isExact && found.skipped == offset)
    }

    /// The ids of the rows storage sends for `filters` (as ``ids(matching:orderedBy:first:)``
    /// asks), those not written here (their rows are stale), in storage's order; `nil` as there,
    /// and when the table wrote entities outside a write (it keeps no ``dirty`` to tell them).
    func storedIDs(matching filters: [ColumnFilter], first: Int) -> [Entity.ID]? {
        guard !wroteEntities || dirty != nil, let found = storedRows(matching: filters, orderedBy: [], first: first) else { return nil }
        guard let dirty, !dirty.isEmpty else { return found }
        return found.filter { !dirty.contains($0) }
    }

    /// Reads the rows storage sends for `filters` into the table (what it holds already wins)
    /// and returns their ids: with `first`, enough for the first `first` after the ids the table
    /// stored or erased.
    @inlinable
    func storedRows(matching filters: [ColumnFilter], orderedBy order: [ColumnOrder], first: Int?) -> [Entity.ID]? {
        guard let faulter, !holdsAll else { return nil }
        let read =
            if let first {
                faulter.readFirst(filters, order, first + (wroteEntities ? dirty?.count ?? loadedIDs.count : 0))
            } else {
                faulter.readMatching(filters)
            }
        guard let found = read else { return nil }
        return place(found, faulter)
    }

    /// Keeps the entities a read of storage found (what the table holds already wins) and the
    /// links their rows hold; returns their ids, in the read's order.
    @inlinable
    func place(_ found: EntityReads<Entity>.Found, _ faulter: EntityFaulter<Entity>) -> [Entity.ID] {
        for (index, (id, entity)) in found.entities.enumerated() where loadedIDs.insert(id).inserted {
            keepRead(entity, for: id, savedAt: found.times[index])
        }
        let ids = found.entities.map { $0.0 }
        for fill in faulter.rowLinks { fill(self, ids, found.rows) }
        return ids
    }

    /// The first stored entity, in id order, among the rows storage sends for `filters` (a
    /// prefilter) that passes `isIncluded` and was not written here (its row is stale), read a
    /// page at a time until one passes: `.some(nil)` when none does; `nil` as for
    /// ``storedIDs(matching:first:)``, and when a read fails.
    func firstStoredID(matching filters: [ColumnFilter], where isIncluded: (Entity) -> Bool) -> Entity.ID?? {
        guard let faulter, !holdsAll, !wroteEntities || dirty != nil else { return nil }
        var after: String?
        repeat {
            guard let page = faulter.readPage(filters, after: after, limit: 16) else { return nil }
            for id in place(page.found, faulter) where dirty?.contains(id) != true {
                if let entity = entities[id], isIncluded(entity) { return id }
            }
            after = page.last
        } while after != nil
        return .some(nil)
    }

    /// How many entities of the type pass `filters` exactly, counted by storage, and the entities
    /// storage could not test (a filter's column NULL in their rows: the caller tests them); `nil`
    /// when storage cannot count by these filters, the table does not read storage or holds
    /// every entity, or it wrote entities of the type (their stored rows no longer answer for
    /// them). The untested entities are kept, as reads keep what they read.
    @inlinable
    func storedCount(matching filters: [ColumnFilter]) -> (count: Int, untested: [Entity])? {
        guard let faulter, !holdsAll, !wroteEntities, let found = faulter.readCount(filters) else { return nil }
        var untested: [Entity] = []
        for (index, (id, entity)) in found.untested.entities.enumerated() {
            if loadedIDs.insert(id).inserted { keepRead(entity, for: id, savedAt: found.untested.times[index]) }
            untested.append(entities[id] ?? entity)
        }
        for fill in faulter.rowLinks { fill(self, found.untested.entities.map { $0.0 }, found.untested.rows) }
        return (found.count, untested)
    }

    /// The ids of the entities `search` matches, best first (see ``FullTextSearch``); with
    /// `first`, at least the best `first` of them in their places (possibly more after them).
    ///
    /// In a context over storage with a full-text table for the properties, storage gives the
    /// statistics and the rows holding the search's trigrams, rarest trigram first, until no row
    /// holding only the trigrams left could beat the `first`-th score found (each trigram adds at
    /// most its weight to a score: a common one's is near zero); the entities this table holds
    /// (written or read here) are scored from their own values. In a context that holds every
    /// entity, the index in memory reads only the search's trigrams the same way
    /// (``FullTextMemoryIndex``). Otherwise every entity is held and scored.
    func rankedIDs(_ search: FullTextSearch<Entity>, first: Int?) -> [Entity.ID] {
        guard !search.distinct.isEmpty, first != 0 else { return [] }
        // Storage's statistics and every trigram's rows in one read transaction.
        if let faulter, !holdsAll, let properties = search.properties,
            let ranked = faulter.inOneRead({ rankedFromStorage(search, first: first, properties: properties, faulter) })
        {
            return ranked
        }
        if faulter == nil, let index = memoryIndexes?.lazy.compactMap({ $0 as? FullTextMemoryIndex<Entity> })
            .first(where: { $0.textKeyPaths == search.keyPaths })
        {
            return index.ranked(search, first: first)
        }
        ensureAll()
        return search.rank(zip(entities.ids, entities.values))
    }

    /// ``rankedIDs(_:first:)`` from storage's full-text table of `properties`: `nil` when storage
    /// has none.
    private func rankedFromStorage(
        _ search: FullTextSearch<Entity>, first: Int?, properties: [String], _ faulter: EntityFaulter<Entity>
    ) -> [Entity.ID]? {
        guard let found = faulter.readFullText(properties, search.distinct, containing: []) else { return nil }
        let statistics = FullTextSearch<Entity>.Statistics(
            documents: found.documents, totalLength: found.totalLength, documentFrequencies: found.documentFrequencies
        )
        // The entities held are scored from their own values (they may have been written
        // here); storage's rows of them are skipped (`seen` by their ids as stored).
        var scored: [FullTextSearch<Entity>.Scored] = []
        var seen = Set<String>()
        let scoring = FullTextSearch<Entity>.Scoring(search, statistics)
        for id in loadedIDs {
            // Held absent (erased here) or present: its row is not read.
            let text = FullTextSearch<Entity>.text(id)
            seen.insert(text)
            guard let entity = entities[id] else { continue }
            let document = search.document(entity)
            if !document.frequencies.isEmpty { scored.append((id, text, scoring.score(document))) }
        }
        // Rows are scored by their ids as stored; only those that rank are decoded.
        var stored: [FullTextSearch<Entity>.StoredScore] = []
        func add(_ rows: [FullTextCandidates.Row], _ scores: inout [Double]) {
            for row in rows where seen.insert(row.id).inserted {
                let score = scoring.score(.init(length: row.length, frequencies: row.frequencies))
                stored.append((row.id, score))
                scores.append(score)
            }
        }
        // Without `first`, the rows of every trigram some row holds, in one read.
        let held = search.distinct.indices.filter { statistics.documentFrequencies[$0] > 0 }
        var unused: [Double] = [], readPlaces: [Int] = []
        let read: Bool =
            if held.isEmpty {
                true
            } else if first == nil {
                faulter.readFullText(properties, search.distinct, containing: held).map { add($0.rows, &unused) } != nil
            } else {
                // Each trigram's rows without those of the trigrams read before (read then).
                search.readRarestFirst(statistics, first: first, known: scored.lazy.map { $0.score }) { place, scores in
                    defer { readPlaces.append(place) }
                    guard let rows = faulter.readFullText(properties, search.distinct, containing: [place], excluding: readPlaces)?.rows
                    else { return false }
                    add(rows, &scores)
                    return true
                }
            }
        guard read else {
            ensureAll()
            return search.rank(zip(entities.ids, entities.values))
        }
        return FullTextSearch<Entity>.ranked(scored, stored: stored, first: first)
    }

    /// Makes sure the table holds every entity of the type (what it holds already wins: it may
    /// have been written here).
    @inlinable
    func ensureAll() {
        guard let faulter, !holdsAll, let all = faulter.readAll() else { return }
        for (index, (id, entity)) in all.entities.enumerated() where loadedIDs.insert(id).inserted {
            keepRead(entity, for: id, savedAt: all.times[index])
        }
        holdsAll = true
        // Pages of a whole type are not kept by the row cache: their links are placed now.
        for fill in faulter.rowLinks { fill(self, nil, all.rows) }
    }

    override func holdEverything(in context: Context, alongside other: AnyEntityTable?) {
        guard faulter != nil else { return }
        ensureAll()
        let ids = Array(entities.ids)
        let others = other.map { unsafeDowncast($0, to: EntityTable.self).links } ?? []
        for (ordinal, table) in links.enumerated() {
            table?.ensureAll(ids, alongside: ordinal < others.count ? others[ordinal] : nil)
        }
        context.ensureDynamicLinks(of: Entity.self, ids: ids)
    }

    /// Marks `id` as changed, when tracking.
    @inlinable
    func touch(_ id: Entity.ID) {
        if dirty != nil { dirty!.insert(id) }
    }

    @usableFromInline override func setTracking(_ on: Bool) {
        if let dirty { lastDirtyCount = dirty.count }
        dirty = on ? Set(minimumCapacity: lastDirtyCount) : nil
        for table in links { table?.setTracking(on) }
    }

    override func repointFaulters(to base: ContextBase) -> Bool {
        guard let faulter else { return false }
        faulter.base = base
        for table in links { table?.repointFaulter(to: base) }
        for index in backlinks.values { index.repointFaulter(to: base) }
        return true
    }

    @usableFromInline override func clone() -> AnyEntityTable {
        let copy = EntityTable<Entity>()
        copy.dirty = dirty
        copy.entities = entities
        // A faulter of its own: a context that takes these tables points them at its base.
        copy.faulter = faulter?.copy()
        copy.loadedIDs = loadedIDs
        copy.holdsAll = holdsAll
        copy.memoryIndexes = memoryIndexes?.map { $0.copy() }
        copy.writtenIndexes = writtenIndexes?.map { $0.copy() }
        copy.saveOrder = saveOrder
        copy.links = ContiguousArray(links.map { $0?.clone() })
        copy.backlinks = backlinks.mapValues { $0.cloneBacklinks() }
        return copy
    }

    /// The link table of the relation `key` (whose targets have ids of type `TargetID`).
    @inlinable
    func linkTable<TargetID: Hashable & Sendable>(_ key: _AnyRelationKey, _: TargetID.Type) -> LinkTable<Entity.ID, TargetID> {
        let ordinal = key.ordinal
        if ordinal >= links.count {
            links.append(contentsOf: repeatElement(nil, count: ordinal - links.count + 1))
        }
        if let table = links[ordinal] {
            return unsafeDowncast(table, to: LinkTable<Entity.ID, TargetID>.self)
        }
        let table = LinkTable<Entity.ID, TargetID>()
        if dirty != nil { table.setTracking(true) }
        links[ordinal] = table
        return table
    }

    /// The link table of the relation `key` and the pairs tracking marked in it, if any.
    @inlinable
    func trackedLinks<TargetID: Hashable & Sendable>(
        _ key: _AnyRelationKey, _: TargetID.Type
    ) -> (links: LinkTable<Entity.ID, TargetID>, dirty: ContiguousArray<LinkPair<Entity.ID, TargetID>>)? {
        guard let links = existingLinkTable(key, TargetID.self), let dirty = links.dirty, !dirty.isEmpty else { return nil }
        return (links, dirty)
    }

    @inlinable
    func existingLinkTable<TargetID: Hashable & Sendable>(_ key: _AnyRelationKey, _: TargetID.Type) -> LinkTable<Entity.ID, TargetID>? {
        guard key.ordinal < links.count, let table = links[key.ordinal] else { return nil }
        return unsafeDowncast(table, to: LinkTable<Entity.ID, TargetID>.self)
    }

    override func ownsTarget<Target: EntityModelProtocol>(
        _: Target.Type, id: Target.ID, in context: Context, except: Set<EntityReference>
    ) -> Bool {
        var finder = OwnerFinder<Entity, Target>(context: context, target: id, except: except)
        try? Entity._relataVisitRelations(&finder)
        return finder.found
    }

    override func markAllDirty(comparedTo base: Context) {
        let old = base.table(Entity.self)
        var ids = Set(entities.ids)
        if let old { ids.formUnion(old.entities.ids) }
        dirty = ids
        let oldLinks = old?.links ?? []
        if oldLinks.count > links.count {
            links.append(contentsOf: repeatElement(nil, count: oldLinks.count - links.count))
        }
        for ordinal in links.indices {
            let previous = ordinal < oldLinks.count ? oldLinks[ordinal] : nil
            if links[ordinal] == nil { links[ordinal] = previous?.emptyClone() }
            links[ordinal]?.markAllDirty(comparedTo: previous)
        }
    }

    override func emptyCopy() -> AnyEntityTable { EntityTable<Entity>() }

    override var entityCount: Int { entities.count }

    override var heldRowCount: Int {
        links.reduce(loadedIDs.count) { $0 + ($1?.heldSourceCount ?? 0) }
    }

    override func checkInvariants(in context: Context) throws {
        if let mismatch = saveOrder?.mismatch(with: entities.timesByID) {
            throw RelataError(code: .invalidIndex, entityType: String(describing: Entity.self), message: mismatch)
        }
        for index in memoryIndexes ?? [] {
            if let mismatch = index.mismatch(with: Array(entities.values)) {
                throw RelataError(code: .invalidIndex, entityType: String(describing: Entity.self), message: mismatch)
            }
        }
        var checker = InvariantChecker<Entity>(context: context)
        try Entity._relataVisitRelations(&checker)
        for backlinks in backlinks.values {
            try backlinks.checkInvariants(in: context)
        }
    }
}
