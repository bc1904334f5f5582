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

    /// Equal when every field holds the same bytes (see `StoredText`): two ids that Swift's
    /// `String` finds equal in another normal form are two stored rows.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        StoredText.equal(lhs.source, rhs.source) &&
            StoredText.equal(lhs.type, rhs.type) &&
            StoredText.equal(lhs.relation, rhs.relation)
    }

    /// Hashes the id and the other fields' lengths only: keys of one kind differ by id far more
    /// often than by type or relation, and every read of a store's row cache hashes keys.
    public func hash(into hasher: inout Hasher) {
        StoredText.hash(source, into: &hasher)
        hasher.combine(type.utf8.count)
        hasher.combine(relation.utf8.count)
    }
}
