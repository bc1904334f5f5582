import Synchronization

/// The snapshot of storage a ``Store`` publishes: the sequence of the last commit it knows, and
/// the base its contexts read through. Readers take it under a lock held only for that.
///
/// Each ``snapshot`` is a new context over it, holding nothing yet, so that no two readers share
/// what their reads fault in.
final class PublishedState: Sendable {
    private let current = Mutex(ContextBase?.none)

    /// A new context whose snapshot its first read binds (at or after the last commit published:
    /// see ``ContextBase/session(pinned:)``); an empty context before the store opened.
    var snapshot: Context {
        current.withLock { $0 }.map { Context(over: $0.session()) } ?? Context()
    }

    /// A new context as of the last commit published exactly (what observers of that commit are
    /// evaluated on).
    var pinnedSnapshot: Context {
        current.withLock { $0 }.map { Context(over: $0.session(pinned: true)) } ?? Context()
    }

    /// The sequence of the last commit published.
    var sequence: Int64 {
        current.withLock { $0?.sequence } ?? 0
    }

    /// Publishes a snapshot of storage at its sequence: readers get contexts over it.
    func publish(_ base: ContextBase) {
        current.withLock { $0 = base }
    }
}
