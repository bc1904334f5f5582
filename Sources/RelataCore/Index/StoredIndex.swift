/// An index as a store keeps it: its kind and the properties
/// it covers, by name, in order. A write tells storage the indexes of each type it stores
/// (``StoreChanges/indexes``); storage makes the missing ones and drops those no longer declared.
public struct StoredIndex: Sendable, Hashable {
    /// The kind of index.
    public var kind: IndexKind
    /// The names of the properties, in order.
    public var properties: [String]

    public init(kind: IndexKind, properties: [String]) {
        self.kind = kind
        self.properties = properties
    }
}
