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
        let readers = storage.tables.compactMap { $0.descriptor.deltaReaders($0, self, values) }
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
