/// Links read together with the entity rows at one end of them, in one statement where the
/// backend can join them (see ``StorageReader/fetchSourcesAndRows(of:)`` and
/// ``StorageReader/fetchLinksAndRows(of:targetType:)``): what a query that resolves a relation
/// with its entities needs from one level, in one round trip instead of two.
public struct LinkedRows: Sendable, Equatable {
    /// The links, as the plain fetch returns them, in its order.
    public var links: [LinkRecord]
    /// The stored rows of the entities at the links' other end, each once, in any order; an
    /// entity the links name and storage does not hold has none.
    public var entities: [EntityRecord]

    /// Links and the rows at their other end.
    public init(links: [LinkRecord], entities: [EntityRecord]) {
        self.links = links
        self.entities = entities
    }
}
