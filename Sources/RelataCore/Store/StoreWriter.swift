import Dispatch
import Synchronization

/// Runs a ``Store``'s writes one at a time, in call order, and publishes the snapshot of storage
/// its readers read.
///
/// A store keeps no copy of the data. Readers get contexts over a snapshot of storage (the
/// sequence of the last commit the store knows), which read what they are asked about and refuse
/// rows changed since (`SnapshotReader`). A write runs its closure on a context over its own
/// write transaction — it holds the write lock, so it reads the newest state and nothing has to
/// catch up — then persists the closure's delta in that transaction and publishes the new
/// sequence; the rows it changed leave the shared ``RowCache``.
///
/// Jobs run on a serial dispatch queue of the actor's own (its executor), never on Swift's
/// cooperative pool: a write's closure, its payload encoding on every core and the backend's I/O
/// may block, as in GRDB's `SerializedDatabase`.
actor StoreWriter {
    private let executor = QueueExecutor(label: "Relata.Store.writer")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    nonisolated let backend: any StorageBackend
    /// Who this store's commits are from, in the change log.
    nonisolated let origin: String
    /// What readers get.
    nonisolated let published: PublishedState
    /// Who gets each commit after it is published.
    nonisolated let observers: ObservationHub
    /// The error of the last catch-up with other stores' commits that failed, until one succeeds
    /// (see ``Store/followError``).
    nonisolated let followFailure = Mutex<(any Error)?>(nil)
    /// The rows the store's contexts share (see ``RowCache``); `nil` with a cache limit of 0.
    nonisolated let cache: RowCache?
    var schema = EntitySchema([])
    /// The sequence of the last commit published.
    var sequence: Int64 = 0
    var isClosed = false
    /// The thread running a write, while one runs: a synchronous write called there (from the
    /// closure) would wait for itself.
    private nonisolated let writingThread = Atomic<UInt>(0)

    init(backend: any StorageBackend, origin: String, cacheLimit: Int, followsOthers: Bool) {
        self.backend = backend
        self.origin = origin
        cache = cacheLimit > 0 ? RowCache(limit: cacheLimit, sequence: 0) : nil
        // Placed tables cost more than the rows they hold: about a row's typed size (~256 bytes)
        // per id or link source, kept within half the cache's bytes.
        published = PublishedState(placedLimit: followsOthers ? cacheLimit / 512 : 0)
        observers = ObservationHub(published: published)
        observers.onBehind.withLock { behind in
            behind = { [weak self] in
                guard let self else { return }
                Task { try? await self.refresh() }
            }
        }
    }

    /// Rewrites every row written by an older version in the current form, once, under the
    /// write lock (another process opening the file at once finds it done).
    ///
    /// - Returns: Every row, loaded, and the sequence of the last commit (the upgrade's, if any).
    func upgrade() throws -> (ContextLoader, Int64) {
        try backend.write { transaction in
            let (current, sequence) = try Self.load(schema, from: transaction)
            guard let upgrade = try current.upgrade() else { return (current, sequence) }
            return (current, try transaction.persist(upgrade, origin: origin))
        }
    }

    /// Every stored row, loaded by `reader`, and the sequence they include.
    static func load(_ schema: EntitySchema, from reader: any StorageReader) throws -> (ContextLoader, Int64) {
        var loader = ContextLoader(schema: schema)
        let sequence = try reader.load(
            entities: { try loader.load($0) }, links: { try loader.load($0) }, dynamicLinks: { try loader.load($0) }
        )
        try loader.flush()
        return (loader, sequence)
    }

    /// Opens the store over `schema`: publishes the newest sequence in storage; no row is read, unless rows written by an older
    /// version have to be rewritten (once, see ``upgrade()``).
    ///
    /// - Returns: The rows the schema does not know (see ``Store/ignoredRecords``), counted from
    ///   the storage's inventory.
    func open(schema: EntitySchema) throws -> [String: Int] {
        self.schema = schema
        do {
            let inspection: StoreInspection
            // The declared indexes, made under the write lock below before the first read needs
            // them — when storage does not hold them already (asked in the same transaction).
            let indexes = schema.storedIndexes
            let holdsIndexes: Bool
            (inspection, sequence, holdsIndexes) = try backend.read { reader in
                (try StoreInspection(schema: schema, reading: reader), try reader.logBounds().last, try indexes.isEmpty || reader.holdsIndexes(indexes))
            }
            var ignored = inspection.ignored
            if inspection.needsUpgrade {
                let loader: ContextLoader
                (loader, sequence) = try upgrade()
                ignored = loader.ignored
            }
            // (An upgrade may have changed what the answer was read from.)
            if !indexes.isEmpty, !holdsIndexes || inspection.needsUpgrade { try backend.write { try $0.keepIndexes(indexes) } }
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

    /// One write called from another task (see ``Store/write(_:)-7h378``).
    func write<T: Sendable>(_ body: sending (inout Context) throws -> T) throws -> T {
        try perform(body)
    }

    /// One write, top to bottom, on the writer's queue.
    private func perform<T>(_ body: (inout Context) throws -> T) throws -> T {
        writingThread.store(ThreadID.current, ordering: .relaxed)
        defer { writingThread.store(0, ordering: .relaxed) }
        guard !isClosed else { throw RelataError.storeClosed }
        var made: (delta: StoreDelta, sequence: Int64)?
        var committed: (record: ChangeLogRecord, after: Int64, sequence: Int64, tails: ListTails)?
        let result = try backend.write { transaction -> T in
            // Observers get other stores' commits before this one, in order.
            try advance(reading: transaction)
            // The context answers as of this sequence once the write is over (a copy kept by the
            // closure); in the transaction, which holds the lock, it reads the newest state.
            let base = ContextBase(backend: backend, schema: schema, sequence: sequence, cache: cache)
            // The closure reads through the cache
            // (advanceOverStorage brought it up to the transaction's sequence, which holds the lock.)
            let readAt = sequence
            return try base.reading(through: transaction, cachedAt: sequence) {
                var working = Context(over: base)
                let tracker = ChangeTracker()
                working.beginTracking(tracker)
                defer { tracker.end() }
                let result = try body(&working)
                // What the closure linked without reading, read in one batch per relation.
                if working.isTracked(by: tracker) { working.resolveUnreadLinks() }
                // What storage held before the write, read as the delta needs it (made only now:
                // installing a context's readers is a tenth of a point write).
                var before: Context?
                if !working.isTracked(by: tracker) {
                    // The closure assigned a whole context: both are compared in full.
                    let whole = try Self.load(schema, from: transaction).0.context
                    // What it linked without reading is read as of its own snapshot first (a
                    // context kept from an earlier write may hold that write's appended tails).
                    working.resolveUnreadLinks()
                    working.holdEverything(alongside: whole)
                    if let failure = working.storage.base?.failure { throw failure }
                    working.markAllChanged(since: whole, tracker: tracker)
                    before = whole
                }
                let delta = working.trackedDelta(onEveryCore: true)
                // A read of the transaction that failed would make the delta wrong: nothing is written.
                if let failure = base.failure { throw failure }
                guard !delta.isEmpty else { return result }
                let rows = try delta.rows(after: working, before: before ?? Context(over: base))
                if let failure = base.failure { throw failure }
                guard !rows.isEmpty else {
                    made = (delta, self.sequence)
                    return result
                }
                // The keys of the rows: written to the log, and dropped from the cache once committed.
                let record = ChangeLogRecord(touching: rows)
                // Nothing after it throws: a backend may commit with the rows (see persistLast).
                let sequence = try transaction.persistLast(rows, record: record, origin: origin)
                made = (delta, sequence)
                // The lists a small write appended to end where it put their new links: the next
                // write to them reads no tail (see `ListTails`).
                let small = rows.upsertedEntities.count + rows.upsertedLinks.count <= RowCache.keptTailsPerWrite
                committed = (record, readAt, sequence, small ? cache?.tails(after: rows, at: readAt) ?? ListTails() : ListTails())
                return result
            }
        }
        followFailure.withLock { $0 = nil }
        // Committed: the rows it changed leave the cache.
        if let committed { cache?.applyCommit(committed.record, after: committed.after, sequence: committed.sequence, tails: committed.tails) }
        if let made {
            sequence = made.sequence
            publish(StoreCommit(sequence: made.sequence, kind: .local, delta: made.delta))
        }
        return result
    }

    /// One write on the calling thread (see ``Store/write(_:)-4nokt``): run on the writer's queue
    /// with `DispatchQueue.sync`, after the writes called before it, as GRDB's
    /// `DatabaseQueue.write` does.
    ///
    /// - Throws: ``RelataError/Code/reentrantWrite`` when called from a job of the writer (the
    ///   closure of another write), which would wait for itself; what ``write(_:)`` throws.
    nonisolated func writeOnCallingThread<T>(_ body: (inout Context) throws -> T) throws -> T {
        // (Not a dispatch queue-specific value: the closure runs inside the backend's own queue —
        // GRDB's — which does not target the writer's.)
        guard writingThread.load(ordering: .relaxed) != ThreadID.current else { throw RelataError.reentrantWrite }
        // `body` runs on this thread and does not escape: it is never used concurrently.
        nonisolated(unsafe) let body = body
        nonisolated(unsafe) var result: T?
        try executor.runSynchronously {
            try assumeIsolated { writer in result = try writer.perform(body) }
        }
        return result!
    }

    /// Publishes the commits other stores made since ``sequence``, as `reader` sees them. Their
    /// delta (read only when someone observes) holds the rows they touched as they are now; it
    /// reaches every query observer.
    func advance(reading reader: any StorageReader) throws {
        // The log's bounds and records, read once for the cache and the observers (from the
        // older of their two places).
        let bounds = try reader.logBounds()
        let observed = observers.isObserved
        let from = [cache?.appliedThrough, observed ? sequence : nil].compactMap { $0 }.min() ?? bounds.last
        let log = bounds.last > from
            ? ChangeLogCursor.Read(after: from, result: try ChangeLogCursor.commits(after: from, bounds: bounds, in: reader)) : nil
        try cache?.advance(reading: reader, bounds: bounds, log: log)
        guard observed else {
            let last = bounds.last
            guard last > sequence else { return }
            sequence = last
            publish(StoreCommit(sequence: last, kind: .remote, delta: StoreDelta()))
            return
        }
        guard let committed = try reader.changes(since: sequence, bounds: bounds, log: log) else { return }
        var commit: StoreCommit
        if committed.needsReload {
            // Counted by the cache, which drops what it kept (`RowCache.reloads`).
            commit = StoreCommit(sequence: committed.sequence, kind: .reload, delta: StoreDelta())
        } else {
            commit = StoreCommit(sequence: committed.sequence, kind: .remote, delta: try Context().catchUpDelta(committed, schema: schema))
        }
        commit.reachesEveryObserver = true
        sequence = committed.sequence
        publish(commit)
    }

    /// Publishes a snapshot at ``sequence`` and hands `commit` to the observers.
    private func publish(_ commit: StoreCommit) {
        published.publish(ContextBase(backend: backend, schema: schema, sequence: sequence, cache: cache))
        observers.publish(commit, context: published.pinnedSnapshot)
    }

    /// Catches up with every commit made elsewhere, now (see ``Store/refresh()``).
    func refresh() throws {
        guard !isClosed else { throw RelataError.storeClosed }
        do {
            try backend.read { try advance(reading: $0) }
            followFailure.withLock { $0 = nil }
        } catch {
            noteFollowFailure(error)
            throw error
        }
    }

    /// Keeps the error of a failed catch-up (the follower's, or ``refresh()``'s) for ``Store/followError``.
    func noteFollowFailure(_ error: any Error) {
        guard !(error is CancellationError) else { return }
        followFailure.withLock { $0 = error }
    }

    /// Closes the backend; later writes throw.
    func close() throws {
        guard !isClosed else { return }
        isClosed = true
        try backend.close()
    }
}
