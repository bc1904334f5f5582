/// A type-erased reference to one entity: its type and its id.
///
/// Dynamic relationships (``DynamicRelationKind``) join entities of any two types, so their ends
/// are references rather than typed ids.
///
/// ```swift
/// let ref = EntityReference(User.self, id: "1")
/// if let user = ref.resolve(as: User.self, in: context) { … }
/// ```
public struct EntityReference: Hashable, Sendable, CustomStringConvertible {
    /// The entity's type.
    public let entityType: any EntityModelProtocol.Type
    /// The entity's id (of type `entityType.ID`).
    public let id: any Hashable & Sendable

    /// A reference to the entity of this type and id (which need not be stored).
    public init<Entity: EntityModelProtocol>(_ type: Entity.Type, id: Entity.ID) {
        entityType = type
        self.id = id
    }

    /// A reference to `entity`.
    public init<Entity: EntityModelProtocol>(_ entity: Entity) {
        self.init(Entity.self, id: entity.id)
    }

    /// The id, if the reference is to an entity of type `Entity`.
    public func id<Entity: EntityModelProtocol>(as _: Entity.Type) -> Entity.ID? {
        guard entityType == Entity.self else { return nil }
        return id as? Entity.ID
    }

    /// The referenced entity, if it is of type `Entity` and stored in `context`.
    public func resolve<Entity: EntityModelProtocol>(as _: Entity.Type, in context: Context) -> Entity? {
        id(as: Entity.self).flatMap { context.entity(Entity.self, id: $0) }
    }

    /// The name of the entity type (the name a store and a ``ChangeSet`` use).
    public var typeName: String { _typeName(entityType, qualified: false) }

    /// `Type "id"`.
    public var description: String { "\(typeName) \"\(id)\"" }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.entityType == rhs.entityType else { return false }
        func equal<ID: Hashable>(_ id: ID) -> Bool { id == rhs.id as? ID }
        let id: any Hashable = lhs.id
        return equal(id)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(entityType))
        func combine<ID: Hashable>(_ id: ID) { hasher.combine(id) }
        let id: any Hashable = self.id
        combine(id)
    }


    /// Whether the referenced entity is stored in `context`.
    public func exists(in context: Context) -> Bool {
        func exists<Entity: EntityModelProtocol>(_: Entity.Type) -> Bool {
            id(as: Entity.self).map { context.entity(Entity.self, id: $0) != nil } ?? false
        }
        return exists(entityType)
    }

    /// Whether erasing an entity of this type can reach a `.deny` relation (see `DenyRules`).
    var reachesDeny: Bool {
        func reaches<Entity: EntityModelProtocol>(_ type: Entity.Type) -> Bool { DenyRules.reachable(from: type) }
        return reaches(entityType)
    }

    /// Sorts references in canonical order.
    static func canonicallySorted(_ refs: some Collection<Self>) -> [Self] {
        guard refs.count > 1 else { return Array(refs) }
        return refs.sorted(by: canonicallyPrecedes)
    }

    /// A total order the same on every replica: by type name, then by id (the id's own
    /// `Comparable` order, else its description; see `IDOrder`).
    static func canonicallyPrecedes(_ a: Self, _ b: Self) -> Bool {
        guard a.entityType == b.entityType else { return a.typeName < b.typeName }
        func precedes<Entity: EntityModelProtocol>(_: Entity.Type) -> Bool {
            IDOrder.precedes(a.id as! Entity.ID, b.id as! Entity.ID)
        }
        return precedes(a.entityType)
    }
}

extension EntityModelProtocol {
    /// A reference to this entity (for dynamic relationships).
    public var reference: EntityReference { EntityReference(self) }
}
