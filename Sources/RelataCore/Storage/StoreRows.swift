import Foundation

// A write's `StoreDelta` as rows (`StoreChanges`): the rows of the places the delta names, with
// their values in the state after the write. The state before the write is asked only whether a
// row that goes was stored, and whether a link row's positions changed.

extension StoreDelta {
    /// The rows this delta changes: each touched entity's row (its value and to-one links) or its
    /// erasure, each changed to-many link row, each dynamic relationship made or removed.
    ///
    /// - Parameters:
    ///   - after: The state the write made.
    ///   - before: The state it started from.
    /// - Complexity: O(entries).
    func rows(after: Context, before: Context) throws -> StoreChanges {
        let tables = after.storage.tables
        let delta = self
        let collectLinks = { @Sendable () -> Result<StoreChanges, any Error> in
            Result {
                var changes = StoreChanges()
                for table in tables { try table.collectLinkRows(of: delta, after: after, before: before, into: &changes) }
                return changes
            }
        }
        // In a large write, link rows are gathered on another thread while entity payloads are
        // encoded (on every core). This runs on the store's writer queue, never on Swift's
        // cooperative pool, so it may wait for that thread.
        // A context over storage reads what it lacks as it goes: on this thread only.
        let linkJob = count >= ParallelCoding.threshold && after.storage.base == nil ? BackgroundJob(collectLinks) : nil
        var changes = StoreChanges()
        let entities = Result {
            for table in tables { try table.collectEntityRows(of: delta, after: after, before: before, into: &changes) }
        }
        let links = try (linkJob?.wait() ?? collectLinks()).get()
        try entities.get()
        changes.upsertedLinks = links.upsertedLinks
        changes.deletedLinks = links.deletedLinks
        let wasStored: (DynamicLink, DynamicLinkRecord) -> Bool
        if let base = before.storage.base, !dynamicLinks.isEmpty {
            // Over storage: which of them are stored, asked in one batch (a read that fails is
            // kept by the base, and the write then fails with it).
            let asked = try dynamicLinks.map { try $0.link.record() }
            let stored = Set(base.read { try $0.fetchDynamicLinks(asked) } ?? [])
            wasStored = { stored.contains($1) }
        } else {
            let dynamicBefore = before.storage.dynamic
            wasStored = { link, _ in dynamicBefore?.contains(link) ?? false }
        }
        for (link, present) in dynamicLinks {
            let record = try link.record()
            guard present != wasStored(link, record) else { continue }
            if present {
                changes.insertedDynamicLinks.append(record)
            } else {
                changes.deletedDynamicLinks.append(record)
            }
        }
        return changes
    }

    /// The delta's entries for the relation `key` of `Source`, if the write touched it.
    @inlinable
    func relation<Source, Target>(_ key: _AnyRelationKey, of: Source.Type, to: Target.Type) -> RelationDelta<Source, Target>? {
        for table in tables where table.type == ObjectIdentifier(Source.self) {
            for relation in table.relations where relation.key.ordinal == key.ordinal {
                return relation.changes as? RelationDelta<Source, Target>
            }
        }
        return nil
    }
}

extension EntityTable {
    /// The entity rows of `delta` for this type: those of the entities stored or erased, and
    /// those of the sources whose to-one links changed (a row holds both, see ``EntityRecord``).
    @inlinable
    func gatherEntityRows(of delta: StoreDelta, after: Context, before: Context, into changes: inout StoreChanges) throws {
        let type = EntitySchema.storageName(of: Entity.self)
        // The entities the write touched come with their values; the reader adds the sources
        // whose to-one links (kept in their rows) changed without their entity.
        let touched = delta.table(of: Entity.self)
        var reader = ToOneLinkReader<Entity>(context: after, table: self, delta: delta, known: touched?.ids ?? [], before: before)
        try Entity._relataVisitRelations(&reader)
        let count = (touched?.entities.count ?? 0) + reader.touchedSources.count
        guard count > 0 else { return }
        var rows: [(id: Entity.ID, entity: Entity?)] = []
        rows.reserveCapacity(count)
        var vanished: [Entity.ID] = []
        func add(_ id: Entity.ID, _ entity: Entity?) {
            if entity == nil, !reader.hasLinks(id) {
                vanished.append(id)
            } else {
                rows.append((id, entity))
            }
        }
        for (id, entity) in touched?.entities ?? [] { add(id, entity) }
        // The entities of sources touched through a link only, read in one batch.
        if !reader.touchedSources.isEmpty { ensure(reader.touchedSources) }
        for id in reader.touchedSources { add(id, entity(id)) }
        // What the links were before the write, for every source at once (a source each would
        // be a read each).
        if !reader.readBefore.isEmpty {
            let sources = rows.map { $0.id } + vanished
            for read in reader.readBefore { read(sources) }
        }
        if !vanished.isEmpty {
            // A row goes when neither its entity nor any to-one link is left, if it was stored.
            let old = before.table(Entity.self)
            old?.ensure(vanished)
            var previous = ToOneLinkReader<Entity>(context: before, table: old, delta: nil)
            try Entity._relataVisitRelations(&previous)
            for id in vanished where old?.entity(id) != nil || previous.hasLinks(id) {
                changes.deletedEntities.append(EntityKey(type: type, id: try IDText.encode(id, of: type)))
            }
        }
        // The targets whose list of sources the write changed: the old and the new target of
        // each to-one link set, moved or removed (other stores evict those lists).
        for (id, _) in rows { for moved in reader.movedTargets { try changes.toOneTargets += moved(id) } }
        for id in vanished { for moved in reader.movedTargets { try changes.toOneTargets += moved(id) } }
        if !rows.isEmpty { changes.indexes[type] = Entity._relataIndexes.compactMap { $0.stored } }
        let writers = reader.writers, times = updatedAt
        changes.upsertedEntities += try ParallelCoding.map(rows, serially: after.storage.base != nil, worker: { () }) { _, row in
            try PayloadCoding.record(
                of: row.entity, type: type, id: try IDText.encode(row.id, of: type),
                toOne: try {
                    var links: [ToOneLinkRecord] = []
                    for write in writers { _ = try write(row.id, &links) }
                    return links
                }(),
                updatedAt: row.entity == nil ? nil : times[row.id]
            )
        }
    }

    /// The link rows of `delta` for this type's to-many relations.
    @inlinable
    func gatherLinkRows(of delta: StoreDelta, after: Context, before: Context, into changes: inout StoreChanges) throws {
        var collector = LinkRowCollector<Entity>(delta: delta, after: after, before: before)
        try Entity._relataVisitRelations(&collector)
        changes.upsertedLinks += collector.upserted
        changes.deletedLinks += collector.deleted
    }
}

/// The link rows of each to-many relation of `Entity` that a delta touched, compared with the
/// state before the write: a row is written when its link or a position changed.
@usableFromInline
struct LinkRowCollector<Entity: EntityModelProtocol>: _RelationVisitor {
    @usableFromInline let delta: StoreDelta
    @usableFromInline let after: Context
    @usableFromInline let before: Context
    @usableFromInline let type: String
    @usableFromInline var upserted: [LinkRecord] = []
    @usableFromInline var deleted: [LinkKey] = []

    @inlinable
    init(delta: StoreDelta, after: Context, before: Context) {
        self.delta = delta
        self.after = after
        self.before = before
        self.type = EntitySchema.storageName(of: Entity.self)
    }

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

    /// One row per link of a one-way to-many relation (or one that is its own inverse).
    @inlinable
    mutating func collectOwn<S, T>(_ descriptor: RelationDescriptor<S, T>) throws {
        guard let entries = delta.relation(descriptor.key, of: S.self, to: T.self)?.toMany else { return }
        let key = descriptor.key
        let now = after.table(S.self)?.existingLinkTable(key, T.ID.self)
        let old = before.table(S.self)?.existingLinkTable(key, T.ID.self)
        var pairs = Set<LinkPair<S.ID, T.ID>>(minimumCapacity: entries.count)
        for (source, target, _) in entries { pairs.insert(LinkPair(source: source, target: target)) }
        // The old lists of every source in one read, not one each.
        old?.ensure(pairs.map { $0.source })
        for pair in pairs {
            let new = now?.key(of: pair.target, in: pair.source)
            let previous = old?.list(of: pair.source)?.key(of: pair.target)
            try write(descriptor.name, pair.source, pair.target, linked: new != nil, wasLinked: previous != nil,
                      changed: new != previous, position: new, inversePosition: nil)
        }
    }

    /// One row per linked pair of a many-to-many relation stored on this side: the pairs the
    /// delta touched on either side, written when their link or either position changed.
    @inlinable
    mutating func collectPairs<S, T>(_ descriptor: RelationDescriptor<S, T>) throws {
        let key = descriptor.key, inverse = descriptor.inverse!
        var pairs = Set<LinkPair<S.ID, T.ID>>()
        for (source, target, _) in delta.relation(key, of: S.self, to: T.self)?.toMany ?? [] {
            pairs.insert(LinkPair(source: source, target: target))
        }
        for (source, target, _) in delta.relation(inverse, of: T.self, to: S.self)?.toMany ?? [] {
            pairs.insert(LinkPair(source: target, target: source))
        }
        guard !pairs.isEmpty else { return }
        typealias State = (linked: Bool, key: PositionKey?, inverseKey: PositionKey?)
        func state(in context: Context, _ pair: LinkPair<S.ID, T.ID>) -> State {
            let position = context.table(S.self)?.existingLinkTable(key, T.ID.self)?.key(of: pair.target, in: pair.source)
            let backward = inverse.toMany ? context.table(T.self)?.existingLinkTable(inverse, S.ID.self) : nil
            return (position != nil, position, backward?.key(of: pair.source, in: pair.target))
        }
        // The lists of every pair's source and target read in one batch per side, not one each.
        let sources = pairs.map { $0.source }, targets = pairs.map { $0.target }
        for context in [after, before] {
            context.table(S.self)?.existingLinkTable(key, T.ID.self)?.ensure(sources)
            if inverse.toMany { context.table(T.self)?.existingLinkTable(inverse, S.ID.self)?.ensure(targets) }
        }
        for pair in pairs {
            let now = state(in: after, pair), previous = state(in: before, pair)
            try write(descriptor.name, pair.source, pair.target, linked: now.linked, wasLinked: previous.linked,
                      changed: now.key != previous.key || now.inverseKey != previous.inverseKey,
                      position: now.key, inversePosition: now.inverseKey)
        }
    }

    /// Appends the row of one link: written when it is linked and new or moved, removed when it
    /// was linked and is no more.
    @inlinable
    mutating func write<SourceID: Encodable, TargetID: Encodable>(
        _ relation: String, _ source: SourceID, _ target: TargetID, linked: Bool, wasLinked: Bool, changed: Bool,
        position: PositionKey?, inversePosition: PositionKey?
    ) throws {
        if linked {
            guard changed || !wasLinked else { return }
            upserted.append(
                LinkRecord(
                    type: type, relation: relation, source: try IDText.encode(source, of: type, relation: relation),
                    target: try IDText.encode(target, of: type, relation: relation),
                    position: position?.description, inversePosition: inversePosition?.description
                )
            )
        } else if wasLinked {
            deleted.append(
                LinkKey(
                    type: type, relation: relation, source: try IDText.encode(source, of: type, relation: relation),
                    target: try IDText.encode(target, of: type, relation: relation)
                )
            )
        }
    }
}

/// Reads the to-one links that `Entity` keeps in its entity rows: one reader per to-one relation
/// stored on this side (one-way, or the side that stores a mutual pair), and, given a delta,
/// the sources whose row it touches (a to-one link set or removed, or a position in the inverse
/// to-many list moved).
@usableFromInline
struct ToOneLinkReader<Entity: EntityModelProtocol>: _RelationVisitor {
    @usableFromInline let context: Context
    @usableFromInline let table: EntityTable<Entity>?
    @usableFromInline let delta: StoreDelta?
    /// One per relation: appends the link of a source to the links of its row, and returns
    /// whether the source has one.
    @usableFromInline var writers: [@Sendable (Entity.ID, inout [ToOneLinkRecord]) throws -> Bool] = []
    /// Sources whose row a delta touches through a link, except those in `known`.
    @usableFromInline var touchedSources = Set<Entity.ID>()
    /// Sources the caller has already (the entities the delta stores or erases).
    @usableFromInline let known: Set<Entity.ID>
    /// The state before the write, when the targets a source's links moved from are wanted.
    @usableFromInline let before: Context?
    /// One per relation, given `before`: the targets whose sources a source's link changed (its
    /// old and new target, or its target when its place in the target's list moved).
    @usableFromInline var movedTargets: [@Sendable (Entity.ID) throws -> [LinkTargetKey]] = []
    /// One per relation, given `before`: reads the old links of a batch of sources into
    /// `before` at once (what ``movedTargets`` then looks up, source by source).
    @usableFromInline var readBefore: [@Sendable ([Entity.ID]) -> Void] = []

    @inlinable
    init(context: Context, table: EntityTable<Entity>?, delta: StoreDelta?, known: Set<Entity.ID> = [], before: Context? = nil) {
        self.context = context
        self.table = table
        self.delta = delta
        self.known = known
        self.before = before
    }

    /// Whether `source` has a to-one link kept in its row.
    @inlinable
    func hasLinks(_ source: Entity.ID) -> Bool {
        var scratch: [ToOneLinkRecord] = []
        return writers.contains { (try? $0(source, &scratch)) == true }
    }

    @inlinable
    mutating func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        let key = descriptor.key
        guard !key.toMany, descriptor.storedSide != .derived else { return }
        let links = context.table(S.self)?.existingLinkTable(key, T.ID.self)
        let inverse = descriptor.inverse.flatMap { inverse in
            inverse.toMany ? context.table(T.self)?.existingLinkTable(inverse, S.ID.self) : nil
        }
        if let delta {
            // `S` is `Entity` (these are its relations): the sources are noted through a closure
            // typed for `Entity`, cast once, never a collection cast element by element.
            var found = Set<Entity.ID>()
            let known = known
            let noteEntity: (Entity.ID) -> Void = { source in
                if !known.contains(source) { found.insert(source) }
            }
            if let note = noteEntity as? (S.ID) -> Void {
                for (source, _) in delta.relation(key, of: S.self, to: T.self)?.toOne ?? [] { note(source) }
                if let inverseKey = descriptor.inverse, let backward = delta.relation(inverseKey, of: T.self, to: S.self) {
                    // A moved position in the inverse list is kept in this side's row.
                    for (_, source, _) in backward.toMany { note(source) }
                    for case (_, let source?) in backward.toOne { note(source) }
                }
            }
            touchedSources.formUnion(found)
        }
        let relation = descriptor.name
        let sourceType = EntitySchema.storageName(of: S.self)
        let oldLinks = before?.table(S.self)?.existingLinkTable(key, T.ID.self)
        // The stored places in the old lists, from the sources' rows (so the old list is not
        // read for them).
        let oldPlaces = StoredPlaces<S.ID>()
        // The place of `source` in the list of `target`, its to-one target now: kept from its
        // row when the write left both the link and the list unread (it cannot have moved it).
        let position: @Sendable (S.ID, T.ID) -> PositionKey? = { source, target in
            guard let inverse else { return nil }
            if !inverse.holdsKey(of: source, in: target), let stored = oldPlaces.keys[source], oldLinks?.target(of: source) == target {
                return stored
            }
            return inverse.key(of: source, in: target)
        }
        if let before {
            let oldInverse = descriptor.inverse.flatMap { inverse in
                inverse.toMany ? before.table(T.self)?.existingLinkTable(inverse, S.ID.self) : nil
            }
            let moved: @Sendable (S.ID) throws -> [LinkTargetKey] = { source in
                let new = links?.target(of: source), old = oldLinks?.target(of: source)
                let newPosition = new.flatMap { position(source, $0) }
                let oldPosition = old.flatMap { oldPlaces.keys[source] ?? oldInverse?.key(of: source, in: $0) }
                guard new != old || newPosition != oldPosition else { return [] }
                return try Set([old, new].compactMap { $0 }).map {
                    LinkTargetKey(type: sourceType, relation: relation, target: try IDText.encode($0, of: sourceType, relation: relation))
                }
            }
            if let moved = moved as? @Sendable (Entity.ID) throws -> [LinkTargetKey] { movedTargets.append(moved) }
            let oldEntities = oldInverse == nil ? nil : before.table(S.self)
            let read: @Sendable ([S.ID]) -> Void = { sources in
                guard let oldEntities, let faulter = oldEntities.faulter, let oldLinks else {
                    oldLinks?.ensure(sources)
                    return
                }
                let unread = Array(Set(sources.filter { !oldLinks.loaded.contains($0) }))
                guard !unread.isEmpty, let rows = faulter.rows(unread) else { return }
                // The rows hold every to-one link of the sources: held from now.
                for fill in faulter.rowLinks { fill(oldEntities, unread, rows) }
                for row in rows {
                    guard let link = row.toOne.first(where: { $0.relation == relation }),
                        let key = link.inversePosition.flatMap(PositionKey.init), let source = try? IDText.decode(row.id, as: S.ID.self)
                    else { continue }
                    oldPlaces.keys[source] = key
                }
            }
            if let read = read as? @Sendable ([Entity.ID]) -> Void { readBefore.append(read) }
        }
        guard let links else { return }
        let writer: @Sendable (S.ID, inout [ToOneLinkRecord]) throws -> Bool = { source, links_ in
            guard let target = links.target(of: source) else { return false }
            links_.append(
                ToOneLinkRecord(
                    relation: relation, target: try IDText.encode(target, of: sourceType, relation: relation),
                    inversePosition: position(source, target)?.description
                )
            )
            return true
        }
        if let writer = writer as? @Sendable (Entity.ID, inout [ToOneLinkRecord]) throws -> Bool { writers.append(writer) }
    }
}
