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
    /// A copy of the published state that only writes touch (see ``write(_:)``).
    private var spare: Context
    private nonisolated let state: PublishedContext
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
        self.spare = loader.context
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
    public nonisolated var context: Context {
        state.withLock { $0 }
    }

    /// Runs `body` on a snapshot of the state. No lock is held while it runs.
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
        // Two copies of the state (left-right): readers use the published one; the write mutates
        // the spare in place (no copy of the tables it touches), then the two swap roles and the
        // old published copy receives what the write changed (copied from the new state).
        var base: Context? = context
        var working = spare
        spare = Context()  // `working` is now the only reference: mutated in place
        let result: T
        var catchUp = CatchUp()
        var large = false
        let changes: StoreChanges
        let intact: Bool
        do {
            working.beginTracking()
            result = try body(&working)
            intact = working.isIntactStoreWrite
            if !intact {
                // The closure assigned a context built elsewhere (or began recording): compare
                // everything with the state before the write.
                working.markAllChanged(since: base!)
            }
            changes = try working.trackedChanges(since: base!)
            let prepareCatchUp = working.trackedCopier()
            working.endTracking()
            if !changes.isEmpty {
                // What the other copy must receive is read from `working` (no longer mutated) on
                // another thread while the changes are persisted.
                large = changes.count >= ParallelCoding.threshold
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
            // The spare is half-written: it becomes a copy of the published state again (the
            // next write copies the tables it touches, once).
            spare = base!
            throw error
        }
        guard intact else {
            // No log to replay: both copies share the new state (the next write copies what it touches).
            base = nil
            state.withLock { $0 = working }
            spare = working
            return result
        }
        guard !changes.isEmpty else {
            spare = working
            return result
        }
        base = nil
        var previous = state.withLock { published in
            let previous = published
            published = working
            return previous
        }
        working = Context()
        catchUp.apply(to: &previous, inParallel: large)
        spare = previous
        return result
    }

    /// The spare copy, for tests: it must always equal the published state.
    var spareForTesting: Context { spare }

    /// Waits for pending writes, then closes the backend. Later writes throw.
    public func close() async throws {
        await writes.lock()
        defer { writes.unlock() }
        guard !isClosed else { return }
        isClosed = true
        try await backend.close()
    }
}

extension RelataError {
    static var storeClosed: RelataError {
        RelataError(code: .storeClosed, entityType: "Store", message: "the store is closed")
    }
}

/// The published state of a ``Store``, behind a lock held only to copy or swap it.
final class PublishedContext: Sendable {
    private let mutex: Mutex<Context>

    init(_ context: Context) {
        mutex = Mutex(context)
    }

    func withLock<T>(_ body: (inout Context) -> T) -> T {
        mutex.withLock { body(&$0) }
    }
}
