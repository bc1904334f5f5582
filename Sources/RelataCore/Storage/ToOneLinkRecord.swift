/// One to-one link kept in its source's ``EntityRecord``.
public struct ToOneLinkRecord: Sendable, Hashable {
    /// The relation's property name.
    public var relation: String
    /// The target id, as text.
    public var target: String
    /// The position key of the source among the target's targets, when the relation is one side
    /// of a mutual pair whose inverse is to-many.
    public var inversePosition: String?

    /// A link.
    public init(relation: String, target: String, inversePosition: String? = nil) {
        self.relation = relation
        self.target = target
        self.inversePosition = inversePosition
    }
}
