import Foundation

/// A durable, concurrent home for a ``Context``: many tasks read and write it at once, and every
/// write is persisted by a ``StorageBackend`` in one transaction.
///
/// ```swift
/// let store = try await Store(path: "chat.sqlite", entities: User.self, Chat.self, Message.self)
/// try await store.write { context in
///     try chat.save(to: &context)
/// }
/// let messages = try await store.read { context in
///     Chat.query("1", in: context).related(\.$messages).resolve()
/// }
/// ```
///
/// - **Storage is the truth; a store is a window on it.** Opening reads no rows (the change
///   log's newest sequence, and the storage's catalog), so it takes milliseconds whatever the
///   size. Each context the store hands out (``context``, ``read(_:)-7uh7i``) holds nothing at first and
///   reads what it is asked about — an entity by id, a chat's messages, the sources of a link —
///   in batches, one read transaction per query level; memory follows what is touched. Rows read
///   once are shared by the store's later contexts through a cache bounded in bytes
///   (`cacheLimit`), which every commit (this store's or another's) evicts exactly what it touched.
/// - **Reads** never wait for a write. A context answers as of one commit: the newest when it
///   first reads. A read of a row that a later commit changed, in a context that had already read
///   as of an earlier one, is refused rather than mixed with the newer state
///   (``RelataError/Code/staleSnapshot``); a read storage cannot answer (a row that does not
///   decode) answers as absent. Either is kept in ``Context/storageFailure``, and ``read(_:)-7uh7i``
///   throws it.
/// - **Writes** run one at a time, in call order, on the store's writer queue (a thread of its
///   own, as in GRDB). Each takes the storage's write lock and runs its closure on a context that
///   reads through that transaction — the newest state, nothing to catch up; what the closure
///   changed becomes one ``StoreDelta``, whose rows are committed in the same transaction with a
///   change log record. If the closure throws or persisting fails, storage is as before and the
///   error is rethrown.
/// - **Several stores** — in one process or in many, on one SQLite file or one PostgreSQL
///   database — share the storage. A store follows the others' commits in the background (its
///   observers and its cache see them within milliseconds) and ``refresh()`` catches up at once;
///   a new context reads the newest commit either way.
public final class Store: Sendable {
    /// The entity types this store loads and decodes.
    public let schema: EntitySchema
    /// Rows found in storage whose type or relation the schema does not have, by `Type` or
    /// `Type.relation` (and dynamic relationships of unknown kinds or types, under
    /// `dynamic links`): counted at open from the storage's catalog, never read, kept untouched.
    public let ignoredRecords: [String: Int]
    /// Runs the writes and publishes what readers read.
    let writer: StoreWriter
    /// Follows the commits of other stores in the background.
    private let follower: StoreFollower?
    /// Where `async` reads run: threads that may block on storage, never Swift's cooperative pool
    /// (see ``read(_:)-s1ly``).
    let readers: ReaderQueues

    /// Opens a store on `backend`. Nothing is loaded: the store reads the log's newest sequence
    /// (and, from the storage's catalog, what the schema does not know: ``ignoredRecords``), and
    /// every context it hands out reads what it is asked about.
    ///
    /// - Parameters:
    ///   - backend: Where the data lives.
    ///   - schema: The entity types the store reads and writes.
    ///   - followInterval: How often the store checks for commits of other stores (a cheap
    ///     check: SQLite's `PRAGMA data_version`); `nil` to catch up only when writing or on
    ///     ``refresh()``. 10 ms by default: another store's commit is then seen within about
    ///     10 ms, for about 1% of a core while idle.
    ///   - cacheLimit: How many bytes of rows the store's contexts and writes share (estimated
    ///     from the rows' sizes; 64 MB by default, 0 for none): a row read once is read from
    ///     memory by later contexts until a commit changes it or the limit pushes it out. A store
    ///     that follows others also keeps what its last ``read(_:)-7uh7i`` placed (up to
    ///     `cacheLimit / 512` entities and lists) while that read's commit is the newest it knows
    ///     of: the next context starts from it instead of placing the same rows again. Keeping
    ///     rows is not free: a read of rows the cache does not hold costs up to about twice what
    ///     it costs with `0`, so a process that reads each row once (a batch job, an export)
    ///     reads faster without a cache.
    /// - Throws: ``RelataError`` when the storage cannot be read, or rows written by an older
    ///   version (rewritten once, at the first open) do not decode.
    public init(
        backend: some StorageBackend, schema: EntitySchema, followInterval: Duration? = .milliseconds(10), cacheLimit: Int = 64 << 20
    ) async throws {
        do {
            try schema.validate()
        } catch {
            try? backend.close()
            throw error
        }
        readers = ReaderQueues(label: "Relata.Store.reads", width: backend.maxReaders)
        let writer = StoreWriter(backend: backend, origin: UUID().uuidString, cacheLimit: cacheLimit, followsOthers: followInterval != nil)
        self.ignoredRecords = try await writer.open(schema: schema)
        self.writer = writer
        self.schema = schema
        follower = followInterval.map { StoreFollower(writer: writer, interval: $0) }
    }

    deinit {
        follower?.cancel()
    }

    /// The change log sequence of the last commit ``context`` includes: it grows with every
    /// commit this store makes or catches up with (commits of all stores on the storage are
    /// numbered in one order).
    public var sequence: Int64 {
        writer.published.sequence
    }

    /// Who this store's commits are from: an id unique to this `Store` instance.
    public var origin: String {
        writer.origin
    }

    /// How many times this store dropped every row it kept in memory (its cache) because the
    /// storage's change log could not say what the commits it lacked had touched: it was asleep
    /// longer than the log's retention, or a log record does not decode. Later reads read storage.
    public var fullReloads: Int {
        writer.cache?.reloads.load(ordering: .relaxed) ?? 0
    }

    /// Why this store could not catch up with other stores' commits, while it cannot: `nil` once
    /// a catch-up (the follower's, ``refresh()``, or a write's) succeeds again.
    ///
    /// A store that follows others (see `followInterval`) reads their commits from the change log
    /// in the background (to move ``sequence``, evict its cache and tell its observers); when that
    /// fails (the storage unreadable; for observers, a row that does not decode), this property
    /// says so — the store never looks current while it is not. New contexts read storage
    /// whatever happened. ``refresh()`` throws the same error, and every write reads the log
    /// first, so a write fails with it too. A change log record that is itself damaged is not such
    /// a failure: the store then drops every row it cached (counted in ``fullReloads``).
    public var followError: (any Error)? {
        writer.followFailure.withLock { $0 }
    }

    /// Catches up with every commit other stores (in this process or others) have made, now:
    /// ``sequence`` includes them and the observers have them. Without it, a store follows other
    /// stores' commits in the background within its follow interval; a new context reads the
    /// newest commit either way.
    ///
    /// - Throws: ``RelataError`` when the storage cannot be read or the store is closed.
    public func refresh() async throws {
        try await writer.refresh()
    }

    /// A store that keeps its data in memory only, for tests and previews.
    ///
    /// - Parameter entities: The entity types it holds.
    /// - Throws: ``RelataError`` with code ``RelataError/Code/invalidConfiguration`` when two of
    ///   the types are stored under one name.
    public static func inMemory(entities: any EntityModelProtocol.Type...) async throws -> Store {
        // Nothing else writes an in-memory backend, so it is not followed.
        try await Store(backend: InMemoryBackend(), schema: EntitySchema(entities), followInterval: nil)
    }

    /// A new context over the store's storage, O(1), taken without waiting: it answers as of the
    /// newest commit when it first reads, then as of that commit (see the reads above).
    public var context: Context {
        writer.published.snapshot
    }

    /// Runs `body` on a new context (see ``context``), on the calling thread. No lock is held while
    /// it runs. In an `async` function, `try await store.read { … }` runs it on a reader thread
    /// of the store's instead (see ``read(_:)-s1ly``).
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or the first read of `body` that storage could not answer
    ///   (``Context/storageFailure``: a stored row that does not decode, storage that cannot be
    ///   read, a row changed after the snapshot), a ``RelataError`` naming the type and id.
    public func read<T>(_ body: (Context) throws -> T) throws -> T {
        let context = self.context
        let result = try body(context)
        if let failure = context.storageFailure { throw failure }
        // `context` is referenced here until now: a copy `body` saved to has storage of its own.
        writer.published.placed.offer(consume context)
        return result
    }

    /// Runs `body` on the state and persists what it changed, in one transaction. Writes run one at
    /// a time, in the order they were called.
    ///
    /// ```swift
    /// try await store.write { context in
    ///     try Message(id: "m1", text: "Hi", chat: .id("c1")).save(to: &context)
    /// }
    /// ```
    ///
    /// The closure may also assign a whole other context (`context = other`): what differs from
    /// the state before the write is then found by comparing the two in full.
    ///
    /// - Parameter body: Changes to make. It runs on the store's writer queue, on a context that
    ///   reads through the write's transaction and that only this write sees.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws; ``RelataError`` when persisting fails (code
    ///   ``RelataError/Code/storageFailed``), when a read of `body` failed (a stored row that does
    ///   not decode: nothing is written over what could not be read), or when the store is closed.
    ///   Storage is then unchanged.
    @discardableResult
    public func write<T: Sendable>(_ body: sending (inout Context) throws -> T) async throws -> T {
        try await writer.write(body)
    }

    /// Runs `body` on the state and persists what it changed, in one transaction, on the calling
    /// thread — as GRDB's `dbQueue.write { … }` does: it waits for the writes called before it,
    /// and wakes no other thread when the store is idle. In an `async` function,
    /// `try await store.write { … }` calls ``write(_:)-7h378`` instead, which never blocks a
    /// thread of Swift's cooperative pool; this one does for as long as the write takes (and,
    /// while another process holds the write lock, up to the backend's busy timeout).
    ///
    /// ```swift
    /// // A command-line tool, a background thread, a test:
    /// try store.write { context in
    ///     try Message(id: "m1", text: "Hi", chat: .id("c1")).save(to: &context)
    /// }
    /// ```
    ///
    /// - Parameter body: Changes to make, on a context that reads through the write's transaction
    ///   and that only this write sees.
    /// - Returns: What `body` returns.
    /// - Throws: What ``write(_:)-7h378`` throws; ``RelataError/Code/reentrantWrite`` when called
    ///   inside a write of this store (its closure), where it would wait for itself — nothing is
    ///   written.
    @discardableResult
    public func write<T>(_ body: (inout Context) throws -> T) throws -> T {
        try writer.writeOnCallingThread(body)
    }

    /// Waits for pending writes, then closes the backend. Later writes throw.
    public func close() async throws {
        follower?.cancel()
        try await writer.close()
    }
}

extension RelataError {
    static var storeClosed: RelataError {
        RelataError(code: .storeClosed, entityType: "Store", message: "the store is closed")
    }

    static var reentrantWrite: RelataError {
        RelataError(
            code: .reentrantWrite, entityType: "Store",
            message: "a synchronous write was called inside a write of the same store, which would wait for itself; nothing was written"
        )
    }
}
