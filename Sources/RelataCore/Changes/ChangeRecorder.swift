/// What a recording context keeps: the common base it started from, and every change made or
/// merged since, sorted by stamp, so that merging can replay them all in one order.
@usableFromInline
struct ChangeRecorder: Sendable {
    @usableFromInline let replica: String
    @usableFromInline var counter: UInt64 = 0
    /// The state recording started from (not recording itself).
    var base: Context
    /// Every change since `base`, own and merged, sorted by stamp.
    var operations: [any ChangeOperation] = []
    var stamps: Set<ChangeStamp> = []

    init(replica: String, base: Context) {
        self.replica = replica
        self.base = base
    }

    /// The stamp of the next own change.
    @usableFromInline
    mutating func nextStamp() -> ChangeStamp {
        counter += 1
        return ChangeStamp(counter: counter, replica: replica)
    }

    /// Adds an own change (its stamp is later than every stamp seen, so order is kept).
    @usableFromInline
    mutating func append(_ operation: any ChangeOperation) {
        operations.append(operation)
        stamps.insert(operation.stamp)
    }
}
