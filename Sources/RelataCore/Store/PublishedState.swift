import Synchronization

/// The snapshot of storage a ``Store`` publishes: the sequence of the last commit it knows, and
/// the base its contexts read through. Readers take it under a lock held only for that.
///
/// Each ``snapshot`` is a new context over it, so that no two readers share what their reads
/// fault in; it starts with what the last read placed at the cache's commit, if kept
/// (``placed``), else with nothing.
final class PublishedState: Sendable {
    private let current = Mutex(ContextBase?.none)
    /// What the last read placed (see `PlacedRows`).
    let placed: PlacedRows

    /// A published state whose reads keep what they placed for the next one while it holds at most
    /// `placedLimit` ids and link sources (none with 0).
    init(placedLimit: Int) {
        placed = PlacedRows(limit: placedLimit)
    }

    /// A new context whose snapshot its first read binds (at or after the last commit published:
    /// see ``ContextBase/session(pinned:)``) — or the commit of the tables it starts from; an empty
    /// context before the store opened.
    var snapshot: Context {
        guard let base = current.withLock({ $0 }) else { return Context() }
        return placed.context(over: base) ?? Context(over: base.session())
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
        if let sequence = base.sequence { placed.drop(before: sequence) }
    }
}
