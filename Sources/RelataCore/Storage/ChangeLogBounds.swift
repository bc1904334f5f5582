/// What a change log holds: the sequences of its newest record and of the newest record it no
/// longer holds (see ``StorageReader/logBounds()``).
public struct ChangeLogBounds: Sendable, Hashable {
    /// The sequence of the newest commit (`0` before the first).
    public var last: Int64
    /// The newest sequence whose record was pruned (`0` when none was): a store at an older
    /// sequence cannot catch up from the log and loads every row again.
    public var pruned: Int64

    /// Bounds.
    public init(last: Int64, pruned: Int64) {
        self.last = last
        self.pruned = pruned
    }
}
