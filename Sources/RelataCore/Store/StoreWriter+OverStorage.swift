// A store over storage keeps no replica. Readers get contexts over a snapshot of storage (the
// sequence of the last commit the store knows), which read what they are asked about and refuse
// rows changed since (`SnapshotReader`). A write runs its closure on a context over its own write
// transaction — it holds the write lock, so it reads the newest state and nothing has to catch
// up — then persists the closure's delta in that transaction and publishes the new sequence.

extension StoreWriter {
    /// Publishes the newest sequence in storage; no row is read, unless rows written by an older
    /// version have to be rewritten (once, see ``upgrade()``).
    ///
    /// - Returns: The rows the schema does not know (see ``Store/ignoredRecords``), counted from
    ///   the storage's inventory.
    func openOverStorage() throws -> [String: Int] {
        do {
            let inspection: StoreInspection
            (inspection, sequence) = try backend.read { reader in
                (try StoreInspection(schema: schema, reading: reader), try reader.logBounds().last)
            }
            var ignored = inspection.ignored
            if inspection.needsUpgrade {
                let loader: ContextLoader
                (loader, sequence) = try upgrade()
                ignored = loader.ignored
            }
            // The cache starts empty, as of that commit.
            cache?.reset(to: sequence)
            published.publish(ContextBase(backend: backend, schema: schema, sequence: sequence, cache: cache))
            return ignored
        } catch {
            isClosed = true
            try? backend.close()
            throw error
        }
    }

    /// One write over storage (see ``Store/write(_:)``).
    func writeOverStorage<T: Sendable>(_ body: sending (inout Context) throws -> T) throws -> T {
        var made: (delta: StoreDelta, sequence: Int64)?
        var committed: (record: ChangeLogRecord, after: Int64, sequence: Int64)?
        let result = try backend.write { transaction -> T in
            // Observers get other stores' commits before this one, in order.
            try advanceOverStorage(reading: transaction)
            // The context answers as of this sequence once the write is over (a copy kept by the
            // closure); in the transaction, which holds the lock, it reads the newest state.
            let base = ContextBase(backend: backend, schema: schema, sequence: sequence, cache: cache)
            // The closure reads through the cache
            // (advanceOverStorage brought it up to the transaction's sequence, which holds the lock.)
            let reader: any StorageReader = cache.map { CachingReader(transaction, cache: $0, at: sequence) } ?? transaction
            let readAt = sequence
            return try base.reading(through: reader) {
                var working = Context(over: base)
                var before = Context(over: base)
                let tracker = ChangeTracker()
                working.beginTracking(tracker)
                defer { tracker.end() }
                let result = try body(&working)
                if !working.isTracked(by: tracker) {
                    // The closure assigned a whole context: both are compared in full.
                    before = try Self.load(schema, from: transaction).0.context
                    working.holdEverything()
                    if let failure = working.storage.base?.failure { throw failure }
                    working.markAllChanged(since: before, tracker: tracker)
                }
                let delta = working.trackedDelta(onEveryCore: true)
                // A read of the transaction that failed would make the delta wrong: nothing is written.
                if let failure = base.failure { throw failure }
                guard !delta.isEmpty else { return result }
                let rows = try delta.rows(after: working, before: before)
                if let failure = base.failure { throw failure }
                let sequence = rows.isEmpty ? self.sequence : try transaction.persist(rows, origin: origin)
                made = (delta, sequence)
                if !rows.isEmpty { committed = (ChangeLogRecord(touching: rows), readAt, sequence) }
                return result
            }
        }
        followFailure.withLock { $0 = nil }
        // Committed: the rows it changed leave the cache.
        if let committed { cache?.applyCommit(committed.record, after: committed.after, sequence: committed.sequence) }
        if let made {
            sequence = made.sequence
            publishOverStorage(StoreCommit(sequence: made.sequence, kind: .local, delta: made.delta))
        }
        return result
    }

    /// Publishes the commits other stores made since ``sequence``, as `reader` sees them. Their
    /// delta (read only when someone observes) holds the rows they touched as they are now; it
    /// reaches every query observer.
    func advanceOverStorage(reading reader: any StorageReader) throws {
        try cache?.advance(reading: reader)
        guard observers.isObserved else {
            let last = try reader.logBounds().last
            guard last > sequence else { return }
            sequence = last
            publishOverStorage(StoreCommit(sequence: last, kind: .remote, delta: StoreDelta()))
            return
        }
        guard let committed = try reader.changes(since: sequence) else { return }
        var commit: StoreCommit
        if committed.needsReload {
            // Counted by the cache, which drops what it kept (`RowCache.reloads`).
            commit = StoreCommit(sequence: committed.sequence, kind: .reload, delta: StoreDelta())
        } else {
            commit = StoreCommit(sequence: committed.sequence, kind: .remote, delta: try Context().catchUpDelta(committed, schema: schema))
        }
        commit.reachesEveryObserver = true
        sequence = committed.sequence
        publishOverStorage(commit)
    }

    /// Publishes a snapshot at ``sequence`` and hands `commit` to the observers.
    private func publishOverStorage(_ commit: StoreCommit) {
        published.publish(ContextBase(backend: backend, schema: schema, sequence: sequence, cache: cache))
        observers.publish(commit, context: published.pinnedSnapshot)
    }
}
