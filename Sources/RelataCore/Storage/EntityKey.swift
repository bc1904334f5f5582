/// Identifies one stored entity.
public struct EntityKey: Sendable, Hashable {
    /// The entity type's name.
    public var type: String
    /// The id, as text.
    public var id: String

    /// A key.
    public init(type: String, id: String) {
        self.type = type
        self.id = id
    }

    /// Equal when every field holds the same bytes (see `StoredText`): two ids that Swift's
    /// `String` finds equal in another normal form are two stored rows.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        StoredText.equal(lhs.id, rhs.id) &&
            StoredText.equal(lhs.type, rhs.type)
    }

    /// Hashes the id and the other fields' lengths only: keys of one kind differ by id far more
    /// often than by type or relation, and every read of a store's row cache hashes keys.
    public func hash(into hasher: inout Hasher) {
        StoredText.hash(id, into: &hasher)
        hasher.combine(type.utf8.count)
    }
}
