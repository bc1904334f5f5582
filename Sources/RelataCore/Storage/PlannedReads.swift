/// Reads a caller is about to make of a ``StorageReader``, told to it first (see
/// ``StorageReader/prefetch(_:)``): a backend whose reads are round trips sends them together.
public struct PlannedReads: Sendable, Equatable {
    /// Entity rows, as ``StorageReader/fetchEntities(_:)`` reads them.
    public var entities: [EntityKey]
    /// The last links of lists of sources, as ``StorageReader/fetchLastSources(of:)`` reads them.
    public var lastSources: [LinkTargetKey]
    /// The last links of lists, as ``StorageReader/fetchLastLinks(of:)`` reads them.
    public var lastLinks: [LinkSourceKey]

    /// Reads of each kind.
    public init(entities: [EntityKey] = [], lastSources: [LinkTargetKey] = [], lastLinks: [LinkSourceKey] = []) {
        self.entities = entities
        self.lastSources = lastSources
        self.lastLinks = lastLinks
    }

    /// Whether no read is planned.
    public var isEmpty: Bool { entities.isEmpty && lastSources.isEmpty && lastLinks.isEmpty }

    /// Adds the reads of `other`.
    public mutating func add(_ other: PlannedReads) {
        entities += other.entities
        lastSources += other.lastSources
        lastLinks += other.lastLinks
    }
}
