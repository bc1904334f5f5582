/// A value sorted in reverse: `sorted(by: \.age.desc)` sorts oldest first, as in SwiftletModel.
public struct Descending<T: Comparable & Sendable>: Comparable, Sendable {
    /// The value.
    public let value: T

    /// Reversed: the greater value comes first.
    public static func < (lhs: Descending, rhs: Descending) -> Bool {
        lhs.value > rhs.value
    }
}

extension Comparable where Self: Sendable {
    /// This value, sorted in reverse (`sorted(by: \.age.desc)`).
    public var desc: Descending<Self> { Descending(value: self) }
}
