/// Reads a storage inside one transaction of ``StorageBackend/read(_:)`` or
/// ``StorageBackend/write(_:)``.
public protocol StorageReader {
    /// Streams every stored row: entities first, then links, then dynamic links.
    ///
    /// - Parameters:
    ///   - entity: Called once per stored entity.
    ///   - link: Called once per stored link; the links of one source through one relation
    ///     should come together (they are then placed in one step).
    ///   - dynamicLink: Called once per stored dynamic relationship.
    /// - Returns: The sequence of the last commit the rows include (`0` when there was none).
    /// - Throws: ``RelataError`` when the storage cannot be read.
    func load(
        entities entity: (EntityRecord) throws -> Void,
        links link: (LinkRecord) throws -> Void,
        dynamicLinks dynamicLink: (DynamicLinkRecord) throws -> Void
    ) throws -> Int64

    /// The commits after `sequence`: the keys they touched and the rows stored under those keys
    /// now; `nil` when there is none. When the log no longer holds every such commit (pruned),
    /// the result says ``CommittedChanges/needsReload`` and carries no rows.
    func changes(since sequence: Int64) throws -> CommittedChanges?
}
