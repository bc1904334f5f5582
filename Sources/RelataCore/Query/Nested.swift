/// How a query resolves every relation of an entity at one level (SwiftletModel's `Nested`):
/// `query.with(.entities, .ids)` resolves each relation with its entities, and each relation of
/// those with ids. The first value applies to the entity's relations, the next to theirs, and so
/// on; relations past the last value stay `.none`.
///
/// ```swift
/// let chat = Chat.query("1").with(.entities, .entities, .ids).resolve(in: context)
/// let everything = Schema.queryAll(with: .entities, .schemaEntities, .ids).resolve(in: context)
/// ```
public enum Nested: Sendable, Equatable {
    /// The ids of the related entities.
    case ids
    /// The related entities, those passing the predicate (as an appending slice) when one is
    /// given; with `schemaQuery`, every entity of the related type instead of the linked ones.
    case entities(MetadataPredicate?, schemaQuery: Bool)
    /// As ``entities(_:schemaQuery:)``, as fragments (saved with ``EntityModelProtocol/patch``).
    case fragments(MetadataPredicate?, schemaQuery: Bool)

    /// The related entities.
    public static var entities: Nested { .entities(nil, schemaQuery: false) }
    /// Fragments of the related entities.
    public static var fragments: Nested { .fragments(nil, schemaQuery: false) }
    /// The related entities whose metadata passes `filter`, as an appending slice.
    public static func entities(filter: MetadataPredicate) -> Nested { .entities(filter, schemaQuery: false) }
    /// Fragments of the related entities whose metadata passes `filter`, as an appending slice.
    public static func fragments(filter: MetadataPredicate) -> Nested { .fragments(filter, schemaQuery: false) }
    /// Every entity of each related type (to-many relations), oldest saved first: the relations
    /// of a schema entity that lists every type.
    public static var schemaEntities: Nested { .entities(nil, schemaQuery: true) }
    /// Fragments of every entity of each related type.
    public static var schemaFragments: Nested { .fragments(nil, schemaQuery: true) }
    /// Every entity of each related type whose metadata passes `filter`, as an appending slice.
    public static func schemaEntities(filter: MetadataPredicate) -> Nested { .entities(filter, schemaQuery: true) }
    /// Fragments of every entity of each related type whose metadata passes `filter`.
    public static func schemaFragments(filter: MetadataPredicate) -> Nested { .fragments(filter, schemaQuery: true) }
}

extension Query {
    /// Resolves every relation, level by level, as `nested` says (see ``Nested``).
    public func with(_ nested: Nested...) -> Query { with(nested) }

    /// Resolves every relation, level by level, as `nested` says (see ``Nested``).
    public func with(_ nested: [Nested]) -> Query {
        var query = self
        query.steps += NestedSteps<Entity>.steps(nested)
        return query
    }

    /// SwiftletModel's `schemaQuery()` of a to-one relation: a query that finds nothing.
    public static func schemaQuery() -> Query { Query(id: nil) }
}

extension QueryList {
    /// Resolves every relation of every entity, level by level, as `nested` says (see ``Nested``).
    public func with(_ nested: Nested...) -> QueryList { with(nested) }

    /// Resolves every relation of every entity, level by level, as `nested` says.
    public func with(_ nested: [Nested]) -> QueryList {
        var list = self
        list.steps += NestedSteps<Entity>.steps(nested)
        return list
    }

    /// Every entity of the type, oldest saved first (SwiftletModel's `schemaQuery()`, what
    /// ``Nested/schemaEntities`` resolves a relation with).
    public static func schemaQuery() -> QueryList { Entity.query().sorted(by: .updatedAt) }
}

extension EntityModelProtocol {
    /// A deferred query for every entity of the type with its relations resolved as `nested`
    /// says (SwiftletModel's `queryAll(with:)`): `Schema.queryAll(with: .entities, .schemaEntities, .ids)`.
    public static func queryAll(with nested: Nested...) -> QueryList<Self> {
        query().with(nested)
    }
}

/// The steps that resolve every relation of `Entity` as the first of `nested` says, and the
/// relations of the related entities as the rest say.
private struct NestedSteps<Entity: EntityModelProtocol>: _RelationVisitor {
    let level: Nested
    let next: [Nested]
    var steps: [QueryStep<Entity>] = []

    static func steps(_ nested: [Nested]) -> [QueryStep<Entity>] {
        guard let level = nested.first else { return [] }
        var visitor = NestedSteps(level: level, next: Array(nested.dropFirst()))
        try? Entity._relataVisitRelations(&visitor)
        return visitor.steps
    }

    mutating func visit<Source, Target, Directionality, Cardinality, Constraints>(
        _ descriptor: RelationDescriptor<Source, Target>,
        _ keyPath: WritableKeyPath<Source, Relation<Target, Directionality, Cardinality, Constraints>>
    ) throws {
        if let many = (keyPath as AnyKeyPath) as? WritableKeyPath<Entity, Relation<Target, Directionality, Relations.ToMany, Constraints>> {
            steps.append(toMany(many))
        } else if let one = (keyPath as AnyKeyPath) as? WritableKeyPath<Entity, Relation<Target, Directionality, Relations.ToOne, Constraints>>,
            let step = toOne(one)
        {
            steps.append(step)
        }
    }

    private func toMany<Target, D, K>(_ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToMany, K>>) -> QueryStep<Entity> {
        switch level {
        case .ids:
            return RelationResolver.ids(keyPath)
        case .entities(let predicate, let schemaQuery), .fragments(let predicate, let schemaQuery):
            var list: QueryList<Target> = schemaQuery ? .schemaQuery() : .relationTargets
            if let predicate { list = list.filter(predicate) }
            list = list.with(next)
            return RelationResolver.toMany(keyPath, list, fragment: isFragments, appending: predicate != nil)
        }
    }

    /// `nil` where the relation stays `.none`: a schema query of a to-one relation finds nothing.
    private func toOne<Target, D, K>(_ keyPath: WritableKeyPath<Entity, Relation<Target, D, Relations.ToOne, K>>) -> QueryStep<Entity>? {
        switch level {
        case .ids:
            return RelationResolver.id(keyPath)
        case .entities(_, let schemaQuery), .fragments(_, let schemaQuery):
            if schemaQuery { return nil }
            return RelationResolver.toOne(keyPath, Query<Target>(id: nil).with(next).steps, fragment: isFragments)
        }
    }

    private var isFragments: Bool {
        if case .fragments = level { return true }
        return false
    }
}
