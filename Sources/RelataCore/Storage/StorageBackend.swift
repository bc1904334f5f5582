import Foundation

/// Where a ``Store`` keeps its data: the embedded SQLite file of `RelataSQLite` (the default), an
/// in-memory backend for tests and previews (``InMemoryBackend``), or your own.
///
/// A backend sees rows, never entity types: ``EntityRecord``s (type name, id as text, encoded
/// value, to-one links), ``LinkRecord``s (one row per to-many link or linked pair, with position
/// keys) and ``DynamicLinkRecord``s (one row per dynamic relationship).
///
/// **The storage is the truth; every Store is a replica of it.** Several stores (in one process
/// or many) may use one storage at once. Each write runs inside ``write(_:)``, which holds the
/// storage's write lock: the store first reads the commits it has not applied yet
/// (``StorageReader/changes(since:)``), runs its closure on the newest state, then persists
/// exactly what the write changed (``StoreChanges``) together with one ``ChangeLogRecord``
/// (``StorageTransaction/persist(_:origin:)``). Between writes, a store follows the storage
/// through ``read(_:)``, woken by ``hasNewCommits()``.
///
/// A store calls these methods one at a time, on its writer queue: a thread of its own, never
/// one of Swift's cooperative pool, so a backend may block (wait for a lock, for I/O, for a
/// database driver) inside them. Check a backend with `RelataStoreConformance`.
public protocol StorageBackend: Sendable {
    /// Runs `body` in one read transaction: what it reads comes from one committed state.
    ///
    /// - Throws: What `body` throws, or ``RelataError`` when the storage cannot be read.
    func read<T>(_ body: (any StorageReader) throws -> T) throws -> T

    /// Runs `body` holding the storage's write lock, in one transaction that commits when `body`
    /// returns and rolls back when it throws. Waits for the lock while another writer holds it
    /// (up to a timeout the backend documents; past it, throws ``RelataError`` with code
    /// ``RelataError/Code/storeBusy``).
    ///
    /// - Throws: What `body` throws, or ``RelataError`` (code ``RelataError/Code/storageFailed``,
    ///   ``RelataError/Code/storeBusy``); the stored data is then exactly as before the call.
    func write<T>(_ body: (any StorageTransaction) throws -> T) throws -> T

    /// Whether another connection may have committed since the last call: a cheap hint for the
    /// follower (SQLite: `PRAGMA data_version`), never a promise. Return `true` when unsure.
    func hasNewCommits() throws -> Bool

    /// A number that changes whenever a commit is made to the storage — by this process or
    /// another, through any connection — read without a transaction (SQLite: `PRAGMA
    /// data_version` on one of the readers' connections, with the connection's number). A store
    /// reads it when a new context first reads: while it is the token a read transaction gave as
    /// it learned storage's newest commit (``StorageReader/commitToken()``), nothing was
    /// committed since, and the context answers from the store's cache without a transaction.
    /// `nil` when the backend has none (the default): each new context's first read then opens a
    /// read transaction, which reads the newest commit.
    ///
    /// It may change without a commit (then the first read opens a transaction), never the reverse.
    func commitToken() throws -> Int64?

    /// Releases the storage. The backend is not used afterwards.
    func close() throws

    /// Whether each read statement costs a round trip to a server (PostgreSQL). A Store write
    /// then reads what it can batch — the tails of the lists it appends to — in one statement per
    /// relation before its delta, instead of one statement per list as it goes. In-process
    /// storage (SQLite) answers those small reads about as fast as the batch and the re-keying it
    /// needs (measured: W1's bulk save the same, a point write 0.39 ms eager against 0.45 ms
    /// batched). `false` by default.
    var readsCostRoundTrips: Bool { get }

    /// The most reads the backend runs at once (its reader connections): a store runs at most as
    /// many `async` reads at once on its reader threads. 4 by default.
    var maxReaders: Int { get }
}

extension StorageBackend {
    public func hasNewCommits() throws -> Bool { true }

    public func commitToken() throws -> Int64? { nil }

    public var readsCostRoundTrips: Bool { false }

    public var maxReaders: Int { 4 }

    /// Streams every stored row in one read transaction (see ``StorageReader/load(entities:links:dynamicLinks:)``).
    ///
    /// - Returns: The sequence of the last commit the rows include.
    @discardableResult
    public func load(
        entities entity: (EntityRecord) throws -> Void,
        links link: (LinkRecord) throws -> Void,
        dynamicLinks dynamicLink: (DynamicLinkRecord) throws -> Void
    ) throws -> Int64 {
        try read { try $0.load(entities: entity, links: link, dynamicLinks: dynamicLink) }
    }

    /// Persists `changes` in one write transaction, with their log record (origin `""`).
    ///
    /// - Returns: The commit's sequence.
    @discardableResult
    public func persist(_ changes: StoreChanges) throws -> Int64 {
        try write { try $0.persist(changes, origin: "") }
    }
}
