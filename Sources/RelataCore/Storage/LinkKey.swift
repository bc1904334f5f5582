/// Identifies one stored link.
public struct LinkKey: Sendable, Hashable {
    /// The stored name of the type that declares the relation.
    public var type: String
    /// The relation's name.
    public var relation: String
    /// The id of the source entity, as text.
    public var source: String
    /// The id of the target entity, as text.
    public var target: String

    /// A key.
    public init(type: String, relation: String, source: String, target: String) {
        self.type = type
        self.relation = relation
        self.source = source
        self.target = target
    }
}
