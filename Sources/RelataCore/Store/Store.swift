import Synchronization

/// A durable, concurrent home for a ``Context``: many tasks read and write it at once, and every
/// write is persisted by a ``StorageBackend`` in one transaction.
///
/// ```swift
/// let store = try await Store(path: "chat.sqlite", entities: User.self, Chat.self, Message.self)
/// try await store.write { context in
///     try chat.save(to: &context)
/// }
/// let messages = store.read { context in
///     Chat.query("1", in: context).related(\.$messages).resolve()
/// }
/// ```
///
/// - **Reads** get a snapshot: a copy of the context as of the last completed write, O(1), with no
///   lock held while you read. A reader never sees half of a write.
/// - **Writes** are serialized. The closure runs on a private copy; what it changed is persisted
///   as rows (``StoreChanges``: the entities and links written, never the whole context) in one
///   transaction; then the copy becomes the new state. If the closure throws or persisting fails,
///   the state (in memory and in storage) is exactly as before and the error is rethrown.
public actor Store {
    /// The entity types this store loads and decodes.
    public nonisolated let schema: EntitySchema
    private let backend: any StorageBackend
    /// The two copies of the state, published and spare (left-right, see ``write(_:)``).
    private nonisolated let state: PublishedContext
    /// How many writes ran in place on the published copy (tests).
    private(set) var writesOnPublishedCopy = 0
    /// Whether the last write compared its rows with the state before it: the next write in place
    /// then starts the spare's catch-up at once, beside its closure.
    private var lastWriteComparedRows = false
    private nonisolated let writes = AsyncLock()
    private var isClosed = false
    /// Rows found in storage whose type or relation the schema does not have, by `Type` or
    /// `Type.relation`: they were not loaded, and they are kept in storage untouched.
    public nonisolated let ignoredRecords: [String: Int]

    /// Opens a store on `backend`, loading everything it holds.
    ///
    /// - Parameters:
    ///   - backend: Where the data lives.
    ///   - schema: The entity types to load.
    /// - Throws: ``RelataError`` when the storage cannot be read or a stored entity does not decode.
    public init(backend: some StorageBackend, schema: EntitySchema) async throws {
        var loader = ContextLoader(schema: schema)
        try await backend.load(
            entities: { try loader.load($0) }, links: { try loader.load($0) }, dynamicLinks: { try loader.load($0) }
        )
        try loader.flush()
        if let upgrade = try loader.linkUpgrade() {
            // Written by an older version: rewrite every row in the current form, once.
            try await backend.persist(upgrade)
        }
        self.backend = backend
        self.schema = schema
        self.state = PublishedContext(loader.context)
        self.ignoredRecords = loader.ignored
    }

    /// A store that keeps its data in memory only, for tests and previews.
    ///
    /// - Parameter entities: The entity types it holds.
    public static func inMemory(entities: any EntityModelProtocol.Type...) async -> Store {
        // Loading an empty in-memory backend cannot fail.
        try! await Store(backend: InMemoryBackend(), schema: EntitySchema(entities))
    }

    /// The state as of the last completed write (a snapshot, O(1)).
    ///
    /// While a write runs in place on the published copy (no reader held it), this waits for the
    /// store's other copy to catch up with the last committed write, or for that write's commit,
    /// whichever comes first (see the *Stores* article); it never returns part of a write.
    public nonisolated var context: Context {
        state.snapshot
    }

    /// Runs `body` on a snapshot of the state (see ``context``). No lock is held while it runs.
    ///
    /// - Returns: What `body` returns.
    public nonisolated func read<T>(_ body: (Context) throws -> T) rethrows -> T {
        try body(context)
    }

    /// Runs `body` on the state and persists what it changed, in one transaction. Writes run one at
    /// a time, in the order they were called.
    ///
    /// - Parameter body: Changes to make. It runs on a private copy of the state.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``RelataError`` when persisting fails (code
    ///   ``RelataError/Code/storageFailed``) or the store is closed. The state is then unchanged.
    @discardableResult
    public func write<T: Sendable>(_ body: sending (inout Context) throws -> T) async throws -> T {
        await writes.lock()
        defer { writes.unlock() }
        guard !isClosed else { throw RelataError.storeClosed }
        // Two copies of the state (left-right, see `PublishedContext`): the write mutates one in
        // place (no copy of the tables it touches) — the published one if no reader holds it,
        // else the spare, caught up first — then publishes it; the other copy keeps what the
        // write changed (copied from the new state) to catch up with when it is next needed.
        await state.settle()
        var start = state.startWrite(prefetch: lastWriteComparedRows)
        // Moved out, not copied: a second reference would make the write copy every table.
        var working = Context()
        swap(&working, &start.context)
        if start.inPlace { writesOnPublishedCopy += 1 }
        for catchUp in start.catchUps { catchUp.apply(to: &working) }
        let result: T
        var catchUp = CatchUp()
        let changes: StoreChanges
        let intact: Bool
        do {
            working.beginTracking()
            result = try body(&working)
            intact = working.isIntactStoreWrite
            // The state before the write, to compare with: the published copy, or for a write in
            // place, the spare once caught up. Only rows that may go or link rows that may have
            // moved ask for it, so a write that only adds never waits for a catch-up.
            let base: LazyContext
            if intact {
                // Found when first asked for, on the thread that asks (waiting, if need be, for the
                // spare's catch-up, which runs on a thread of its own).
                let state = state
                base = LazyContext(resolving: { state.snapshot })
            } else {
                // The closure assigned a context built elsewhere (or began recording): compare
                // everything with the state before the write.
                let before = await state.committedState()
                working.markAllChanged(since: before)
                base = LazyContext(before)
            }
            changes = try working.trackedChanges(since: base)
            lastWriteComparedRows = base.isResolved
            let prepareCatchUp = working.trackedCopier()
            working.endTracking()
            if !changes.isEmpty {
                // What the other copy must receive is read from `working` (no longer mutated) on
                // another thread while the changes are persisted.
                let large = changes.count >= ParallelCoding.threshold
                let preparing = intact && large ? BackgroundJob(prepareCatchUp) : nil
                do {
                    try await backend.persist(changes)
                } catch {
                    _ = await preparing?.finished()
                    throw error
                }
                if let preparing {
                    catchUp = await preparing.finished().value
                } else if intact {
                    catchUp = prepareCatchUp()
                }
            }
        } catch {
            // The write's copy is half-written and dropped: the committed state becomes both
            // copies (the next write copies the tables it touches, once).
            if start.inPlace { _ = await state.committedState() }
            await state.settle()
            state.reset()
            throw error
        }
        guard intact else {
            // Nothing to catch up with: both copies share the new state (the next write copies
            // what it touches).
            await state.settle()
            state.reset(to: working)
            return result
        }
        guard !changes.isEmpty else {
            state.returnUnchanged(working)
            return result
        }
        state.publish(working, catchUp: catchUp, rows: changes.count)
        return result
    }

    /// Sets what a background catch-up runs before it finishes, for tests.
    func setCatchUpHook(_ hook: (@Sendable () -> Void)?) {
        state.setCatchUpHook(hook)
    }

    /// The spare copy, caught up, for tests: it must always equal the published state.
    var spareForTesting: Context {
        get async {
            await state.caughtUpSpareForTesting()
        }
    }

    /// How many writes the spare copy lacks, for tests.
    nonisolated var pendingCatchUps: Int {
        state.pendingCountForTesting
    }

    /// How many times the spare copy was dropped for the published one, for tests.
    nonisolated var droppedCatchUpLogs: Int {
        state.droppedLogsForTesting
    }

    /// Whether the spare copy is catching up on another thread, for tests.
    nonisolated var isCatchingUp: Bool {
        state.isCatchingUpForTesting
    }

    /// Waits for pending writes, then closes the backend. Later writes throw.
    public func close() async throws {
        await writes.lock()
        defer { writes.unlock() }
        guard !isClosed else { return }
        isClosed = true
        await state.settle()
        try await backend.close()
    }
}

extension RelataError {
    static var storeClosed: RelataError {
        RelataError(code: .storeClosed, entityType: "Store", message: "the store is closed")
    }
}
