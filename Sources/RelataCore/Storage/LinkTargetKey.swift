/// The sources linked to one target through one relation, named by the side that stores the
/// links: `type` and `relation` are the stored side's (a to-one column in `type`'s entity rows,
/// or a to-many relation's link rows), `target` the id they point to.
public struct LinkTargetKey: Sendable, Hashable {
    /// The source entity type's name (the stored side).
    public var type: String
    /// The stored side's relation name.
    public var relation: String
    /// The target id, as text.
    public var target: String

    /// A key.
    public init(type: String, relation: String, target: String) {
        self.type = type
        self.relation = relation
        self.target = target
    }
}
