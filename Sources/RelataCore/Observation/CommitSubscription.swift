import Synchronization

/// One subscriber of ``Store/commits``: a buffer of at most `limit` commits it has not read yet.
///
/// A subscriber that stops reading never makes the store buffer without limit: when its buffer
/// is full, the oldest commit is dropped (`AsyncStream`'s `bufferingNewest`) and counted here;
/// the subscriber then reads, before the next commit it gets, one commit of kind
/// ``StoreCommit/Kind/reload`` that says how many it missed (``StoreCommit/droppedCommits``) and
/// the sequence of the newest of them.
final class CommitSubscription: Sendable {
    let continuation: AsyncStream<StoreCommit>.Continuation
    /// Commits dropped since the subscriber last learnt of it: how many, the newest one's
    /// sequence and its place in this store's commit order.
    private let dropped = Mutex<(count: Int, sequence: Int64, ordinal: UInt64)>((0, 0, 0))

    init(_ continuation: AsyncStream<StoreCommit>.Continuation) {
        self.continuation = continuation
    }

    /// Hands `commit` to the subscriber, dropping its oldest unread one when the buffer is full.
    func deliver(_ commit: StoreCommit) {
        if case .dropped(let old) = continuation.yield(commit) {
            dropped.withLock { dropped in
                dropped.count += 1
                dropped.sequence = max(dropped.sequence, old.sequence)
                dropped.ordinal = max(dropped.ordinal, old.ordinal)
            }
        }
    }

    /// The commit that tells of the commits dropped before `next` (`nil` when none was).
    func gap(before next: StoreCommit) -> StoreCommit? {
        dropped.withLock { dropped -> StoreCommit? in
            guard dropped.count > 0, dropped.ordinal < next.ordinal else { return nil }
            defer { dropped = (0, 0, 0) }
            return StoreCommit(sequence: dropped.sequence, kind: .reload, delta: StoreDelta(), droppedCommits: dropped.count)
        }
    }
}
