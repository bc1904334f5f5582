import Synchronization

/// Identifies one relation of an entity type: its position among the type's relations and its
/// cardinality. Generated once per relation property by `@EntityModel`; never built from strings.
@_documentation(visibility: private)
public struct _AnyRelationKey: Sendable {
    /// Position of the relation among the relations of its type, in declaration order.
    public let ordinal: Int
    /// The property name, for error messages and pretty printing.
    public let name: StaticString
    /// Whether the relation is to-many.
    public let toMany: Bool

    public init(ordinal: Int, name: StaticString, toMany: Bool) {
        self.ordinal = ordinal
        self.name = name
        self.toMany = toMany
    }

    @inlinable var nameString: String { name.description }
}

/// Everything the runtime needs to know about one relation from `Source` to `Target`.
///
/// `@EntityModel` generates one per `@Relationship` property. To conform to
/// ``EntityModelProtocol`` by hand, declare one per relation and list them in
/// `_relataVisitRelations(_:)`.
@_documentation(visibility: private)
public struct RelationDescriptor<Source: EntityModelProtocol, Target: EntityModelProtocol>: Sendable {
    public let key: _AnyRelationKey
    /// The relation of `Target` that points back, for mutual relations.
    public let inverse: _AnyRelationKey?
    public let deleteRule: DeleteRule
    public let isRequired: Bool
    /// Whether a target may be linked by one source at most.
    public let isUnique: Bool

    public init(
        key: _AnyRelationKey, inverse: _AnyRelationKey?, deleteRule: DeleteRule, isRequired: Bool, isUnique: Bool = false
    ) {
        self.key = key
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.isRequired = isRequired
        self.isUnique = isUnique
    }

    @inlinable var name: String { key.nameString }

    /// How the links of this relation are stored (see ``LinkRecord``).
    @inlinable var storedSide: StoredSide {
        guard let inverse else { return .own }
        // One-to-many: the pair is stored on the to-one side, keyed by the "many" entity (a
        // message, not its chat): the rows a write adds then sit together in storage instead of
        // landing in every chat's range. (Decided first: no type name is needed, and a relation
        // that is its own inverse has both sides alike.)
        if key.toMany != inverse.toMany { return key.toMany ? .derived : .pair }
        return StoredSide.ofMutual(Source.self, key, Target.self, inverse)
    }
}

extension StoredSide {
    /// The side of a relation whose two ends are both to-one or both to-many, decided by the
    /// types' and relations' names (the same in every process), once per relation.
    @usableFromInline
    static func ofMutual(_ source: Any.Type, _ key: _AnyRelationKey, _ target: Any.Type, _ inverse: _AnyRelationKey) -> StoredSide {
        let cacheKey = MutualKey(source: ObjectIdentifier(source), ordinal: key.ordinal)
        if let known = mutualSides.withLock({ $0[cacheKey] }) { return known }
        // `_typeName` is what `String(describing:)` prints for a type, without first asking
        // the runtime whether the metatype conforms to three protocols (each a scan of every
        // conformance of the process, paid per type at a store's open).
        let this = (_typeName(source, qualified: false), key.nameString)
        let other = (_typeName(target, qualified: false), inverse.nameString)
        // Its own inverse: one row per link, each side.
        let side: StoredSide = this == other ? .own : this < other ? .pair : .derived
        mutualSides.withLock { $0[cacheKey] = side }
        return side
    }

    private struct MutualKey: Hashable {
        let source: ObjectIdentifier
        let ordinal: Int
    }

    private static let mutualSides = Mutex<[MutualKey: StoredSide]>([:])
}

/// Which rows hold the links of a relation.
@usableFromInline
enum StoredSide: Sendable {
    /// One row per link: one-way relations, and relations that are their own inverse.
    case own
    /// One row per linked pair of a mutual relation, with both positions.
    case pair
    /// No rows: the other side of the relation (`.pair`) stores them.
    case derived
}

/// Receives the relations of an entity type, typed (see `_relataVisitRelations`).
@_documentation(visibility: private)
public protocol _RelationVisitor {
    mutating func visit<Source, Target, Directionality, Cardinality, Constraints>(
        _ descriptor: RelationDescriptor<Source, Target>,
        _ keyPath: WritableKeyPath<Source, Relation<Target, Directionality, Cardinality, Constraints>>
    ) throws

    /// The same relation, with the key path of the `@Relationship` wrapper's storage as well
    /// (what `@EntityModel` passes): a visitor that writes relations writes through `storage`, a
    /// stored property, where a write through `keyPath` calls the projected value's accessors
    /// (a copy of the entity and generic metadata looked up per write). The default visits
    /// `descriptor` and `keyPath` alone.
    mutating func visit<Source, Wrapped: _RelationTarget, Directionality, Constraints>(
        _ descriptor: RelationDescriptor<Source, Wrapped._RelatedEntity>,
        _ keyPath: WritableKeyPath<Source, Relation<Wrapped._RelatedEntity, Directionality, Wrapped._Cardinality, Constraints>>,
        storage: WritableKeyPath<Source, Relationship<Wrapped, Directionality, Constraints>>
    ) throws
}

extension _RelationVisitor {
    @inlinable
    public mutating func visit<Source, Wrapped: _RelationTarget, Directionality, Constraints>(
        _ descriptor: RelationDescriptor<Source, Wrapped._RelatedEntity>,
        _ keyPath: WritableKeyPath<Source, Relation<Wrapped._RelatedEntity, Directionality, Wrapped._Cardinality, Constraints>>,
        storage: WritableKeyPath<Source, Relationship<Wrapped, Directionality, Constraints>>
    ) throws {
        try visit(descriptor, keyPath)
    }
}

/// Compile-time witness that a mutual relation's inverse is mutual back to the same type.
/// `@EntityModel` calls it (in a function that never runs) for every `inverse:`.
@_documentation(visibility: private)
@inlinable
public func _relataInverseMustBeMutual<A, B, C1, K1, C2, K2>(
    _ relation: KeyPath<A, Relation<B, Relations.Mutual, C1, K1>>,
    _ inverse: KeyPath<B, Relation<A, Relations.Mutual, C2, K2>>
) {}
