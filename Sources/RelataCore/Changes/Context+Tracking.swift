// A Store write tracks what its closure changes (see `ChangeTracker`) and reads the write's
// `StoreDelta` from the marks: the new values at every place marked, never a diff of the state.

extension Context {
    /// Starts marking every entity and link that changes, for the write that owns `tracker`.
    /// The context must be the write's own copy (nothing else mutates it).
    mutating func beginTracking(_ tracker: ChangeTracker) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        storage.tracker = tracker
        for index in storage.tables.indices {
            if !isKnownUniquelyReferenced(&storage.tables[index]) {
                storage.tables[index] = storage.tables[index].clone()
            }
            storage.tables[index].setTracking(true)
        }
        if storage.dynamic != nil { mutableDynamicLinks().dirty = [] }
    }

    /// Whether this context is the one `tracker`'s write began tracking, or derived from it by
    /// mutation during that write (its marks then say exactly what differs from the state the
    /// write started from). A closure may instead assign a context built elsewhere, or a copy
    /// kept from an earlier write.
    func isTracked(by tracker: ChangeTracker) -> Bool {
        storage.tracker === tracker
    }

    /// Ends `tracker`'s write and stops marking here. Copies of this context that escaped the
    /// write stop marking when they are next mutated (see ``ChangeTracker``); tables shared with
    /// them are not touched, so they may be used on other threads meanwhile.
    mutating func endTracking(_ tracker: ChangeTracker) {
        tracker.end()
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        storage.tracker = nil
        for index in storage.tables.indices {
            if !isKnownUniquelyReferenced(&storage.tables[index]) {
                storage.tables[index] = storage.tables[index].clone()
            }
            storage.tables[index].setTracking(false)
        }
        if storage.dynamic != nil {
            if !isKnownUniquelyReferenced(&storage.dynamic!) { storage.dynamic = storage.dynamic!.clone() }
            storage.dynamic!.dirty = nil
        }
    }

    /// Marks, for `tracker`'s write, everything that differs from `base`: every entity and link
    /// of either context. For a write whose closure replaced the context. O(size of both).
    mutating func markAllChanged(since base: Context, tracker: ChangeTracker) {
        beginTracking(tracker)
        for (index, type) in base.storage.types.enumerated() where storage.index(of: type) == nil {
            // A type the new context lacks: an empty table, so its erased entities are found.
            let table = base.storage.tables[index].emptyCopy()
            table.setTracking(true)
            storage.types.append(type)
            storage.tables.append(table)
        }
        for table in storage.tables { table.markAllDirty(comparedTo: base) }
        if storage.dynamic != nil || base.storage.dynamic != nil {
            let links = mutableDynamicLinks()
            links.dirty = links.allLinks.union(base.storage.dynamic?.allLinks ?? [])
        }
    }

    /// The write's delta: for every place tracking marked, its value in this context — or in
    /// `source`, the state before the write, to undo it.
    ///
    /// - Parameter onEveryCore: Whether the tables and relations of a large delta are read on
    ///   several threads at once (the caller waits: only off Swift's cooperative pool).
    /// - Complexity: O(marks).
    func trackedDelta(valuesFrom source: Context? = nil, onEveryCore: Bool = false) -> StoreDelta {
        let values = source ?? self
        let readers = storage.tables.compactMap { $0.trackedDeltaReaders(in: self, values: values) }
        var delta = StoreDelta()
        let marks = readers.reduce(0) { $0 + $1.entityMarks + $1.relationMarks.reduce(0, +) }
        if onEveryCore, marks >= ParallelCoding.threshold {
            // One job per table's entities and per relation; then each table is put together.
            var jobs: [@Sendable () -> any Sendable] = [], sizes: [Int] = []
            for reader in readers {
                jobs.append { reader.entities() }
                sizes.append(reader.entityMarks)
                for (relation, marks) in zip(reader.relations, reader.relationMarks) {
                    jobs.append { relation() }
                    sizes.append(marks)
                }
            }
            var results = ParallelCoding.each(jobs, sizes: sizes)[...]
            for reader in readers {
                let entities = results.removeFirst() as! TableChange
                let relations = results.prefix(reader.relations.count).map { $0 as! RelationChange }
                results = results.dropFirst(reader.relations.count)
                delta.tables.append(entities.with(relations))
            }
        } else {
            for reader in readers {
                delta.tables.append(reader.entities().with(reader.relations.map { $0() }))
            }
        }
        if let dirty = storage.dynamic?.dirty {
            let dynamic = values.storage.dynamic
            delta.dynamicLinks = dirty.map { ($0, dynamic?.contains($0) ?? false) }
        }
        return delta
    }
}

/// What reads one table's part of a write's delta: its entities, and each relation it marked.
@usableFromInline
struct TableDeltaReaders: Sendable {
    /// Reads the entities (a ``TableChange`` without relations).
    @usableFromInline let entities: @Sendable () -> TableChange
    /// Read the relations, one each.
    @usableFromInline let relations: [@Sendable () -> RelationChange]
    /// How many entities were marked.
    @usableFromInline let entityMarks: Int
    /// How many links were marked in each relation of ``relations``.
    @usableFromInline let relationMarks: [Int]

    @inlinable
    init(entities: @escaping @Sendable () -> TableChange, relations: [@Sendable () -> RelationChange], entityMarks: Int, relationMarks: [Int]) {
        self.entities = entities
        self.relations = relations
        self.entityMarks = entityMarks
        self.relationMarks = relationMarks
    }
}

extension EntityTable {
    /// What reads this table's part of the write's delta (see
    /// ``Context/trackedDelta(valuesFrom:onEveryCore:)``): the places marked in `context` (whose
    /// table this is), with their values in `values`.
    @inlinable
    func makeTrackedDeltaReaders(in context: Context, values: Context) -> TableDeltaReaders? {
        guard let ids = dirty else { return nil }
        var builder = RelationDeltaBuilder(context: context, values: values)
        try? Entity._relataVisitRelations(&builder)
        guard !ids.isEmpty || !builder.readers.isEmpty else { return nil }
        let source = values.table(Entity.self)
        let entities: @Sendable () -> TableChange = {
            var entries = ContiguousArray<(id: Entity.ID, value: Entity?)>()
            entries.reserveCapacity(ids.count)
            for id in ids { entries.append((id, source?.entities[id])) }
            let stored = entries
            return TableChange(
                type: ObjectIdentifier(Entity.self), changes: TableDelta<Entity>(entities: stored, ids: ids), relations: [],
                bindEntities: { context in
                    guard !stored.isEmpty else { return {} }
                    let table = context.mutableTable(Entity.self)
                    // No `reserveCapacity`: reserving a little more at every write reallocates
                    // the whole table each time, where growing by itself doubles it.
                    return {
                        table.wroteEntities = true
                        for (id, value) in stored {
                            if table.faulter == nil { table.updateIndexes(old: table.entities[id], new: value) }
                            table.entities[id] = value
                        }
                    }
                },
                entityCount: stored.count
            )
        }
        return TableDeltaReaders(entities: entities, relations: builder.readers, entityMarks: ids.count, relationMarks: builder.marks)
    }
}

/// Makes what reads the marked links of each relation of one entity type into a
/// ``RelationDelta``: the pairs marked in `context`, with their values in `values`.
@usableFromInline
struct RelationDeltaBuilder: _RelationVisitor {
    @usableFromInline let context: Context
    @usableFromInline let values: Context
    @usableFromInline var readers: [@Sendable () -> RelationChange] = []
    /// How many links each reader reads.
    @usableFromInline var marks: [Int] = []

    @inlinable
    init(context: Context, values: Context) {
        self.context = context
        self.values = values
    }

    @inlinable
    mutating func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        let key = descriptor.key
        guard let (marked, dirty) = context.table(S.self)?.trackedLinks(key, T.ID.self) else { return }
        let links = values.storage === context.storage ? marked : values.table(S.self)?.existingLinkTable(key, T.ID.self)
        marks.append(dirty.count)
        readers.append {
            var delta = RelationDelta(descriptor: descriptor)
            if key.toMany {
                delta.toMany.reserveCapacity(dirty.count)
                for pair in dirty { delta.toMany.append((pair.source, pair.target, links?.many[pair.source]?.key(of: pair.target))) }
            } else {
                delta.toOne.reserveCapacity(dirty.count)
                for pair in dirty { delta.toOne.append((pair.source, links?.one[pair.source])) }
            }
            let changes = delta
            return RelationChange(
                key: key, changes: changes,
                bind: { context in
                    let links = context.mutableTable(S.self).linkTable(key, T.ID.self)
                    // A one-way relation's backlinks live in the target type's table.
                    let backlinks = descriptor.inverse == nil ? context.backlinks(descriptor) : nil
                    return { changes.apply(to: links, backlinks: backlinks) }
                },
                count: changes.count
            )
        }
    }
}

extension RelationDelta {
    /// Writes the entries into `links` (the relation's table in the copy being brought up to
    /// date) and, for a one-way relation, the targets' `backlinks`.
    @inlinable
    func apply(to links: LinkTable<Source.ID, Target.ID>, backlinks: Backlinks<Source, Target>?) {
        for (source, target, key) in toMany {
            // Pair by pair: lists are patched, not replaced, so two copies of the state never
            // share a list buffer that the next write would copy whole.
            if let key {
                links.place(target, in: source, at: key)
                backlinks?.insert(source, for: target)
            } else {
                links.remove(target, from: source, toMany: true)
                backlinks?.remove(source, for: target)
            }
        }
        for (source, new) in toOne {
            // One hash lookup per entry: set (or remove) and learn the target it replaced.
            let old = if let new { links.one.updateValue(new, forKey: source) } else { links.one.removeValue(forKey: source) }
            guard old != new, let backlinks else { continue }
            // Replacing a one-way to-one target moves its backlink.
            if let old { backlinks.remove(source, for: old) }
            if let new { backlinks.insert(source, for: new) }
        }
    }
}
