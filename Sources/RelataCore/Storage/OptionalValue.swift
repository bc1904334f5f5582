/// An `Optional`, seen through `Any`.
package protocol _OptionalValue {
    var _wrapped: Any? { get }
}

extension Optional: _OptionalValue {
    package var _wrapped: Any? { self.map { $0 as Any } }
}
