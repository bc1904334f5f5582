import OrderedCollections

/// Resolving relations inside a query: `with` fills in entities, `id` fills in ids only,
/// `related` moves the query to the related entities.
extension Query {
    /// Resolves a to-many relation with the related entities, each shaped by `nested`.
    ///
    /// - Parameters:
    ///   - keyPath: The projected relation, e.g. `\.$messages`.
    ///   - nested: The relations to resolve inside each related entity.
    @inlinable
    public func with<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>,
        _ nested: (Query<Target>) -> Query<Target> = { $0 }
    ) -> Query {
        adding(RelationResolver.toMany(keyPath, nested(Query<Target>(id: nil, context: context)).modifiers, context))
    }

    /// Resolves a to-one relation with the related entity, shaped by `nested`; a relation with no
    /// link stays `.none` (as in SwiftletModel), one linked to an id not stored holds that id.
    @inlinable
    public func with<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>,
        _ nested: (Query<Target>) -> Query<Target> = { $0 }
    ) -> Query {
        adding(RelationResolver.toOne(keyPath, nested(Query<Target>(id: nil, context: context)).modifiers, context))
    }

    /// Fills a to-many relation with the ids of the related entities only.
    @inlinable
    public func id<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>
    ) -> Query {
        adding(RelationResolver.ids(keyPath, context))
    }

    /// Fills a to-one relation with the id of the related entity only (`.none` without a link).
    @inlinable
    public func id<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>
    ) -> Query {
        adding(RelationResolver.id(keyPath, context))
    }

    /// Resolves a to-many relation as an appending slice (SwiftletModel's `with(slice:)`): the
    /// same entities as ``with(_:_:)-(WritableKeyPath<Entity,Relation<Target,D,Relations.ToMany,K>>,_)``,
    /// marked so that saving the resolved entity appends them instead of replacing the relation,
    /// and so that ``RelationEncodingStrategy/explicitKeyedContainer`` writes them as `"slice"`.
    @inlinable
    public func with<Target, D, K>(
        slice keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>,
        _ nested: (Query<Target>) -> Query<Target> = { $0 }
    ) -> Query {
        adding(RelationResolver.toMany(keyPath, nested(Query<Target>(id: nil, context: context)).modifiers, context, appending: true))
    }

    /// Fills a to-many relation with ids as an appending slice (SwiftletModel's `id(slice:)`),
    /// written as `"slice_ids"` by ``RelationEncodingStrategy/explicitKeyedContainer``.
    @inlinable
    public func id<Target, D, K>(
        slice keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>
    ) -> Query {
        adding(RelationResolver.ids(keyPath, context, appending: true))
    }

    /// A query for the entities this entity links to through a to-many relation, in order.
    @inlinable
    public func related<Target, D, K>(
        _ keyPath: KeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>
    ) -> QueryList<Target> {
        guard let id else { return QueryList(ids: [], context: context) }
        return QueryList(ids: context.ids(of: id, keyPath), context: context)
    }

    /// A query for the entity this entity links to through a to-one relation, or `nil` when it
    /// links to none (SwiftletModel's optional query).
    @inlinable
    public func related<Target, D, K>(
        _ keyPath: KeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>
    ) -> Query<Target>? {
        guard let id, let target = context.ids(of: id, keyPath).first else { return nil }
        return Query<Target>(id: target, context: context)
    }

    /// The number of targets of a relation, read from the link table without building entities.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func count<Target, D, C, K>(_ keyPath: KeyPath<Entity, Relation<Target, D, C, K>>) -> Int {
        guard let id else { return 0 }
        return context.count(of: id, keyPath)
    }
}

/// Builds the modifiers that fill in one relation of a resolved entity.
///
/// A modifier is built once per query node, for the context the query reads: it captures the link
/// table and the target table, so resolving an entity costs one lookup per relation. Inlinable so
/// that the closures are specialized for the client's entity and id types.
@usableFromInline
enum RelationResolver {
    @inlinable
    static func toMany<Entity: EntityModelProtocol, Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>,
        _ nested: [Modifier<Target>],
        _ context: Context,
        appending: Bool = false
    ) -> Modifier<Entity> {
        let key = Entity.relationKey(keyPath)
        let links = context.table(Entity.self)?.existingLinkTable(key, Target.ID.self)
        let targets = context.table(Target.self)
        let write = RelationWriter(keyPath, storage: [Target].self)
        let region = context.readRecorder
        return Modifier { entity in
            var resolved: [Target] = []
            region?.insert(.links(ObjectIdentifier(Entity.self), key.ordinal, AnyHashable(entity.id)))
            if let ids = links?.list(of: entity.id)?.targets, let targets {
                resolved.reserveCapacity(ids.count)
                for id in ids {
                    region?.insert(.entity(ObjectIdentifier(Target.self), AnyHashable(id)))
                    guard var target = targets.entity(id) else { continue }
                    for modifier in nested { modifier.apply(&target) }
                    resolved.append(target)
                }
            }
            write(&entity, Relation(state: .entities(resolved, fragment: false, appending: appending)))
        } prefetch: { ids in
            guard let links else { return }
            links.ensure(ids, withTargets: targets != nil)
            let present = ids.flatMap { links.many[$0]?.targets ?? [] }
            targets?.ensure(present)
            for modifier in nested { modifier.prefetch(present) }
        }
    }

    @inlinable
    static func toOne<Entity: EntityModelProtocol, Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>,
        _ nested: [Modifier<Target>],
        _ context: Context
    ) -> Modifier<Entity> {
        let key = Entity.relationKey(keyPath)
        let links = context.table(Entity.self)?.existingLinkTable(key, Target.ID.self)
        let targets = context.table(Target.self)
        let write = RelationWriter(keyPath, storage: Target.self)
        let region = context.readRecorder
        return Modifier { entity in
            region?.insert(.links(ObjectIdentifier(Entity.self), key.ordinal, AnyHashable(entity.id)))
            guard let id = links?.target(of: entity.id) else {
                // No link: `.none`, as SwiftletModel resolves it (saving the result elsewhere
                // leaves that context's link alone).
                write(&entity, Relation(state: .none))
                return
            }
            region?.insert(.entity(ObjectIdentifier(Target.self), AnyHashable(id)))
            guard var target = targets?.entity(id) else {
                write(&entity, Relation(state: .id(id)))
                return
            }
            for modifier in nested { modifier.apply(&target) }
            write(&entity, Relation(state: .entities([target], fragment: false, appending: false)))
        } prefetch: { ids in
            guard let links else { return }
            links.ensure(ids, withTargets: targets != nil)
            let present = ids.compactMap { links.one[$0] }
            targets?.ensure(present)
            for modifier in nested { modifier.prefetch(present) }
        }
    }

    @inlinable
    static func ids<Entity: EntityModelProtocol, Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>,
        _ context: Context,
        appending: Bool = false
    ) -> Modifier<Entity> {
        let key = Entity.relationKey(keyPath)
        let links = context.table(Entity.self)?.existingLinkTable(key, Target.ID.self)
        let write = RelationWriter(keyPath, storage: [Target].self)
        let region = context.readRecorder
        return Modifier { entity in
            region?.insert(.links(ObjectIdentifier(Entity.self), key.ordinal, AnyHashable(entity.id)))
            let ids = links?.list(of: entity.id)?.targets
            write(&entity, Relation(state: .ids(ids ?? [], appending: appending)))
        } prefetch: { ids in
            links?.ensure(ids)
        }
    }

    @inlinable
    static func id<Entity: EntityModelProtocol, Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>,
        _ context: Context
    ) -> Modifier<Entity> {
        let key = Entity.relationKey(keyPath)
        let links = context.table(Entity.self)?.existingLinkTable(key, Target.ID.self)
        let write = RelationWriter(keyPath, storage: Target.self)
        let region = context.readRecorder
        return Modifier { entity in
            region?.insert(.links(ObjectIdentifier(Entity.self), key.ordinal, AnyHashable(entity.id)))
            let id = links?.target(of: entity.id)
            write(&entity, Relation(state: id.map { .id($0) } ?? .none))
        } prefetch: { ids in
            links?.ensure(ids)
        }
    }
}

/// Writes a resolved relation into an entity: through the stored `Relationship` when the entity
/// provides its key path (a direct store), else through the projected value's setter.
@usableFromInline
struct RelationWriter<Entity: EntityModelProtocol, Target: _RelationTarget, D, K> {
    @usableFromInline let projected: WritableKeyPath<Entity, Relation<Target._RelatedEntity, D, Target._Cardinality, K>>
    @usableFromInline let storage: WritableKeyPath<Entity, Relationship<Target, D, K>>?

    @inlinable
    init(
        _ projected: WritableKeyPath<Entity, Relation<Target._RelatedEntity, D, Target._Cardinality, K>>,
        storage _: Target.Type
    ) {
        self.projected = projected
        self.storage = Entity._relataStorageKeyPath(projected) as? WritableKeyPath<Entity, Relationship<Target, D, K>>
    }

    @inlinable
    func callAsFunction(_ entity: inout Entity, _ relation: Relation<Target._RelatedEntity, D, Target._Cardinality, K>) {
        if let storage {
            entity[keyPath: storage].projectedValue = relation
        } else {
            entity[keyPath: projected] = relation
        }
    }
}
