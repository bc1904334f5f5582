/// Reads and writes a storage inside the one transaction of ``StorageBackend/write(_:)``, which
/// holds the write lock.
public protocol StorageTransaction: StorageReader {
    /// Writes the rows of one commit and its log record, which gets the next sequence. May also
    /// remove log records older than the backend's retention.
    ///
    /// - Parameters:
    ///   - changes: What the write changed.
    ///   - record: The keys of the rows `changes` writes or removes,
    ///     `ChangeLogRecord(touching: changes)` (see ``ChangeLogRecord/init(touching:)``): built
    ///     once by the caller, which keeps it too (a ``Store`` drops those rows from its cache).
    ///   - origin: Who made the commit (a Store's ``Store/origin``), kept in the log record.
    /// - Returns: The commit's sequence.
    func persist(_ changes: StoreChanges, record: ChangeLogRecord, origin: String) throws -> Int64

    /// Persists `changes` as ``persist(_:record:origin:)`` does, as the transaction's last
    /// statements: the caller reads and writes nothing more through this transaction, and throws
    /// nothing after it returns. A backend whose commit is a round trip may send it with them
    /// (the PostgreSQL backend does; ``StorageBackend/write(_:)`` then finds the transaction
    /// committed). The default calls ``persist(_:record:origin:)``.
    ///
    /// - Returns: The commit's sequence.
    /// - Throws: What ``persist(_:record:origin:)`` throws, or the commit's failure (nothing is
    ///   committed).
    func persistLast(_ changes: StoreChanges, record: ChangeLogRecord, origin: String) throws -> Int64

    /// Makes the indexes `indexes` declares (by type name) for the types storage has rows of,
    /// and drops those of these types no longer declared, without a commit: a ``Store`` calls it
    /// when it opens. The default does nothing (a backend without indexes).
    func keepIndexes(_ indexes: [String: [StoredIndex]]) throws
}

extension StorageTransaction {
    public func keepIndexes(_ indexes: [String: [StoredIndex]]) throws {}

    public func persistLast(_ changes: StoreChanges, record: ChangeLogRecord, origin: String) throws -> Int64 {
        try persist(changes, record: record, origin: origin)
    }

    /// Persists `changes` with the log record naming their rows (see
    /// ``persist(_:record:origin:)``).
    public func persist(_ changes: StoreChanges, origin: String) throws -> Int64 {
        try persist(changes, record: ChangeLogRecord(touching: changes), origin: origin)
    }
}
