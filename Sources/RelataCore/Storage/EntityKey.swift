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
}
