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

    /// Equal when every field holds the same bytes (see `StoredText`).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        StoredText.equal(lhs.source, rhs.source) && StoredText.equal(lhs.target, rhs.target)
            && StoredText.equal(lhs.type, rhs.type) && StoredText.equal(lhs.relation, rhs.relation)
    }

    /// Hashes the bytes of the ids and the other fields' lengths.
    public func hash(into hasher: inout Hasher) {
        StoredText.hash(source, into: &hasher)
        StoredText.hash(target, into: &hasher)
        hasher.combine(type.utf8.count)
        hasher.combine(relation.utf8.count)
    }
}
