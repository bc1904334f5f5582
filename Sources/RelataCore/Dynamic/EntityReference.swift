/// A type-erased reference to one entity: its type and its id.
///
/// Dynamic relationships (``DynamicRelationKind``) join entities of any two types, so their ends
/// are references rather than typed ids.
///
/// ```swift
/// let ref = EntityReference(User.self, id: "1")
/// if let user = ref.resolve(as: User.self, in: context) { … }
/// ```
public struct EntityReference: Hashable, @unchecked Sendable, CustomStringConvertible {
    // Sendable: `id` is a `Sendable` id and `key` wraps the same value.
    /// The entity's type.
    public let entityType: any EntityModelProtocol.Type
    /// The entity's id.
    public let id: any Hashable & Sendable
    /// `id`, hashable as a value of any type.
    let key: AnyHashable

    /// A reference to the entity of this type and id (which need not be stored).
    public init<Entity: EntityModelProtocol>(_ type: Entity.Type, id: Entity.ID) {
        entityType = type
        self.id = id
        key = AnyHashable(id)
    }

    /// A reference to `entity`.
    public init<Entity: EntityModelProtocol>(_ entity: Entity) {
        self.init(Entity.self, id: entity.id)
    }

    /// The id, if the reference is to an entity of type `Entity`.
    public func id<Entity: EntityModelProtocol>(as _: Entity.Type) -> Entity.ID? {
        guard entityType == Entity.self else { return nil }
        return key.base as? Entity.ID
    }

    /// The referenced entity, if it is of type `Entity` and stored in `context`.
    public func resolve<Entity: EntityModelProtocol>(as _: Entity.Type, in context: Context) -> Entity? {
        id(as: Entity.self).flatMap { context.entity(Entity.self, id: $0) }
    }

    /// The name of the entity type (the name a store and a ``ChangeSet`` use).
    public var typeName: String { String(describing: entityType) }

    /// `Type "id"`.
    public var description: String { "\(typeName) \"\(id)\"" }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.entityType == rhs.entityType && lhs.key == rhs.key
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(entityType))
        hasher.combine(key)
    }

    /// Whether the referenced entity is stored in `context`.
    public func exists(in context: Context) -> Bool {
        func exists<Entity: EntityModelProtocol>(_: Entity.Type) -> Bool {
            id(as: Entity.self).map { context.entity(Entity.self, id: $0) != nil } ?? false
        }
        return exists(entityType)
    }

    /// A total order the same on every replica: by type name, then id text.
    static func canonicallyPrecedes(_ a: Self, _ b: Self) -> Bool {
        let (typeA, typeB) = (a.typeName, b.typeName)
        if typeA != typeB { return typeA < typeB }
        return "\(a.id)" < "\(b.id)"
    }
}

extension EntityModelProtocol {
    /// A reference to this entity (for dynamic relationships).
    public var reference: EntityReference { EntityReference(self) }
}
