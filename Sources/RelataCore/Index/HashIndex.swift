/// Declares an index for equality lookups on one to four `Hashable` properties, as SwiftletModel
/// declares it:
///
/// ```swift
/// @EntityModel
/// struct Message {
///     @HashIndex<Self>(\.isRead) private var readIndex
///     let id: String
///     var isRead: Bool
/// }
/// ```
///
/// In a ``Store`` it becomes a SQL index on the properties' columns, as ``Index`` does (SQLite
/// has no hash index; a B-tree answers equality as fast). A ``Context`` that holds every entity
/// keeps an index of one property in memory, updated by each save and erase: `==` of that
/// property finds its entities in O(1 + k). The property holds nothing and is never encoded.
@propertyWrapper
public struct HashIndex<Entity: EntityModelProtocol>: _IndexMarker {
    /// Nothing: the declaration is read by `@EntityModel`.
    public var wrappedValue: Never.Type? { nil }

    public init(wrappedValue: Never.Type?) {}

    /// An index on one property.
    public init<T0: Hashable>(_ kp0: KeyPath<Entity, T0>) {}

    /// An index on two properties together.
    public init<T0: Hashable, T1: Hashable>(_ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>) {}

    /// An index on three properties together.
    public init<T0: Hashable, T1: Hashable, T2: Hashable>(
        _ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>
    ) {}

    /// An index on four properties together.
    public init<T0: Hashable, T1: Hashable, T2: Hashable, T3: Hashable>(
        _ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>, _ kp3: KeyPath<Entity, T3>
    ) {}
}
