import Foundation

// A Store write tracks which entities and links change, and turns them into rows (`StoreChanges`);
// opening a Store loads rows back into a context.

extension Context {
    /// Starts marking every entity and link source that changes, in this context only.
    mutating func beginTracking() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        storage.tracking = true
        for index in storage.tables.indices {
            if !isKnownUniquelyReferenced(&storage.tables[index]) {
                storage.tables[index] = storage.tables[index].clone()
            }
            storage.tables[index].setTracking(true)
        }
        if storage.dynamic != nil { mutableDynamicLinks().dirty = [] }
    }

    /// Stops marking changes. Call before the context is shared.
    mutating func endTracking() {
        if !isKnownUniquelyReferenced(&storage) {
            // A copy escaped the write: leave its tables alone.
            storage = storage.copy()
            for index in storage.tables.indices { storage.tables[index] = storage.tables[index].clone() }
            storage.dynamic = storage.dynamic?.clone()
        }
        storage.tracking = false
        for table in storage.tables { table.setTracking(false) }
        storage.dynamic?.dirty = nil
    }

    /// Whether this context is still the one a Store write began tracking (a closure may instead
    /// assign a context built elsewhere).
    var isIntactStoreWrite: Bool {
        storage.tracking
    }

    /// Marks everything that differs from `base` as changed, for a write whose changes were not
    /// tracked: every entity and link of either context is compared. O(size of both).
    mutating func markAllChanged(since base: Context) {
        beginTracking()
        for (index, type) in base.storage.types.enumerated() where storage.index(of: type) == nil {
            // A type the new context lacks: an empty table, so its erased rows are found.
            storage.types.append(type)
            storage.tables.append(base.storage.tables[index].emptyCopy())
        }
        for table in storage.tables { table.markAllDirty(comparedTo: base) }
        if storage.dynamic != nil || base.storage.dynamic != nil {
            let links = mutableDynamicLinks()
            links.dirty = links.allLinks.union(base.storage.dynamic?.allLinks ?? [])
        }
    }

    /// The rows changed since ``beginTracking()``: each changed entity's new value (or its erasure,
    /// if it existed in `base`), and each changed link (new, moved, or removed) of each side.
    /// `base`, the state before the write, is asked for only when the write erased an entity or
    /// changed a link stored in a link row (a write that only adds entities does not wait for it).
    func trackedChanges(since base: LazyContext) throws -> StoreChanges {
        let tables = storage.tables
        let context = self
        let collectLinks = { () -> Result<StoreChanges, any Error> in
            Result {
                var changes = StoreChanges()
                for table in tables { try table.collectLinkChanges(in: context, base: base, into: &changes) }
                return changes
            }
        }
        // In a large write, link rows are gathered on another thread while entity payloads are
        // encoded (on every core).
        let large = tables.reduce(0) { $0 + $1.trackedEntityCount } >= ParallelCoding.threshold
        let linkJob = large ? BackgroundJob(collectLinks) : nil
        var changes = StoreChanges()
        let entities = Result {
            for table in tables { try table.collectEntityChanges(in: self, base: base, into: &changes) }
        }
        let links = try (linkJob?.wait() ?? collectLinks()).get()
        try entities.get()
        changes.upsertedLinks = links.upsertedLinks
        changes.deletedLinks = links.deletedLinks
        if let dynamic = storage.dynamic, let dirty = dynamic.dirty, !dirty.isEmpty {
            let before = base.context.storage.dynamic
            for link in dirty {
                let now = dynamic.contains(link)
                guard now != (before?.contains(link) ?? false) else { continue }
                let record = try link.record()
                if now {
                    changes.insertedDynamicLinks.append(record)
                } else {
                    changes.deletedDynamicLinks.append(record)
                }
            }
        }
        return changes
    }
}

extension EntityTable {
    /// The entity rows changed since tracking began: those of the entities stored or erased, and
    /// those of the sources whose to-one links changed (a row holds both, see ``EntityRecord``).
    @inlinable
    func collectStoredEntities(in context: Context, base: LazyContext, into changes: inout StoreChanges) throws {
        let type = String(describing: Entity.self)
        var reader = ToOneLinkReader<Entity>(context: context, table: self, tracked: true)
        try Entity._relataVisitRelations(&reader)
        guard dirty != nil || !reader.dirtySources.isEmpty else { return }
        var sources = dirty ?? []
        sources.formUnion(reader.dirtySources)
        var rows: [(id: Entity.ID, entity: Entity?)] = []
        rows.reserveCapacity(sources.count)
        var vanished: [Entity.ID] = []
        for id in sources {
            let entity = entities[id]
            if entity == nil, !reader.hasLinks(id) {
                vanished.append(id)
            } else {
                rows.append((id, entity))
            }
        }
        if !vanished.isEmpty {
            // A row goes when neither its entity nor any to-one link is left, if it was stored.
            let base = base.context
            let old = base.table(Entity.self)
            var before = ToOneLinkReader<Entity>(context: base, table: old, tracked: false)
            try Entity._relataVisitRelations(&before)
            for id in vanished where old?.entities[id] != nil || before.hasLinks(id) {
                changes.deletedEntities.append(EntityKey(type: type, id: try IDText.encode(id)))
            }
        }
        let writers = reader.writers
        changes.upsertedEntities += try ParallelCoding.map(rows, worker: { PayloadEncoder() }) { encoder, row in
            EntityRecord(
                type: type, id: try IDText.encode(row.id),
                payload: try row.entity.map { try PayloadCoding.encode($0, with: encoder) } ?? Data(),
                links: try ToOneLinkColumn.encode { bytes in
                    var count = 0
                    for write in writers where try write(row.id, &bytes) { count += 1 }
                    return count
                }
            )
        }
    }

    /// The rows of the links of this type's relations changed since tracking began.
    @inlinable
    func collectChangedLinks(in context: Context, base: LazyContext, into changes: inout StoreChanges) throws {
        let type = String(describing: Entity.self)
        var collector = LinkChangeCollector<Entity>(context: context, base: base, table: self, type: type)
        try Entity._relataVisitRelations(&collector)
        changes.upsertedLinks += collector.upserted
        changes.deletedLinks += collector.deleted
    }
}

/// Diffs the dirty sources of each relation of `Entity` against the table before the write.
@usableFromInline
struct LinkChangeCollector<Entity: EntityModelProtocol>: _RelationVisitor {
    @usableFromInline let context: Context
    /// The state before the write, asked for only when a link row may have changed.
    @usableFromInline let lazyBase: LazyContext
    @usableFromInline let table: EntityTable<Entity>
    @usableFromInline let type: String
    @usableFromInline var upserted: [LinkRecord] = []
    @usableFromInline var deleted: [LinkKey] = []

    @inlinable
    init(context: Context, base: LazyContext, table: EntityTable<Entity>, type: String) {
        self.context = context
        self.lazyBase = base
        self.table = table
        self.type = type
    }

    /// The state before the write.
    @inlinable var base: Context { lazyBase.context }

    /// This type's table before the write.
    @inlinable var old: EntityTable<Entity>? { base.table(Entity.self) }

    @inlinable
    mutating func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        // To-one links are kept in the entity rows (``ToOneLinkReader``).
        guard descriptor.key.toMany else { return }
        switch descriptor.storedSide {
        case .derived: return
        case .pair: try collectPairs(descriptor)
        case .own: try collectOwn(descriptor)
        }
    }

    /// One row per link of a one-way relation (or one that is its own inverse).
    @inlinable
    mutating func collectOwn<S, T>(_ descriptor: RelationDescriptor<S, T>) throws {
        guard let (links, dirty) = table.trackedLinks(descriptor.key, T.ID.self) else { return }
        let before = old?.existingLinkTable(descriptor.key, T.ID.self) as LinkTable<Entity.ID, T.ID>?
        let relation = descriptor.name
        func record(_ source: Entity.ID, _ target: T.ID, _ key: PositionKey?) throws {
            upserted.append(
                LinkRecord(
                    type: type, relation: relation, source: try IDText.encode(source), target: try IDText.encode(target),
                    position: key?.description
                )
            )
        }
        func remove(_ source: Entity.ID, _ target: T.ID) throws {
            deleted.append(LinkKey(type: type, relation: relation, source: try IDText.encode(source), target: try IDText.encode(target)))
        }
        if descriptor.key.toMany {
            for pair in Set(dirty) {
                let new = links.many[pair.source]?.key(of: pair.target)
                let previous = before?.many[pair.source]?.key(of: pair.target)
                if let new {
                    if new != previous { try record(pair.source, pair.target, new) }
                } else if previous != nil {
                    try remove(pair.source, pair.target)
                }
            }
        } else {
            for source in Set(dirty.lazy.map { $0.source }) {
                let new = links.one[source]
                let previous = before?.one[source]
                guard new != previous else { continue }
                if let previous { try remove(source, previous) }
                if let new { try record(source, new, nil) }
            }
        }
    }
}

extension LinkChangeCollector {
    /// One row per linked pair of a mutual relation stored on this side: the pairs tracking marked
    /// on either side, written when their link or either position changed.
    @inlinable
    mutating func collectPairs<S, T>(_ descriptor: RelationDescriptor<S, T>) throws {
        let inverse = descriptor.inverse!
        let key = descriptor.key
        let forward = table.existingLinkTable(key, T.ID.self) as LinkTable<Entity.ID, T.ID>?
        let backward = context.table(T.self)?.existingLinkTable(inverse, Entity.ID.self)
        var pairs = Set<LinkPair<Entity.ID, T.ID>>()
        for pair in forward?.dirty ?? [] { pairs.insert(pair) }
        for pair in backward?.dirty ?? [] { pairs.insert(LinkPair(source: pair.target, target: pair.source)) }
        guard !pairs.isEmpty else { return }
        let oldForward = old?.existingLinkTable(key, T.ID.self) as LinkTable<Entity.ID, T.ID>?
        let oldBackward = base.table(T.self)?.existingLinkTable(inverse, Entity.ID.self)
        if !key.toMany {
            // A replaced to-one target: its old pair goes.
            for pair in pairs {
                if let previous = oldForward?.one[pair.source] { pairs.insert(LinkPair(source: pair.source, target: previous)) }
            }
        }
        func state(
            _ forward: LinkTable<Entity.ID, T.ID>?, _ backward: LinkTable<T.ID, Entity.ID>?, _ pair: LinkPair<Entity.ID, T.ID>
        ) -> (linked: Bool, key: PositionKey?, inverseKey: PositionKey?) {
            let position = key.toMany ? forward?.many[pair.source]?.key(of: pair.target) : nil
            let linked = key.toMany ? position != nil : forward?.one[pair.source] == pair.target
            let inversePosition = inverse.toMany ? backward?.many[pair.target]?.key(of: pair.source) : nil
            return (linked, position, inversePosition)
        }
        let relation = descriptor.name
        for pair in pairs {
            let now = state(forward, backward, pair), before = state(oldForward, oldBackward, pair)
            guard now.linked || before.linked else { continue }
            if now.linked, before.linked, now.key == before.key, now.inverseKey == before.inverseKey { continue }
            let source = try IDText.encode(pair.source), target = try IDText.encode(pair.target)
            if now.linked {
                upserted.append(
                    LinkRecord(
                        type: type, relation: relation, source: source, target: target,
                        position: now.key?.description, inversePosition: now.inverseKey?.description
                    )
                )
            } else {
                deleted.append(LinkKey(type: type, relation: relation, source: source, target: target))
            }
        }
    }
}

/// Reads the to-one links that `Entity` keeps in its entity rows: one reader per to-one relation
/// stored on this side (one-way, or the side that stores a mutual pair), and, when `tracked`,
/// the sources whose links tracking marked (on either side of a pair).
@usableFromInline
struct ToOneLinkReader<Entity: EntityModelProtocol>: _RelationVisitor {
    @usableFromInline let context: Context
    @usableFromInline let table: EntityTable<Entity>?
    @usableFromInline let tracked: Bool
    /// One per relation: appends the link of a source in ``ToOneLinkColumn``'s form to the bytes,
    /// and returns whether the source has one.
    @usableFromInline var writers: [@Sendable (Entity.ID, inout [UInt8]) throws -> Bool] = []
    @usableFromInline var dirtySources = Set<Entity.ID>()

    @inlinable
    init(context: Context, table: EntityTable<Entity>?, tracked: Bool) {
        self.context = context
        self.table = table
        self.tracked = tracked
    }

    /// Whether `source` has a to-one link kept in its row.
    @inlinable
    func hasLinks(_ source: Entity.ID) -> Bool {
        var scratch: [UInt8] = []
        return writers.contains { (try? $0(source, &scratch)) == true }
    }

    @inlinable
    mutating func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        let key = descriptor.key
        guard !key.toMany, descriptor.storedSide != .derived else { return }
        let links = table?.existingLinkTable(key, T.ID.self) as LinkTable<Entity.ID, T.ID>?
        let inverse = descriptor.inverse.flatMap { inverse in
            inverse.toMany ? context.table(T.self)?.existingLinkTable(inverse, Entity.ID.self) : nil
        }
        if tracked {
            let forward = links?.dirty ?? []
            let backward = descriptor.inverse.flatMap { context.table(T.self)?.existingLinkTable($0, Entity.ID.self) }?.dirty ?? []
            dirtySources.reserveCapacity(dirtySources.count + forward.count + backward.count)
            for pair in forward { dirtySources.insert(pair.source) }
            for pair in backward { dirtySources.insert(pair.target) }
        }
        guard let links else { return }
        let relation = descriptor.name
        writers.append { source, bytes in
            guard let target = links.one[source] else { return false }
            ToOneLinkColumn.append(
                relation: relation, target: try IDText.encode(target),
                inversePosition: inverse?.many[target]?.key(of: source), to: &bytes
            )
            return true
        }
    }
}
