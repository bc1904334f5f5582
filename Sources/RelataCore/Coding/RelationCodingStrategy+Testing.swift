import Foundation
import Synchronization

/// Counts the relation shapes a decoder reads (tests: a payload must be read once, whatever its
/// depth). Put one in a decoder's `userInfo` under `CodingUserInfoKey.relataShapeAttempts`.
package final class ShapeAttemptCounter: Sendable {
    private let count = Mutex(0)

    package init() {}

    /// The shapes read so far.
    package var value: Int { count.withLock { $0 } }

    func add() { count.withLock { $0 += 1 } }
}

extension CodingUserInfoKey {
    /// Where a ``ShapeAttemptCounter`` goes in a decoder's `userInfo` (tests).
    package static let relataShapeAttempts = CodingUserInfoKey(rawValue: "relata.shapeAttempts")!
}
