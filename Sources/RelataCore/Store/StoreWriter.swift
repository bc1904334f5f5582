import Dispatch
import Synchronization

/// Runs a ``Store``'s writes one at a time, in call order, and keeps the store's two copies of
/// its state (left-right).
///
/// **Invariant**, between two jobs of this actor:
/// - `published` holds the state of the last committed write. Readers copy it (O(1)) and never
///   wait: nothing here ever makes them.
/// - `spare` is this actor's own copy, which no reader is given. It equals the published state,
///   except right after a commit: it is then the state before that commit, and `pending` holds
///   the commit's delta, which the job queued by the commit applies before any later write.
/// - `spare` is `nil` only after a write whose changes could not be undone (its closure replaced
///   the whole context, or assigned one kept from elsewhere): the next write then starts from the
///   published copy itself, shared, and copies each table it touches, once.
///
/// A write mutates the spare in place, turns what its closure changed into one ``StoreDelta``,
/// persists the delta's rows, then publishes its copy; the copy published before becomes the
/// spare and receives the same delta. No write copies a table it touches (unless a reader still
/// holds the old copy of that table), and a reader never sees part of a write.
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
    /// How many times this replica loaded everything again because the log no longer held the
    /// commits it lacked.
    nonisolated let fullReloads = Atomic<Int>(0)
    /// The error of the last catch-up with other stores' commits that failed, until one succeeds
    /// (see ``Store/followError``).
    nonisolated let followFailure = Mutex<(any Error)?>(nil)
    var schema = EntitySchema([])
    private var spare: Context?
    private var pending: StoreDelta?
    /// The sequence of the last commit the published state includes.
    var sequence: Int64 = 0
    var isClosed = false

    /// Whether the store keeps no replica: readers get contexts over storage snapshots and each
    /// write runs on a context over its own write transaction (see `StoreWriter+OverStorage`).
    nonisolated let overStorage: Bool
    /// The rows a store over storage shares between its contexts (see ``RowCache``).
    nonisolated let cache: RowCache?

    init(backend: any StorageBackend, origin: String, overStorage: Bool = false, cacheLimit: Int = 0) {
        self.backend = backend
        self.origin = origin
        self.overStorage = overStorage
        cache = overStorage && cacheLimit > 0 ? RowCache(limit: cacheLimit, sequence: 0) : nil
        published = PublishedState()
        observers = ObservationHub(published: published)
        observers.onBehind.withLock { behind in
            behind = { [weak self] in
                guard let self else { return }
                Task { try? await self.refresh() }
            }
        }
    }

    /// Loads everything the backend holds and publishes it.
    ///
    /// - Returns: The rows the schema does not know (see ``Store/ignoredRecords``).
    func open(schema: EntitySchema) throws -> [String: Int] {
        self.schema = schema
        if overStorage { return try openOverStorage() }
        do {
            var (loader, sequence) = try backend.read { try Self.load(schema, from: $0) }
            if try loader.upgrade() != nil { (loader, sequence) = try upgrade() }
            self.sequence = sequence
            _ = published.swap(loader.context, sequence: sequence)
            spare = published.snapshot
            return loader.ignored
        } catch {
            // Nothing stays open (a SQLite file then keeps no -wal or -shm beside it).
            isClosed = true
            try? backend.close()
            throw error
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

    /// One write, top to bottom (see ``Store/write(_:)``).
    func write<T: Sendable>(_ body: sending (inout Context) throws -> T) throws -> T {
        guard !isClosed else { throw RelataError.storeClosed }
        if overStorage { return try writeOverStorage(body) }
        var made: Commit?
        do {
            // 1. Take the storage's write lock (waiting for other writers), in one transaction.
            let result = try backend.write { transaction -> T in
                // 2. Catch up with what other stores committed, so the closure runs on the newest state.
                if let committed = try transaction.changes(since: sequence) { try advance(by: committed, reading: transaction) }
                catchUp()
                let before = published.snapshot
                var working = spare ?? before
                spare = nil
                let tracker = ChangeTracker()
                working.beginTracking(tracker)
                do {
                    // 3. Run the closure.
                    let result = try body(&working)
                    // 4. What it changed, as one delta. A closure that replaced the context is
                    // compared with the state before it, in full.
                    let undoable = working.isTracked(by: tracker)
                    if !undoable { working.markAllChanged(since: before, tracker: tracker) }
                    let delta = working.trackedDelta(onEveryCore: true)
                    guard !delta.isEmpty else {
                        working.endTracking(tracker)
                        spare = working
                        return result
                    }
                    // 5. Its rows and one log record, committed together when this returns.
                    let rows = try delta.rows(after: working, before: before)
                    let sequence = rows.isEmpty ? self.sequence : try transaction.persist(rows, origin: origin)
                    made = Commit(working: working, before: before, tracker: tracker, delta: delta, undoable: undoable, sequence: sequence)
                    return result
                } catch {
                    if working.isTracked(by: tracker) { restore(&working, tracker: tracker, from: before) }
                    throw error
                }
            }
            followFailure.withLock { $0 = nil }
            guard var commit = made else { return result }
            // 6. Committed: publish; the copy published before catches up right after this job.
            commit.working.endTracking(commit.tracker)
            sequence = commit.sequence
            publish(commit.working, delta: commit.delta, spareCatchesUp: commit.undoable, kind: .local)
            return result
        } catch {
            // The commit itself failed after the closure: undo its changes on the copy.
            if var commit = made, commit.undoable {
                restore(&commit.working, tracker: commit.tracker, from: commit.before)
            }
            throw error
        }
    }

    /// A write whose rows are persisted, waiting for its transaction to commit.
    private struct Commit {
        var working: Context
        let before: Context
        let tracker: ChangeTracker
        let delta: StoreDelta
        let undoable: Bool
        let sequence: Int64
    }

    /// Publishes `state`, made by `delta` from the state published before, and hands the commit
    /// to the observers. When `spareCatchesUp`, the state published before becomes the spare and
    /// catches up by the delta right after this job; otherwise there is no spare until the next
    /// write.
    private func publish(_ state: Context, delta: StoreDelta, spareCatchesUp: Bool, kind: StoreCommit.Kind) {
        let previous = published.swap(state, sequence: sequence)
        if spareCatchesUp {
            spare = previous
            pending = delta
            Task { self.catchUp() }
        } else {
            spare = nil
            pending = nil
        }
        observers.publish(StoreCommit(sequence: sequence, kind: kind, delta: delta), context: state)
    }

    /// Brings the replica up to date with commits made elsewhere: from the rows they touched or,
    /// when the log no longer holds them all, from every row.
    private func advance(by committed: CommittedChanges, reading reader: any StorageReader) throws {
        catchUp()
        if committed.needsReload {
            let (loader, sequence) = try Self.load(schema, from: reader)
            fullReloads.add(1, ordering: .relaxed)
            self.sequence = sequence
            var reloaded = loader.context
            var delta = StoreDelta()
            if observers.isObserved {
                // Every difference from the state before, for the observers: O(size), as the reload.
                let tracker = ChangeTracker()
                reloaded.markAllChanged(since: published.snapshot, tracker: tracker)
                delta = reloaded.trackedDelta(onEveryCore: true)
                reloaded.endTracking(tracker)
            }
            publish(reloaded, delta: delta, spareCatchesUp: false, kind: .reload)
            return
        }
        var working = spare ?? published.snapshot
        spare = nil
        let delta: StoreDelta
        do {
            delta = try working.catchUpDelta(committed, schema: schema)
        } catch {
            spare = working
            throw error
        }
        delta.apply(to: &working, onEveryCore: true)
        sequence = committed.sequence
        publish(working, delta: delta, spareCatchesUp: true, kind: .remote)
        catchUp()
    }

    /// Catches up with every commit made elsewhere, now (see ``Store/refresh()``).
    func refresh() throws {
        guard !isClosed else { throw RelataError.storeClosed }
        do {
            try backend.read { reader in
                if overStorage {
                    try advanceOverStorage(reading: reader)
                } else if let committed = try reader.changes(since: sequence) {
                    try advance(by: committed, reading: reader)
                }
            }
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

    /// Undoes a failed write on its copy: every place it marked gets its value from `before`
    /// back, and the copy becomes the spare again.
    private func restore(_ working: inout Context, tracker: ChangeTracker, from before: Context) {
        guard spare == nil else { return }
        let undo = working.trackedDelta(valuesFrom: before, onEveryCore: true)
        working.endTracking(tracker)
        undo.apply(to: &working, onEveryCore: true)
        spare = working
    }

    /// Applies the last commit's delta to the spare copy, if it lacks it.
    private func catchUp() {
        guard let delta = pending else { return }
        pending = nil
        guard var copy = spare else { return }
        spare = nil
        delta.apply(to: &copy, onEveryCore: true)
        spare = copy
    }

    /// Closes the backend; later writes throw.
    func close() throws {
        guard !isClosed else { return }
        isClosed = true
        pending = nil
        spare = nil
        try backend.close()
    }

    /// The spare copy, caught up: it must equal the published state (tests).
    func caughtUpSpare() -> Context? {
        catchUp()
        return spare
    }
}

/// The state a ``Store`` publishes, with the change log sequence of the last commit it includes:
/// readers copy it under a lock held only for that copy.
///
/// A store over storage publishes a snapshot of storage instead (``publish(_:)``): each
/// ``snapshot`` is then a new context over it, holding nothing yet, so that no two readers share
/// what their reads fault in.
final class PublishedState: Sendable {
    private let current = Mutex((Context(), Int64(0), ContextBase?.none))

    /// The last committed state (O(1)). Over storage, a new context whose snapshot its first
    /// read binds (at or after the last commit published: see ``ContextBase/session(pinned:)``).
    var snapshot: Context {
        let (context, _, base) = current.withLock { $0 }
        return base.map { Context(over: $0.session()) } ?? context
    }

    /// The last committed state, as of the last commit published exactly (what observers of
    /// that commit are evaluated on).
    var pinnedSnapshot: Context {
        let (context, _, base) = current.withLock { $0 }
        return base.map { Context(over: $0.session(pinned: true)) } ?? context
    }

    /// The sequence of the last commit ``snapshot`` includes.
    var sequence: Int64 {
        current.withLock { $0.1 }
    }

    /// Publishes `new`, which includes the commits up to `sequence`; returns the state it replaces.
    func swap(_ new: Context, sequence: Int64) -> Context {
        current.withLock { state in
            let previous = state.0
            state = (new, sequence, nil)
            return previous
        }
    }

    /// Publishes a snapshot of storage at its sequence: readers get contexts over it.
    func publish(_ base: ContextBase) {
        current.withLock { $0 = (Context(), base.sequence ?? 0, base) }
    }
}

/// A serial executor on a dispatch queue of its own: the jobs of the actor it runs may block,
/// which a thread of Swift's cooperative pool must never do.
final class QueueExecutor: SerialExecutor {
    let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}

