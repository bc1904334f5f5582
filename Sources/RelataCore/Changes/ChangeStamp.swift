/// The logical time of one recorded change: a Lamport counter and the replica that made it.
///
/// Stamps order every change of every replica the same way (counter first, then replica name),
/// which is how concurrent changes are resolved deterministically: the later stamp is the last
/// writer. A replica's counter always moves past every stamp it has seen, so a change made after
/// merging another replica's changes is later than all of them.
public struct ChangeStamp: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The Lamport counter.
    public let counter: UInt64
    /// The replica that recorded the change.
    public let replica: String

    /// A stamp.
    public init(counter: UInt64, replica: String) {
        self.counter = counter
        self.replica = replica
    }

    public static func < (lhs: ChangeStamp, rhs: ChangeStamp) -> Bool {
        (lhs.counter, lhs.replica) < (rhs.counter, rhs.replica)
    }

    /// `counter@replica`.
    public var description: String { "\(counter)@\(replica)" }

    /// A seed for the jitter of keys generated while replaying this change, the same on every
    /// replica (FNV-1a; `Hasher` is seeded per process).
    var seed: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in withUnsafeBytes(of: counter.littleEndian, Array.init) + Array(replica.utf8) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
