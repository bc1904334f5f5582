/// The to-many link rows of one source through one relation.
public struct LinkSourceKey: Sendable, Hashable {
    /// The source entity type's name.
    public var type: String
    /// The relation's property name.
    public var relation: String
    /// The source id, as text.
    public var source: String

    /// A key.
    public init(type: String, relation: String, source: String) {
        self.type = type
        self.relation = relation
        self.source = source
    }
}
