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

    private let backend: any StorageBackend
    /// What readers get.
    nonisolated let published = PublishedState()
    private var spare: Context?
    private var pending: StoreDelta?
    private var isClosed = false

    init(backend: any StorageBackend) {
        self.backend = backend
    }

    /// Loads everything the backend holds and publishes it.
    ///
    /// - Returns: The rows the schema does not know (see ``Store/ignoredRecords``).
    func open(schema: EntitySchema) throws -> [String: Int] {
        var loader = ContextLoader(schema: schema)
        do {
            try backend.load(
                entities: { try loader.load($0) }, links: { try loader.load($0) }, dynamicLinks: { try loader.load($0) }
            )
            try loader.flush()
            if let upgrade = try loader.upgrade() {
                // Written by an older version: rewrite every row in the current form, once.
                try backend.persist(upgrade)
            }
        } catch {
            // Nothing stays open (a SQLite file then keeps no -wal or -shm beside it).
            isClosed = true
            try? backend.close()
            throw error
        }
        _ = published.swap(loader.context)
        spare = published.snapshot
        return loader.ignored
    }

    /// One write, top to bottom (see ``Store/write(_:)``).
    func write<T: Sendable>(_ body: sending (inout Context) throws -> T) throws -> T {
        guard !isClosed else { throw RelataError.storeClosed }
        // 1. Start from the state: the spare copy, equal to the published state.
        catchUp()
        let before = published.snapshot
        var working = spare ?? before
        spare = nil
        let tracker = ChangeTracker()
        working.beginTracking(tracker)
        do {
            // 2. Run the closure.
            let result = try body(&working)
            // 3. What it changed, as one delta. A closure that replaced the context is compared
            // with the state before it, in full.
            let undoable = working.isTracked(by: tracker)
            if !undoable { working.markAllChanged(since: before, tracker: tracker) }
            let delta = working.trackedDelta(onEveryCore: true)
            guard !delta.isEmpty else {
                working.endTracking(tracker)
                spare = working
                return result
            }
            // 4. Persist its rows, in one transaction.
            do {
                let rows = try delta.rows(after: working, before: before)
                if !rows.isEmpty { try backend.persist(rows) }
            } catch {
                if undoable { restore(&working, tracker: tracker, from: before) }
                throw error
            }
            working.endTracking(tracker)
            // 5. Publish; the copy published before catches up right after this job.
            let previous = published.swap(working)
            if undoable {
                spare = previous
                pending = delta
                Task { self.catchUp() }
            }
            return result
        } catch {
            if working.isTracked(by: tracker), spare == nil {
                restore(&working, tracker: tracker, from: before)
            }
            throw error
        }
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

/// The state a ``Store`` publishes: readers copy it under a lock held only for that copy.
final class PublishedState: Sendable {
    private let current = Mutex(Context())

    /// The last committed state (O(1)).
    var snapshot: Context {
        current.withLock { $0 }
    }

    /// Publishes `new`; returns the state it replaces.
    func swap(_ new: Context) -> Context {
        current.withLock { state in
            let previous = state
            state = new
            return previous
        }
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

