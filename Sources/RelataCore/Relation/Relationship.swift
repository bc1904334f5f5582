/// Declares a relation of an `@EntityModel` struct.
///
/// One wrapper covers every kind of relation; the shape comes from the property type and the
/// attribute arguments:
///
/// ```swift
/// @Relationship var viewedBy: [User]? = nil            // one-way to-many
/// @Relationship(.required) var author: User?            // one-way to-one, cannot be .null
/// @Relationship(inverse: \.message) var attachment: Attachment?   // mutual
/// @Relationship(.required, inverse: \.messages) var chat: Chat?
/// @Relationship(deleteRule: .cascade, inverse: \.message) var attachment: Attachment?
/// ```
///
/// The wrapped property is read-only and holds the related entities a query resolved (or `nil`).
/// Set relations through the projected value, a ``Relation``: `message.$author = .id("1")`.
///
/// The `deleteRule:`, `inverse:` and `unique:` arguments are read by `@EntityModel` from the
/// source, at compile time, and become the static relation descriptor the runtime uses (each is
/// tested: cascades, inverse links, unique targets); `unique:` and the unlabeled `.required` must
/// be written as literals, or the macro reports an error. The wrapper's initialisers take them so
/// that SwiftletModel's spelling compiles and the compiler checks their types (the inverse must be
/// a relation of the target back to this type). A type that conforms without the macro writes
/// its descriptors by hand and the wrapper without these arguments (see
/// <doc:ConformingWithoutTheMacro>). A bare `@Relationship var x: T?` needs `= nil` so that Swift
/// can infer the wrapper's type; the initial value is a ``Relation`` (`= nil`, `= .none`, or
/// `= .relation(V1())` as in SwiftletModel), which the memberwise initializer `@EntityModel`
/// writes takes as its default.
@propertyWrapper
public struct Relationship<Target: _RelationTarget, Directionality, Constraints>: Sendable {
    /// The relation value: what this entity says about its related entities.
    public var projectedValue: Relation<Target._RelatedEntity, Directionality, Target._Cardinality, Constraints>

    /// The related entities a query resolved, or `nil` when the relation carries none.
    public var wrappedValue: Target? {
        guard case .entities(let entities, _, _) = projectedValue.state else { return nil }
        return Target._wrap(entities)
    }

    /// The relation a declaration's initial value gives (`= .relation(target)`).
    public typealias InitialRelation = Relation<Target._RelatedEntity, Directionality, Target._Cardinality, Constraints>

    /// Creates the wrapper around a relation value (used by generated initialisers).
    public init(relation: Relation<Target._RelatedEntity, Directionality, Target._Cardinality, Constraints>) {
        self.projectedValue = relation
    }
}

extension Relationship where Directionality == Relations.OneWay, Constraints == Relations.Optional {
    /// A one-way relation, initially `.none`.
    public init() { self.init(relation: .none) }

    /// A one-way relation with a delete rule.
    public init(deleteRule: DeleteRule) { self.init(relation: .none) }

    /// A one-way relation whose targets are each linked by at most one source (SQLiteModel's
    /// unique relations, e.g. a movie's prequel).
    public init(deleteRule: DeleteRule = .nullify, unique: Bool) { self.init(relation: .none) }

    /// A unique one-way relation with an initial value (`= nil`, `= .relation(target)`).
    public init(wrappedValue: InitialRelation?, deleteRule: DeleteRule = .nullify, unique: Bool) {
        self.init(relation: wrappedValue ?? .none)
    }

    /// A one-way relation with an initial value (`= nil`, `= .relation(target)`) and an optional
    /// delete rule.
    public init(wrappedValue: InitialRelation?, deleteRule: DeleteRule = .nullify) {
        self.init(relation: wrappedValue ?? .none)
    }
}

extension Relationship where Directionality == Relations.OneWay, Constraints == Relations.Required {
    /// A required one-way relation.
    public init(_ option: RelationOption, deleteRule: DeleteRule = .nullify) { self.init(relation: .none) }

    /// A required one-way relation with an initial value (`= nil`).
    public init(wrappedValue: InitialRelation?, _ option: RelationOption, deleteRule: DeleteRule = .nullify) {
        self.init(relation: wrappedValue ?? .none)
    }
}

extension Relationship where Directionality == Relations.Mutual, Constraints == Relations.Optional {
    /// A mutual relation; `inverse` names the relation of the target that points back.
    public init<Inverse: _RelationTarget>(
        deleteRule: DeleteRule = .nullify,
        unique: Bool = false,
        inverse: @autoclosure () -> KeyPath<Target._RelatedEntity, Inverse?>
    ) {
        self.init(relation: .none)
    }

    /// A mutual relation with an initial value (`= nil`).
    public init<Inverse: _RelationTarget>(
        wrappedValue: InitialRelation?,
        deleteRule: DeleteRule = .nullify,
        unique: Bool = false,
        inverse: @autoclosure () -> KeyPath<Target._RelatedEntity, Inverse?>
    ) {
        self.init(relation: wrappedValue ?? .none)
    }
}

extension Relationship where Directionality == Relations.Mutual, Constraints == Relations.Required {
    /// A required mutual relation.
    public init<Inverse: _RelationTarget>(
        _ option: RelationOption,
        deleteRule: DeleteRule = .nullify,
        unique: Bool = false,
        inverse: @autoclosure () -> KeyPath<Target._RelatedEntity, Inverse?>
    ) {
        self.init(relation: .none)
    }

    /// A required mutual relation with an initial value (`= nil`).
    public init<Inverse: _RelationTarget>(
        wrappedValue: InitialRelation?,
        _ option: RelationOption,
        deleteRule: DeleteRule = .nullify,
        unique: Bool = false,
        inverse: @autoclosure () -> KeyPath<Target._RelatedEntity, Inverse?>
    ) {
        self.init(relation: wrappedValue ?? .none)
    }
}

extension Relationship: Equatable where Target._RelatedEntity: Equatable {}
extension Relationship: Hashable where Target._RelatedEntity: Hashable {}
