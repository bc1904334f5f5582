import OrderedCollections

/// Resolving relations inside a query: `with` fills in entities, `id` fills in ids only,
/// `related` moves the query to the related entities.
extension Query {
    /// Resolves a to-many relation with the related entities, which `nested` shapes, filters,
    /// sorts and limits as a list (`with(\.$messages) { $0.filter(\.isRead == false).limit(20) }`).
    ///
    /// - Parameters:
    ///   - keyPath: The projected relation, e.g. `\.$messages`.
    ///   - fragment: Whether the related entities are fragments (saved with
    ///     ``EntityModelProtocol/patch``), as SwiftletModel's `fragment(_:)` resolves them.
    ///   - nested: The relations to resolve inside each related entity, and which of them to keep.
    @inlinable
    public func with<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>,
        fragment: Bool = false,
        _ nested: (QueryList<Target>) -> QueryList<Target> = { $0 }
    ) -> Query {
        adding(RelationResolver.toMany(keyPath, nested(.relationTargets), fragment: fragment))
    }

    /// Resolves a to-one relation with the related entity, shaped by `nested`; a relation with no
    /// link stays `.none` (as in SwiftletModel), one linked to an id not stored holds that id.
    @inlinable
    public func with<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>,
        fragment: Bool = false,
        _ nested: (Query<Target>) -> Query<Target> = { $0 }
    ) -> Query {
        adding(RelationResolver.toOne(keyPath, nested(Query<Target>(id: nil)).steps, fragment: fragment))
    }

    /// Resolves a to-many relation with fragments of the related entities (SwiftletModel's
    /// `fragment(_:)`): `with(keyPath, fragment: true, nested)`.
    @inlinable
    public func fragment<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>,
        _ nested: (QueryList<Target>) -> QueryList<Target> = { $0 }
    ) -> Query {
        with(keyPath, fragment: true, nested)
    }

    /// Resolves a to-one relation with a fragment of the related entity (SwiftletModel's
    /// `fragment(_:)`).
    @inlinable
    public func fragment<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>,
        _ nested: (Query<Target>) -> Query<Target> = { $0 }
    ) -> Query {
        with(keyPath, fragment: true, nested)
    }

    /// Fills a to-many relation with the ids of the related entities only.
    @inlinable
    public func id<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>
    ) -> Query {
        adding(RelationResolver.ids(keyPath))
    }

    /// Fills a to-one relation with the id of the related entity only (`.none` without a link).
    @inlinable
    public func id<Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>
    ) -> Query {
        adding(RelationResolver.id(keyPath))
    }

    /// Resolves a to-many relation as an appending slice (SwiftletModel's `with(slice:)`): the
    /// same entities as ``with(_:fragment:_:)-(WritableKeyPath<Entity,Relation<Target,D,Relations.ToMany,K>>,_,_)``,
    /// marked so that saving the resolved entity appends them instead of replacing the relation,
    /// and so that ``RelationEncodingStrategy/explicitKeyedContainer`` writes them as `"slice"`.
    @inlinable
    public func with<Target, D, K>(
        slice keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>,
        fragment: Bool = false,
        _ nested: (QueryList<Target>) -> QueryList<Target> = { $0 }
    ) -> Query {
        adding(RelationResolver.toMany(keyPath, nested(.relationTargets), fragment: fragment, appending: true))
    }

    /// Fills a to-many relation with ids as an appending slice (SwiftletModel's `id(slice:)`),
    /// written as `"slice_ids"` by ``RelationEncodingStrategy/explicitKeyedContainer``.
    @inlinable
    public func id<Target, D, K>(
        slice keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>
    ) -> Query {
        adding(RelationResolver.ids(keyPath, appending: true))
    }

    /// A query for the entities this entity links to through a to-many relation, in order.
    @inlinable
    public func related<Target, D, K>(
        _ keyPath: KeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>
    ) -> QueryList<Target> {
        // Bound: read now, without the closure a deferred query keeps.
        if let context { return QueryList(ids: id.map { context.ids(of: $0, keyPath) } ?? [], context: context) }
        return list { context, id in context.ids(of: id, keyPath) }
    }

    /// A query for the entity this entity links to through a to-one relation, or `nil` when it
    /// links to none (SwiftletModel's optional query). A deferred query gives a deferred query,
    /// which resolves to `nil` when the entity links to none.
    @inlinable
    public func related<Target, D, K>(
        _ keyPath: KeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>
    ) -> Query<Target>? {
        guard let context else {
            return Query<Target>(context: nil) { context in
                bound(to: context).id.flatMap { context.ids(of: $0, keyPath).first }
            }
        }
        guard let id, let target = context.ids(of: id, keyPath).first else { return nil }
        return Query<Target>(id: target, context: context)
    }

    /// The number of targets of a relation, read from the link table without building entities
    /// (0 for a deferred query: see ``count(_:in:)``).
    ///
    /// - Complexity: O(1).
    @inlinable
    public func count<Target, D, C, K>(_ keyPath: KeyPath<Entity, Relation<Target, D, C, K>>) -> Int {
        guard let context else { return 0 }
        return count(keyPath, in: context)
    }

    /// The number of targets of a relation in `context`, read from the link table.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func count<Target, D, C, K>(_ keyPath: KeyPath<Entity, Relation<Target, D, C, K>>, in context: Context) -> Int {
        guard let id = id(in: context) else { return 0 }
        return context.count(of: id, keyPath)
    }
}

/// Builds the steps that fill in one relation of a resolved entity.
///
/// A step is bound once per query node to the context the query reads: its modifier captures the
/// link table and the target table, so resolving an entity costs one lookup per relation.
/// Inlinable so that the closures are specialized for the client's entity and id types.
@usableFromInline
enum RelationResolver {
    @inlinable
    static func toMany<Entity: EntityModelProtocol, Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>,
        _ nested: QueryList<Target>,
        fragment: Bool = false,
        appending: Bool = false
    ) -> QueryStep<Entity> {
        let key = Entity.relationKey(keyPath)
        let write = RelationWriter(keyPath, storage: [Target].self)
        return QueryStep { context in
            let list = nested.bound(to: context)
            // A closure that returned another list (SwiftletModel's schema queries): its entities,
            // the same for every entity.
            if !list.isRelationTargets {
                let resolved = Lazy { list.resolve() }
                return Modifier { entity in
                    write(&entity, Relation(state: .entities(resolved.value, fragment: fragment, appending: appending)))
                }
            }
            let links = context.table(Entity.self)?.existingLinkTable(key, Target.ID.self)
            let region = context.readRecorder
            // Combined from the placeholder (`$0.filter(…).or(.filter(…))`): each entity's list is
            // the combination's, given its targets.
            if let targetIDs = list.targetIDs {
                var shaped = list
                (shaped.targetIDs, shaped.isRelationTargets) = (nil, false)
                return Modifier { entity in
                    region?.insert(.links(ObjectIdentifier(Entity.self), key.ordinal, AnyHashable(entity.id)))
                    var each = shaped
                    each.givenIDs = targetIDs(context, links?.list(of: entity.id).map { Array($0.targets) } ?? [])
                    write(&entity, Relation(state: .entities(each.resolve(), fragment: fragment, appending: appending)))
                }
            }
            let select = list.selection
            let nested = list.steps.map { $0.bind(context) }
            let targets = context.table(Target.self)
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
                if let select { resolved = select(resolved) }
                write(&entity, Relation(state: .entities(resolved, fragment: fragment, appending: appending)))
            } prefetch: { ids in
                guard let links else { return }
                links.ensure(ids, withTargets: targets != nil)
                let present = ids.flatMap { links.many[$0]?.targets ?? [] }
                targets?.ensure(present)
                for modifier in nested { modifier.prefetch(present) }
            }
        }
    }

    @inlinable
    static func toOne<Entity: EntityModelProtocol, Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>,
        _ nested: [QueryStep<Target>],
        fragment: Bool = false
    ) -> QueryStep<Entity> {
        let key = Entity.relationKey(keyPath)
        let write = RelationWriter(keyPath, storage: Target.self)
        return QueryStep { context in
            let nested = nested.map { $0.bind(context) }
            let links = context.table(Entity.self)?.existingLinkTable(key, Target.ID.self)
            let targets = context.table(Target.self)
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
                write(&entity, Relation(state: .entities([target], fragment: fragment, appending: false)))
            } prefetch: { ids in
                guard let links else { return }
                links.ensure(ids, withTargets: targets != nil)
                let present = ids.compactMap { links.one[$0] }
                targets?.ensure(present)
                for modifier in nested { modifier.prefetch(present) }
            }
        }
    }

    @inlinable
    static func ids<Entity: EntityModelProtocol, Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>,
        appending: Bool = false
    ) -> QueryStep<Entity> {
        let key = Entity.relationKey(keyPath)
        let write = RelationWriter(keyPath, storage: [Target].self)
        return QueryStep { context in
            let links = context.table(Entity.self)?.existingLinkTable(key, Target.ID.self)
            let region = context.readRecorder
            return Modifier { entity in
                region?.insert(.links(ObjectIdentifier(Entity.self), key.ordinal, AnyHashable(entity.id)))
                let ids = links?.list(of: entity.id)?.targets
                write(&entity, Relation(state: .ids(ids ?? [], appending: appending)))
            } prefetch: { ids in
                links?.ensure(ids)
            }
        }
    }

    @inlinable
    static func id<Entity: EntityModelProtocol, Target, D, K>(
        _ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>
    ) -> QueryStep<Entity> {
        let key = Entity.relationKey(keyPath)
        let write = RelationWriter(keyPath, storage: Target.self)
        return QueryStep { context in
            let links = context.table(Entity.self)?.existingLinkTable(key, Target.ID.self)
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
}

/// A value computed the first time it is read.
@usableFromInline
final class Lazy<Value> {
    @usableFromInline let make: () -> Value
    @usableFromInline var made: Value?

    @inlinable
    init(_ make: @escaping () -> Value) {
        self.make = make
    }

    @inlinable
    var value: Value {
        if let made { return made }
        let value = make()
        made = value
        return value
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
