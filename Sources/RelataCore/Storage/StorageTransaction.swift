/// Reads and writes a storage inside the one transaction of ``StorageBackend/write(_:)``, which
/// holds the write lock.
public protocol StorageTransaction: StorageReader {
    /// Writes the rows of one commit and its ``ChangeLogRecord`` (naming the rows' keys, see
    /// ``ChangeLogRecord/init(touching:)``), which gets the next sequence. May also remove log
    /// records older than the backend's retention.
    ///
    /// - Parameters:
    ///   - changes: What the write changed.
    ///   - origin: Who made the commit (a Store's ``Store/origin``), kept in the log record.
    /// - Returns: The commit's sequence.
    func persist(_ changes: StoreChanges, origin: String) throws -> Int64
}
