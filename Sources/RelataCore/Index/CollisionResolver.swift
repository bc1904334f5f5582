/// What a save does when another entity holds the values a ``Unique`` declaration keeps unique,
/// as in SwiftletModel: given the other entity's id, the entity being saved, the index's name
/// (its properties' names joined by `-`) and the context, it resolves the collision — or
/// throws to refuse the save.
///
/// ```swift
/// extension CollisionResolver where Entity == User {
///     /// One current user: the one saved last.
///     static var updateCurrentUser: Self {
///         CollisionResolver { existingId, _, _, context in
///             guard var user = User.query(existingId, in: context).resolve(), user.isCurrent else { return }
///             user.isCurrent = false
///             try user.save(to: &context)
///         }
///     }
/// }
/// ```
public struct CollisionResolver<Entity: EntityModelProtocol>: Sendable {
    let resolveCollisionHandler: @Sendable (Entity.ID, Entity, String, inout Context) throws -> Void

    /// A resolver that runs `resolveCollisionHandler(existing, new, indexName, &context)`.
    public init(resolveCollisionHandler: @escaping @Sendable (Entity.ID, Entity, String, inout Context) throws -> Void) {
        self.resolveCollisionHandler = resolveCollisionHandler
    }

    /// Resolves the collision of `new` with `existing` in `index`.
    func resolveCollision(existing: Entity.ID, new: Entity, indexName: String, in context: inout Context) throws {
        try resolveCollisionHandler(existing, new, indexName, &context)
    }
}

extension CollisionResolver {
    /// Refuses the save: a ``RelataError`` with code `uniqueViolation` naming the type, the
    /// entity saved, the index and the entity holding the values.
    public static var `throw`: Self {
        CollisionResolver { existing, new, indexName, _ in
            throw RelataError(
                code: .uniqueViolation, entityType: String(describing: Entity.self), id: "\(new.id)",
                message: "\(Entity.self) \"\(existing)\" already holds the values of the unique index \(indexName); "
                    + "\(Entity.self) \"\(new.id)\" cannot hold them too"
            )
        }
    }

    /// Erases the entity holding the values (its relations as its delete rules say), then saves.
    public static var upsert: Self {
        CollisionResolver { existing, _, _, context in
            try Entity.delete(id: existing, from: &context)
        }
    }
}
