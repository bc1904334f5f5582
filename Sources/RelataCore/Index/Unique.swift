/// Declares that no two entities hold the same value of one to four properties, as SwiftletModel
/// declares it, and what happens when a save would make two (``CollisionResolver``):
///
/// ```swift
/// @EntityModel
/// struct User {
///     @Unique<Self>(\.email, collisions: .throw) private var uniqueEmail
///     @Unique<Self>(\.username, collisions: .upsert) private var uniqueUsername
///
///     let id: String
///     var email: String
///     var username: String
/// }
/// ```
///
/// When an entity is saved, another entity of its type holding the same values (all the key
/// paths equal) is a collision, handed to the resolver before the entity is stored: `.throw`
/// refuses the save with a ``RelataError`` (`uniqueViolation`), `.upsert` (the default) erases the
/// other entity, and a resolver of your own can do what the domain needs — clear a flag on the
/// other, or let some values repeat (SwiftletModel's `ignoreNil`). As in SwiftletModel, the
/// resolver is called once per save and declaration, with one other holder (the first in id
/// order in a store): a resolver that lets values repeat is not called for each of them. In a
/// ``Store``, the declaration is also a SQL index on the properties' columns, and the holder is
/// found through it inside the write (under the store's write lock, so two writers never both
/// take a value).
///
/// **Decided**: the index in storage is not a `UNIQUE` constraint, because a resolver may let
/// values repeat, as SwiftletModel allows; and entities stored before the declaration appeared
/// are not checked against each other — only saves are. In memory, the holder of one
/// `Hashable` property's value is found in the context's hash index of it (O(1)); of several
/// properties, by reading the type's entities until one holds the values (O(n)).
@propertyWrapper
public struct Unique<Entity: EntityModelProtocol>: _IndexMarker {
    /// Nothing: the declaration is read by `@EntityModel`.
    public var wrappedValue: Never.Type? { nil }

    public init(wrappedValue: Never.Type?) {}

    /// Unique values of one `Comparable` property.
    public init<T0: Comparable>(_ kp0: KeyPath<Entity, T0>, collisions: CollisionResolver<Entity> = .upsert) {}

    /// Unique pairs of values.
    public init<T0: Comparable, T1: Comparable>(
        _ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, collisions: CollisionResolver<Entity> = .upsert
    ) {}

    /// Unique triples of values.
    public init<T0: Comparable, T1: Comparable, T2: Comparable>(
        _ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>,
        collisions: CollisionResolver<Entity> = .upsert
    ) {}

    /// Unique quadruples of values.
    public init<T0: Comparable, T1: Comparable, T2: Comparable, T3: Comparable>(
        _ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>, _ kp3: KeyPath<Entity, T3>,
        collisions: CollisionResolver<Entity> = .upsert
    ) {}

    /// Unique values of one `Equatable` property.
    public init<T0: Equatable>(_ kp0: KeyPath<Entity, T0>, collisions: CollisionResolver<Entity> = .upsert) {}

    /// Unique pairs of `Equatable` values.
    public init<T0: Equatable, T1: Equatable>(
        _ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, collisions: CollisionResolver<Entity> = .upsert
    ) {}

    /// Unique triples of `Equatable` values.
    public init<T0: Equatable, T1: Equatable, T2: Equatable>(
        _ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>,
        collisions: CollisionResolver<Entity> = .upsert
    ) {}

    /// Unique quadruples of `Equatable` values.
    public init<T0: Equatable, T1: Equatable, T2: Equatable, T3: Equatable>(
        _ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>, _ kp3: KeyPath<Entity, T3>,
        collisions: CollisionResolver<Entity> = .upsert
    ) {}
}
