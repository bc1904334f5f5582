/// A query for one entity and the related entities to resolve with it.
///
/// A query is made bound to a context, or deferred and given one when it resolves — the two
/// forms of SwiftletModel's API:
///
/// ```swift
/// let user = User
///     .query("1", in: context)
///     .with(\.$chats) { chat in
///         chat.with(\.$messages).id(\.$admins)
///     }
///     .resolve()
///
/// let sameUser = User.query("1").with(\.$chats).resolve(in: context)
/// ```
///
/// A bound query holds a snapshot of the context (O(1) to take) and does nothing until
/// ``resolve()``. A deferred query is a description: ``resolve(in:)`` reads the context it is
/// given, and the same query resolves in any number of contexts.
public struct Query<Entity: EntityModelProtocol> {
    /// The snapshot the query reads, or `nil` for a deferred query (see ``resolve(in:)``).
    public let context: Context?
    @usableFromInline let source: Source
    @usableFromInline var steps: [QueryStep<Entity>]

    /// Where the entity's id comes from.
    @usableFromInline
    enum Source {
        /// This id (`nil`: the query finds nothing, e.g. an empty to-one).
        case id(Entity.ID?)
        /// Read from the context the query resolves in (a deferred `related` query).
        case deferred((Context) -> Entity.ID?)
    }

    /// The id of the entity, or `nil` for a query that finds nothing (e.g. an empty to-one) or a
    /// deferred query whose id depends on the context it will resolve in.
    @inlinable
    public var id: Entity.ID? {
        guard case .id(let id) = source else { return nil }
        return id
    }

    /// A query for the entity with this id in `context`.
    @inlinable
    public init(id: Entity.ID?, context: Context) {
        self.init(source: .id(id), context: context, steps: [])
    }

    /// A deferred query for the entity with this id, resolved by ``resolve(in:)``.
    @inlinable
    public init(id: Entity.ID?) {
        self.init(source: .id(id), context: nil, steps: [])
    }

    /// A query whose id `context` gives when the query resolves; bound to `context`, the id is
    /// read now.
    @inlinable
    init(context: Context?, steps: [QueryStep<Entity>] = [], id: @escaping (Context) -> Entity.ID?) {
        self.init(source: context.map { .id(id($0)) } ?? .deferred(id), context: context, steps: steps)
    }

    @inlinable
    init(source: Source, context: Context?, steps: [QueryStep<Entity>]) {
        self.context = context
        self.source = source
        self.steps = steps
    }

    /// The stored entity with the requested relations filled in, or `nil` if it is not stored. A
    /// deferred query (no ``context``) resolves to `nil`: use ``resolve(in:)``.
    ///
    /// - Complexity: O(entities and links resolved).
    @inlinable
    public func resolve() -> Entity? {
        guard let context, let id else { return nil }
        return context.exclusively {
            context.noteRead(.entity(ObjectIdentifier(Entity.self), AnyHashable(id)))
            let modifiers = steps.map { $0.bind(context) }
            return context.planned([id], modifiers) {
                guard var entity = context.table(Entity.self)?.entity(id) else { return nil }
                for modifier in modifiers {
                    modifier.apply(&entity)
                }
                return entity
            }
        }
    }

    /// Resolves the query in `context` (SwiftletModel's form): the stored entity with the
    /// requested relations, or `nil`. A query made bound to another context resolves in this one.
    @inlinable
    public func resolve(in context: Context) -> Entity? {
        bound(to: context).resolve()
    }

    /// The query, reading `context`.
    @inlinable
    func bound(to context: Context) -> Query {
        Query(source: .id(id(in: context)), context: context, steps: steps)
    }

    /// The entity's id, read from `context` for a deferred query.
    @inlinable
    func id(in context: Context) -> Entity.ID? {
        switch source {
        case .id(let id): id
        case .deferred(let id): id(context)
        }
    }

    /// A list of the entities `ids` gives for this query's entity: now in a bound query, when it
    /// resolves in a deferred one.
    @inlinable
    func list<Target>(_ ids: @escaping (Context, Entity.ID) -> [Target.ID]) -> QueryList<Target> {
        QueryList(context: context) { context in
            bound(to: context).id.map { ids(context, $0) } ?? []
        }
    }

    @inlinable
    func adding(_ step: QueryStep<Entity>) -> Query {
        Query(source: source, context: context, steps: steps + [step])
    }
}

/// One step of a query's shape (`with`, `id`), not yet bound to a context: binding it to the
/// context the query reads makes its ``Modifier``.
@usableFromInline
final class QueryStep<Entity: EntityModelProtocol> {
    @usableFromInline let bind: (Context) -> Modifier<Entity>

    @inlinable
    init(_ bind: @escaping (Context) -> Modifier<Entity>) {
        self.bind = bind
    }
}

/// One step of resolving an entity: fills in one relation, from the context the query reads
/// (captured when its ``QueryStep`` is bound). A class: resolving copies steps once per entity, and one
/// reference is one retain where two closures would be two.
@usableFromInline
final class Modifier<Entity: EntityModelProtocol> {
    @usableFromInline let apply: (inout Entity) -> Void
    /// In a context over storage: reads, in one batch per kind, what applying the step to the
    /// entities with these ids will read (their links, the targets, and what nested steps read),
    /// so a query costs a few statements per relation, not a few per entity.
    @usableFromInline let prefetch: ([Entity.ID]) -> Void

    @inlinable
    init(_ apply: @escaping (inout Entity) -> Void, prefetch: @escaping ([Entity.ID]) -> Void = { _ in }) {
        self.apply = apply
        self.prefetch = prefetch
    }
}

extension Context {
    /// Runs `resolve` after reading, level by level, what `modifiers` will read for `ids` — in a
    /// context over storage, in one read transaction; in other contexts it only runs `resolve`.
    @inlinable
    func planned<Entity: EntityModelProtocol, Result>(
        _ ids: [Entity.ID], _ modifiers: [Modifier<Entity>], _ resolve: () -> Result
    ) -> Result {
        guard let base = storage.base else { return resolve() }
        // A level of an enclosing plan, whose prefetch read this level too, or of a resolve run
        // to see whether everything is held: no probe again.
        if base.isResolvingPlanned || base.isProbing { return resolve() }
        let holdsLevel = table(Entity.self)?.holds(ids) ?? true
        // Nothing to shape and every entity held (a query's own read placed them): no probe.
        if modifiers.isEmpty, holdsLevel { return resolve() }
        // Everything held (a warm resolve): resolved once, no transaction at all. A level not
        // held is read whatever the probe finds below it: no probe then.
        if holdsLevel, let held = base.ifHoldingEverything(resolve) { return held }
        let prefetch = {
            table(Entity.self)?.ensure(ids)
            for modifier in modifiers { modifier.prefetch(ids) }
        }
        return base.reading {
            prefetch()
            return base.resolvingPlanned(resolve)
        }
    }
}

extension EntityModelProtocol {
    /// A query for the entity with this id.
    ///
    /// - Parameters:
    ///   - id: The id of the entity.
    ///   - context: The context to read (a snapshot is taken).
    @inlinable
    public static func query(_ id: ID, in context: Context) -> Query<Self> {
        Query(id: id, context: context)
    }

    /// A query for every entity of this type, in no particular order (sort it with
    /// ``QueryList/sorted(by:ascending:)``).
    public static func query(in context: Context) -> QueryList<Self> {
        QueryList(allOf: context)
    }

    /// A query for the entities with these ids, in this order (missing ones are skipped on resolve).
    public static func query(_ ids: [ID], in context: Context) -> QueryList<Self> {
        QueryList(ids: ids, context: context)
    }

    /// A query for this entity (by its id) in `context`: `message.query(in: context)` is
    /// `Message.query(message.id, in: context)`, as in SwiftletModel.
    @inlinable
    public func query(in context: Context) -> Query<Self> {
        Query(id: id, context: context)
    }

    /// A deferred query for the entity with this id: `User.query("1").resolve(in: context)`.
    @inlinable
    public static func query(_ id: ID) -> Query<Self> {
        Query(id: id)
    }

    /// A deferred query for every entity of this type, resolved by ``QueryList/resolve(in:)``.
    public static func query() -> QueryList<Self> {
        QueryList(givenIDs: nil, context: nil)
    }

    /// A deferred query for the entities with these ids, in this order.
    public static func query(_ ids: [ID]) -> QueryList<Self> {
        QueryList(givenIDs: ids, context: nil)
    }

    /// A deferred query for this entity (by its id): `message.query().resolve(in: context)`.
    @inlinable
    public func query() -> Query<Self> {
        Query(id: id)
    }
}

extension Array {
    /// Resolves every query, skipping those whose entity is not stored.
    public func resolve<Entity>() -> [Entity] where Element == Query<Entity> {
        compactMap { $0.resolve() }
    }
}

extension Collection {
    /// Resolves every query in `context`, skipping those whose entity is not stored.
    public func resolve<Entity>(in context: Context) -> [Entity] where Element == Query<Entity> {
        compactMap { $0.resolve(in: context) }
    }
}

extension Optional {
    /// Resolves the query of a to-one relation (``Query/related(_:)-(KeyPath<Entity,Relation<Target,D,Relations.ToOne,K>>)``)
    /// in `context`: `nil` when there is no query or no stored entity.
    public func resolve<Entity>(in context: Context) -> Entity? where Wrapped == Query<Entity> {
        self?.resolve(in: context)
    }

    /// Resolves the query of a to-one relation: `nil` when there is no query or no stored entity.
    public func resolve<Entity>() -> Entity? where Wrapped == Query<Entity> {
        self?.resolve()
    }
}
