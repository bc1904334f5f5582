/// A query for one entity and the related entities to resolve with it.
///
/// ```swift
/// let user = User
///     .query("1", in: context)
///     .with(\.$chats) { chat in
///         chat.with(\.$messages).id(\.$admins)
///     }
///     .resolve()
/// ```
///
/// A query holds a snapshot of the context (O(1) to take) and does nothing until ``resolve()``.
public struct Query<Entity: EntityModelProtocol> {
    /// The snapshot the query reads.
    public let context: Context
    /// The id of the entity, or `nil` for a query that finds nothing (e.g. an empty to-one).
    public let id: Entity.ID?
    @usableFromInline var modifiers: [Modifier<Entity>]

    /// A query for the entity with this id in `context`.
    @inlinable
    public init(id: Entity.ID?, context: Context) {
        self.init(id: id, context: context, modifiers: [])
    }

    @inlinable
    init(id: Entity.ID?, context: Context, modifiers: [Modifier<Entity>]) {
        self.context = context
        self.id = id
        self.modifiers = modifiers
    }

    /// The stored entity with the requested relations filled in, or `nil` if it is not stored.
    ///
    /// - Complexity: O(entities and links resolved).
    @inlinable
    public func resolve() -> Entity? {
        guard let id else { return nil }
        return context.exclusively {
            context.noteRead(.entity(ObjectIdentifier(Entity.self), AnyHashable(id)))
            return context.planned([id], modifiers) {
                guard var entity = context.table(Entity.self)?.entity(id) else { return nil }
                for modifier in modifiers {
                    modifier.apply(&entity)
                }
                return entity
            }
        }
    }

    @inlinable
    func adding(_ modifier: Modifier<Entity>) -> Query {
        Query(id: id, context: context, modifiers: modifiers + [modifier])
    }
}

/// One step of resolving an entity: fills in one relation, from the context the query reads
/// (captured when the step is built). A class: resolving copies steps once per entity, and one
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
        let prefetch = {
            table(Entity.self)?.ensure(ids)
            for modifier in modifiers { modifier.prefetch(ids) }
        }
        // Everything held (a warm resolve): no transaction at all.
        if base.holdsEverything(prefetch) { return resolve() }
        return base.reading {
            prefetch()
            return resolve()
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
}

extension Array {
    /// Resolves every query, skipping those whose entity is not stored.
    public func resolve<Entity>() -> [Entity] where Element == Query<Entity> {
        compactMap { $0.resolve() }
    }
}
