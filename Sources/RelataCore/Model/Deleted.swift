/// The tombstone of an erased entity (SwiftletModel's `Deleted`): the entity as it was, its
/// relations as ids, stored under the entity's id.
///
/// ```swift
/// try chat.delete(from: &context)
/// let tombstone = Deleted<Chat>.query(chat.id).resolve(in: context)   // the chat as it was
/// try tombstone?.restore(in: &context)                                // saved again
/// ```
///
/// Deleting an entity stores its tombstone; saving an entity erases its tombstone; ``restore(in:)``
/// saves the entity and erases the tombstone. Tombstones are entities like any other: query them,
/// relate to them (a schema entity's `deletedChats: [Deleted<Chat>]?`), erase them to prune them
/// (`try Deleted<Chat>.delete(id: id, from: &context)`).
///
/// Where tombstones are kept:
/// - A context that holds everything (`Context()`, a whole load) keeps one for every entity
///   erased, as SwiftletModel does — unless the type says otherwise
///   (``EntityModelProtocol/keepsTombstones``: `static var keepsTombstones: Bool { false }`).
/// - A context over a ``Store``'s storage keeps them for the types whose `Deleted<T>` the store's
///   schema lists (`EntitySchema(Chat.self, Deleted<Chat>.self)`), and for no other: a store
///   grows with tombstones only where its schema asks for them.
/// - A change set (``ChangeSet``) does not carry them: a replica that applies an erasure writes
///   its own tombstone.
/// A tombstone's erasure leaves no tombstone.
public struct Deleted<Entity: EntityModelProtocol>: EntityModelProtocol {
    /// The erased entity's id.
    public var id: Entity.ID { entity.id }
    /// The entity as it was when it was erased, its relations as ids.
    public let entity: Entity

    /// The tombstone of `entity`.
    public init(_ entity: Entity) {
        self.entity = entity
    }

    public func save(to context: inout Context, options: MergeStrategy<Deleted>) throws {
        try willSave(to: &context)
        context._upsert(self, options: options)
        try didSave(to: &context)
    }

    /// Erases the entity the tombstone stands for, if it is stored (saving a tombstone deletes
    /// the entity, as in SwiftletModel).
    public func willSave(to context: inout Context) throws {
        if context.entity(Entity.self, id: id) != nil {
            try Entity.delete(id: id, from: &context)
        }
    }

    /// Saves the entity again (with its default merge strategy) and erases the tombstone.
    public func restore(in context: inout Context) throws {
        try entity.save(to: &context, options: Entity.defaultMergeStrategy)
        try delete(from: &context)
    }

    public func delete(from context: inout Context) throws {
        try context._delete(self)
    }

    public mutating func normalize() {}

    public static var patch: MergeStrategy<Deleted> { .replace }

    @_documentation(visibility: private)
    public static func _relataVisitRelations<V: _RelationVisitor>(_ visitor: inout V) throws {}

    @_documentation(visibility: private)
    public static func _relataRelationKey(_ keyPath: AnyKeyPath) -> _AnyRelationKey? { nil }
}

extension EntityModelProtocol {
    /// Whether the type is a ``Deleted`` tombstone (its erasure leaves no tombstone).
    @_documentation(visibility: private)
    public static var _relataIsTombstone: Bool { false }

    public static var keepsTombstones: Bool { true }
}

extension Deleted {
    @_documentation(visibility: private)
    public static var _relataIsTombstone: Bool { true }
}

extension Context {
    /// Whether erasing an entity of type `Entity` here leaves a ``Deleted`` tombstone.
    @usableFromInline
    func keepsTombstones<Entity: EntityModelProtocol>(of _: Entity.Type) -> Bool {
        if Entity._relataIsTombstone { return false }
        guard let base = storage.base else { return Entity.keepsTombstones }
        return base.schema.type(named: EntitySchema.storageName(of: Deleted<Entity>.self)) != nil
    }

    /// The tombstone of `entity` if erasing it here keeps one: the stored entity, its relations
    /// as ids.
    @usableFromInline
    func tombstone<Entity: EntityModelProtocol>(of entity: Entity) -> Deleted<Entity>? {
        guard keepsTombstones(of: Entity.self) else { return nil }
        return entity.asDeleted(in: self)
    }

    /// Erases the tombstone of the entity `id`, if one is kept (a save brings the entity back).
    /// Inlinable: every save calls it, and unspecialized it looked the metadata of `Deleted<Entity>`
    /// up at run time (about 4% of an in-memory save).
    @inlinable
    mutating func eraseTombstone<Entity: EntityModelProtocol>(of _: Entity.Type, id: Entity.ID) {
        // The table lookup first: most saves find no tombstone table and stop there.
        guard let table = table(Deleted<Entity>.self), !Entity._relataIsTombstone, table.entity(id) != nil else { return }
        let tombstones = mutableTable(Deleted<Entity>.self)
        tombstones.setEntity(nil, for: id)
        tombstones.touch(id)
    }
}

/// Fills every relation of an entity with the ids the context links it to.
@usableFromInline
struct RelationIDsFiller<Entity: EntityModelProtocol>: _RelationVisitor {
    @usableFromInline let context: Context
    @usableFromInline var entity: Entity

    @inlinable
    init(context: Context, entity: Entity) {
        self.context = context
        self.entity = entity
    }

    /// A relation of a type that conforms by hand: written through its projected value.
    @inlinable
    mutating func visit<Source, Target, Directionality, Cardinality, Constraints>(
        _ descriptor: RelationDescriptor<Source, Target>,
        _ keyPath: WritableKeyPath<Source, Relation<Target, Directionality, Cardinality, Constraints>>
    ) throws {
        guard Source.self == Entity.self else { return }
        let keyPath = unsafeDowncast(keyPath, to: WritableKeyPath<Entity, Relation<Target, Directionality, Cardinality, Constraints>>.self)
        entity[keyPath: keyPath] = relation(descriptor, keyPath)
    }

    /// A relation `@EntityModel` declared: written through the wrapper's storage.
    @inlinable
    mutating func visit<Source, Wrapped: _RelationTarget, Directionality, Constraints>(
        _ descriptor: RelationDescriptor<Source, Wrapped._RelatedEntity>,
        _ keyPath: WritableKeyPath<Source, Relation<Wrapped._RelatedEntity, Directionality, Wrapped._Cardinality, Constraints>>,
        storage: WritableKeyPath<Source, Relationship<Wrapped, Directionality, Constraints>>
    ) throws {
        guard Source.self == Entity.self else { return }
        let keyPath = unsafeDowncast(
            keyPath, to: WritableKeyPath<Entity, Relation<Wrapped._RelatedEntity, Directionality, Wrapped._Cardinality, Constraints>>.self
        )
        let storage = unsafeDowncast(storage, to: WritableKeyPath<Entity, Relationship<Wrapped, Directionality, Constraints>>.self)
        entity[keyPath: storage].projectedValue = relation(descriptor, keyPath)
    }

    /// The ids the relation `keyPath` of the entity holds, as a relation value.
    ///
    /// `Entity._relataVisitRelations` visits `Entity`'s relations: the callers' casts of `Source`
    /// to `Entity` change nothing but the static type (a dynamic key path cast per relation and
    /// entity erased cost more than the rest of the tombstone).
    @inlinable
    func relation<Source, Target, Directionality, Cardinality, Constraints>(
        _ descriptor: RelationDescriptor<Source, Target>,
        _ keyPath: WritableKeyPath<Entity, Relation<Target, Directionality, Cardinality, Constraints>>
    ) -> Relation<Target, Directionality, Cardinality, Constraints> {
        let toMany = descriptor.key.toMany
        let ids: [Target.ID]
        if context.storage.base == nil {
            // Everything is held: the link table answers directly.
            let links = context.table(Entity.self)?.existingLinkTable(descriptor.key, Target.ID.self)
            ids = toMany ? links?.list(of: entity.id)?.targets ?? [] : links?.target(of: entity.id).map { [$0] } ?? []
        } else {
            ids = context.ids(of: entity.id, keyPath)
        }
        if toMany { return Relation(state: .ids(ids, appending: false)) }
        return ids.first.map { Relation(state: .id($0)) } ?? .none
    }
}

extension EntityModelProtocol {
    /// The tombstone deleting this entity would leave (SwiftletModel's `asDeleted(in:)`): the
    /// entity as `context` stores it, its relations as ids; `nil` when it is not stored or is a
    /// tombstone itself. (Inlinable: specialized where it is called, a delete's tombstones are
    /// filled without looking generic metadata up per relation: half of an erasure's time.)
    @inlinable
    public func asDeleted(in context: Context) -> Deleted<Self>? {
        guard !Self._relataIsTombstone, let stored = context.entity(Self.self, id: id) else { return nil }
        var filler = RelationIDsFiller(context: context, entity: stored)
        try? Self._relataVisitRelations(&filler)
        return Deleted(filler.entity)
    }
}
