/// Resolving relations inside a query: `with` fills in entities, `id` fills in ids only,
/// `related` moves the query to the related entities.
extension Query {
    /// Resolves a to-many relation with the related entities, each shaped by `nested`.
    ///
    /// - Parameters:
    ///   - keyPath: The projected relation, e.g. `\.$messages`.
    ///   - nested: The relations to resolve inside each related entity.
    public func with<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>,
        _ nested: (Query<Target>) -> Query<Target> = { $0 }
    ) -> Query {
        adding(RelationResolver.toMany(keyPath, nested(Query<Target>(id: nil, context: context)).modifiers))
    }

    /// Resolves a to-one relation with the related entity, shaped by `nested`.
    public func with<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>,
        _ nested: (Query<Target>) -> Query<Target> = { $0 }
    ) -> Query {
        adding(RelationResolver.toOne(keyPath, nested(Query<Target>(id: nil, context: context)).modifiers))
    }

    /// Fills a to-many relation with the ids of the related entities only.
    public func id<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>
    ) -> Query {
        adding(RelationResolver.ids(keyPath))
    }

    /// Fills a to-one relation with the id of the related entity only.
    public func id<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>
    ) -> Query {
        adding(RelationResolver.id(keyPath))
    }

    /// A query for the entities this entity links to through a to-many relation, in order.
    public func related<Target, D, K>(
        _ keyPath: KeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>
    ) -> QueryList<Target> {
        guard let id else { return QueryList(ids: [], context: context) }
        return QueryList(ids: context.ids(of: id, keyPath), context: context)
    }

    /// A query for the entity this entity links to through a to-one relation.
    public func related<Target, D, K>(
        _ keyPath: KeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>
    ) -> Query<Target> {
        guard let id else { return Query<Target>(id: nil, context: context) }
        return Query<Target>(id: context.ids(of: id, keyPath).first, context: context)
    }

    /// The number of targets of a relation, read from the link table without building entities.
    ///
    /// - Complexity: O(1).
    public func count<Target, D, C, K>(_ keyPath: KeyPath<Entity, Relation<Target, D, C, K>>) -> Int {
        guard let id else { return 0 }
        return context.count(of: id, keyPath)
    }
}

/// Builds the modifiers that fill in one relation of a resolved entity.
@usableFromInline
enum RelationResolver {
    @usableFromInline
    static func toMany<Entity: EntityModelProtocol, Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>,
        _ nested: [Modifier<Target>]
    ) -> Modifier<Entity> {
        let key = Entity.relationKey(keyPath)
        return Modifier { entity, context in
            let ids = context.targets(Entity.self, key, of: entity.id, Target.ID.self)
            var resolved: [Target] = []
            resolved.reserveCapacity(ids.count)
            if let targets = context.table(Target.self) {
                for id in ids {
                    guard var target = targets.entities[id] else { continue }
                    for modifier in nested { modifier.apply(&target, context) }
                    resolved.append(target)
                }
            }
            entity[keyPath: keyPath] = .relation(resolved)
        }
    }

    @usableFromInline
    static func toOne<Entity: EntityModelProtocol, Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>,
        _ nested: [Modifier<Target>]
    ) -> Modifier<Entity> {
        let key = Entity.relationKey(keyPath)
        return Modifier { entity, context in
            guard let id = context.targets(Entity.self, key, of: entity.id, Target.ID.self).first else {
                entity[keyPath: keyPath] = Relation(state: .null)
                return
            }
            guard var target = context.table(Target.self)?.entities[id] else {
                entity[keyPath: keyPath] = .id(id)
                return
            }
            for modifier in nested { modifier.apply(&target, context) }
            entity[keyPath: keyPath] = .relation(target)
        }
    }

    @usableFromInline
    static func ids<Entity: EntityModelProtocol, Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>
    ) -> Modifier<Entity> {
        let key = Entity.relationKey(keyPath)
        return Modifier { entity, context in
            entity[keyPath: keyPath] = .ids(context.targets(Entity.self, key, of: entity.id, Target.ID.self))
        }
    }

    @usableFromInline
    static func id<Entity: EntityModelProtocol, Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>
    ) -> Modifier<Entity> {
        let key = Entity.relationKey(keyPath)
        return Modifier { entity, context in
            let id = context.targets(Entity.self, key, of: entity.id, Target.ID.self).first
            entity[keyPath: keyPath] = id.map { .id($0) } ?? Relation(state: .null)
        }
    }
}
