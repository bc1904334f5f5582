/// Declares a sorted index on one to four `Comparable` properties, as SwiftletModel declares it:
///
/// ```swift
/// @EntityModel
/// struct User {
///     @Index<Self>(\.age) private var ageIndex
///     @Index<Self>(\.lastName, \.firstName) private var nameIndex
///
///     let id: String
///     var firstName: String
///     var lastName: String
///     var age: Int
/// }
/// ```
///
/// In a ``Store``, the declaration becomes a SQL index on the properties' columns, made (and
/// dropped when the declaration goes) by the first write of the type: the predicates and sorts
/// that run in SQL (see ``QueryList``) then read the index instead of the table. A ``Context``
/// that holds every entity keeps the index of the first property in memory, updated by each save
/// and erase: a comparison of that property finds its entities in O(log n + k), and a sort by it
/// with a limit reads only the first ones. The property holds nothing and is never encoded.
@propertyWrapper
public struct Index<Entity: EntityModelProtocol>: _IndexMarker {
    /// Nothing: the declaration is read by `@EntityModel`.
    public var wrappedValue: Never.Type? { nil }

    public init(wrappedValue: Never.Type?) {}

    /// An index on one property.
    public init<T0: Comparable>(_ kp0: KeyPath<Entity, T0>) {}

    /// A compound index: by `kp0`, then `kp1`.
    public init<T0: Comparable, T1: Comparable>(_ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>) {}

    /// A compound index of three properties.
    public init<T0: Comparable, T1: Comparable, T2: Comparable>(
        _ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>
    ) {}

    /// A compound index of four properties.
    public init<T0: Comparable, T1: Comparable, T2: Comparable, T3: Comparable>(
        _ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>, _ kp3: KeyPath<Entity, T3>
    ) {}
}
