/// The value of a relation: what an entity says about its related entities.
///
/// You reach it through the projected value of a ``Relationship`` property (`message.$author`).
/// It keeps apart "unknown" (``none``), "explicitly nothing" (``null``), ids, full entities,
/// fragments, and slices to append:
///
/// ```swift
/// message.$author = .relation(user)      // link, and save the user
/// message.$author = .id(user.id)         // link by id only
/// message.$attachment = .null            // unlink on save (optional to-one only)
/// chat.$messages = .appending(ids: ["3"]) // add to the existing links
/// ```
///
/// The generic parameters make misuse a compile error: `.null` exists only for optional to-one
/// relations, `.id` and `.relation(_: Entity)` only for to-one, `.ids` and `.appending` only for
/// to-many.
public struct Relation<Entity: EntityModelProtocol, Directionality, Cardinality, Constraints>: Sendable {
    @usableFromInline
    enum State: Sendable {
        case none
        case null
        /// One id (a to-one link by id), kept apart from `ids` to avoid an array per link.
        case id(Entity.ID)
        case ids([Entity.ID], appending: Bool)
        case entities([Entity], fragment: Bool, appending: Bool)
    }

    @usableFromInline
    var state: State

    @inlinable
    init(state: State) {
        self.state = state
    }

    /// Unknown: saving it leaves the stored links as they are. The value of every relation of a
    /// stored (normalized) entity.
    public static var none: Self { Self(state: .none) }

    /// The ids of the related entities this value carries, resolved or not.
    public var ids: [Entity.ID] {
        switch state {
        case .none, .null: []
        case .id(let id): [id]
        case .ids(let ids, _): ids
        case .entities(let entities, _, _): entities.map { $0.id }
        }
    }

    /// The full related entities this value carries (empty when it only has ids).
    public var entities: [Entity] {
        if case .entities(let entities, _, _) = state { return entities }
        return []
    }

    /// Whether the value is ``none``.
    public var isNone: Bool {
        if case .none = state { return true }
        return false
    }

    /// Whether the value is an explicit nil (`.null`).
    public var isNull: Bool {
        if case .null = state { return true }
        return false
    }

    /// Whether saving this value adds to the stored links instead of replacing them.
    public var isAppending: Bool {
        switch state {
        case .ids(_, let appending), .entities(_, _, let appending): appending
        case .none, .null, .id: false
        }
    }

    /// Whether the related entities are fragments, merged with their `fragmentMergeStrategy`.
    public var isFragment: Bool {
        if case .entities(_, true, _) = state { return true }
        return false
    }

    /// Whether the value holds only an id or ids, not entities (SwiftletModel's load state:
    /// resolve the entities if you need them). `false` for ``none`` and for an explicit nil
    /// (`.null`, see ``isNull``), which hold no id.
    public var isId: Bool {
        switch state {
        case .id, .ids: true
        case .none, .null, .entities: false
        }
    }
}

extension Relation where Cardinality == Relations.ToMany {
    /// Whether the value is a slice of the list — ids or entities to append to the stored links
    /// (`.appending(ids:)`, `Query.with(slice:)`) — rather than the whole list.
    public var isSlice: Bool { isAppending }
}

// MARK: - To-one

extension Relation where Cardinality == Relations.ToOne {
    /// Links to `entity` and saves it with its default merge strategy.
    public static func relation(_ entity: Entity) -> Self {
        Self(state: .entities([entity], fragment: false, appending: false))
    }

    /// Links to `entity` and saves it as a fragment, with its fragment merge strategy.
    public static func fragment(_ entity: Entity) -> Self {
        Self(state: .entities([entity], fragment: true, appending: false))
    }

    /// Links to the entity with this id, which need not be in the context yet.
    public static func id(_ id: Entity.ID) -> Self {
        Self(state: .id(id))
    }

    /// The id of the related entity, when this value carries one.
    public var id: Entity.ID? { ids.first }

    /// The related entity, when this value carries a full one.
    public var entity: Entity? { entities.first }
}

extension Relation where Cardinality == Relations.ToOne, Constraints == Relations.Optional {
    /// An explicit nil: saving it removes the link (the related entity is not deleted).
    public static var null: Self { Self(state: .null) }
}

// MARK: - To-many

extension Relation where Cardinality == Relations.ToMany {
    /// Replaces the links with these entities, in this order, and saves them.
    public static func relation(_ entities: [Entity]) -> Self {
        Self(state: .entities(entities, fragment: false, appending: false))
    }

    /// Replaces the links with these entities, in this order, saved as fragments.
    public static func fragment(_ entities: [Entity]) -> Self {
        Self(state: .entities(entities, fragment: true, appending: false))
    }

    /// Replaces the links with the entities of these ids, in this order.
    public static func ids(_ ids: [Entity.ID]) -> Self {
        Self(state: .ids(ids, appending: false))
    }

    /// Adds these entities after the existing links, and saves them.
    public static func appending(relation entities: [Entity]) -> Self {
        Self(state: .entities(entities, fragment: false, appending: true))
    }

    /// Adds these entities after the existing links, saved as fragments.
    public static func appending(fragment entities: [Entity]) -> Self {
        Self(state: .entities(entities, fragment: true, appending: true))
    }

    /// Adds the entities of these ids after the existing links.
    public static func appending(ids: [Entity.ID]) -> Self {
        Self(state: .ids(ids, appending: true))
    }

    /// Adds these entities after the existing links (SwiftletModel's spelling of
    /// ``appending(relation:)`` that takes entities where ids are named).
    public static func appending(ids entities: [Entity]) -> Self {
        Self(state: .ids(entities.map { $0.id }, appending: true))
    }
}

extension Relation: Equatable where Entity: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs.state, rhs.state) {
        case (.none, .none), (.null, .null): true
        case let (.ids(a, x), .ids(b, y)): a == b && x == y
        case let (.id(a), .id(b)): a == b
        case let (.id(a), .ids(b, false)), let (.ids(b, false), .id(a)): [a] == b
        case let (.entities(a, f, x), .entities(b, g, y)): a == b && f == g && x == y
        default: false
        }
    }
}

extension Relation: Hashable where Entity: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch state {
        case .none: hasher.combine(0)
        case .null: hasher.combine(1)
        case let .id(id):
            hasher.combine(2); hasher.combine([id]); hasher.combine(false)
        case let .ids(ids, appending):
            hasher.combine(2); hasher.combine(ids); hasher.combine(appending)
        case let .entities(entities, fragment, appending):
            hasher.combine(3); hasher.combine(entities); hasher.combine(fragment); hasher.combine(appending)
        }
    }
}
