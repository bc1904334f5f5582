/// A typed reference to an entity, stored by id: no inverse, no link table, no cascade (BartlebysCore's
/// aliases). Keep one as an ordinary stored property; resolve it against a context when needed.
///
/// ```swift
/// @EntityModel
/// struct Bookmark {
///     let id: String
///     var target: Alias<Message>          // stored as the message's id
/// }
///
/// let message = try context.instance(from: bookmark.target)          // throws if it is gone
/// let maybe = context.optionalInstance(from: bookmark.target)        // nil if it is gone
/// ```
///
/// Erasing the aliased entity does not touch the alias: resolution then reports it missing.
public struct Alias<Entity: EntityModelProtocol>: Hashable, Sendable, Codable {
    /// The id of the aliased entity.
    public var id: Entity.ID

    /// An alias of the entity with this id.
    public init(_ id: Entity.ID) {
        self.id = id
    }

    /// An alias of `entity`.
    public init(_ entity: Entity) {
        self.id = entity.id
    }

    /// Encodes the id alone.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(id)
    }

    /// Decodes an id.
    public init(from decoder: any Decoder) throws {
        id = try decoder.singleValueContainer().decode(Entity.ID.self)
    }
}

extension Context {
    /// The entity an alias refers to (strict resolution).
    ///
    /// - Throws: ``RelataError`` with code ``RelataError/Code/entityNotFound`` naming the type and
    ///   id when the entity is not in this context.
    /// - Complexity: O(1).
    public func instance<Entity: EntityModelProtocol>(from alias: Alias<Entity>) throws -> Entity {
        try find(Entity.self, id: alias.id)
    }

    /// The entity an alias refers to, or `nil` when it is not in this context (permissive
    /// resolution).
    ///
    /// - Complexity: O(1).
    public func optionalInstance<Entity: EntityModelProtocol>(from alias: Alias<Entity>) -> Entity? {
        entity(Entity.self, id: alias.id)
    }

    /// The entities several aliases refer to, in order, skipping those not in this context.
    public func instances<Entity: EntityModelProtocol>(from aliases: [Alias<Entity>]) -> [Entity] {
        aliases.compactMap { optionalInstance(from: $0) }
    }
}
