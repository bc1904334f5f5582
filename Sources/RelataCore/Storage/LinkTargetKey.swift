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

    /// Equal when every field holds the same bytes (see `StoredText`): two ids that Swift's
    /// `String` finds equal in another normal form are two stored rows.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        StoredText.equal(lhs.target, rhs.target) &&
            StoredText.equal(lhs.type, rhs.type) &&
            StoredText.equal(lhs.relation, rhs.relation)
    }

    /// Hashes the id and the other fields' lengths only: keys of one kind differ by id far more
    /// often than by type or relation, and every read of a store's row cache hashes keys.
    public func hash(into hasher: inout Hasher) {
        StoredText.hash(target, into: &hasher)
        hasher.combine(type.utf8.count)
        hasher.combine(relation.utf8.count)
    }
}
