import Synchronization

/// What the last `Store.read` placed, for the next context at the same commit to start from.
///
/// A context over storage places what it reads in typed tables (entities by id, lists in order);
/// placing rows costs more than reading them from the row cache. Two reads at the same commit see
/// the same rows, so a context that ended — its reads all answered, nothing written — leaves its
/// tables here, and the next context made while that commit is still the newest the store knows
/// of (its cache's and its published one) starts with a clone of them (each table shares its
/// dictionaries until one of the two places more), answering as of it — as a context whose first
/// read the cache answered does. A later commit makes them stale: they are dropped, never patched.
///
/// Only in a store that follows other stores' commits (`followInterval`): one that does not
/// learns of them only when it reads what they changed, so its new contexts must read storage.
///
/// Bounded: tables holding more than ``limit`` ids and link sources are not kept (the rows they
/// hold are in the cache anyway).
final class PlacedRows: Sendable {
    struct Placed: @unchecked Sendable {
        /// The commit the tables were read at.
        let sequence: Int64
        /// Never mutated once here: contexts start from clones of it.
        let storage: Context.Storage
        let rowCount: Int
    }

    let placed = Mutex(Placed?.none)
    /// The most ids and link sources kept.
    let limit: Int

    /// Keeps at most `limit` ids and link sources; none with a limit of 0.
    init(limit: Int) {
        self.limit = limit
    }

    /// A context over a session of `published` (the store's snapshot) starting from the tables
    /// kept, when the store's cache is still as of the commit they were read at and that commit is
    /// not older than `published`'s; `nil` otherwise (stale tables are dropped).
    func context(over published: ContextBase) -> Context? {
        guard limit > 0, let cache = published.cache else { return nil }
        let sequence = cache.sequence
        let kept: Placed? = placed.withLock { placed in
            guard let kept = placed else { return nil }
            guard kept.sequence == sequence, kept.sequence >= published.sequence ?? .max else {
                placed = nil
                return nil
            }
            return kept
        }
        guard let kept else { return nil }
        return Context(over: published.session(at: kept.sequence), placed: kept.storage)
    }

    /// Keeps what `context` placed for the contexts that follow, when it answered every read as
    /// of one commit (still the cache's), wrote nothing, and holds more than the tables kept.
    ///
    /// - Parameter context: A context the store made for a read that has ended; its storage is not
    ///   uniquely referenced by the caller's copies (a copy that saved has storage of its own).
    func offer(_ context: Context) {
        guard limit > 0, let base = context.storage.base, let cache = base.cache, base.failure == nil,
            let sequence = base.sequence, sequence == cache.sequence,
            context.storage.tracker == nil, context.storage.recorder == nil
        else { return }
        let rowCount = context.heldRowCount
        guard rowCount > 0, rowCount <= limit else { return }
        let current = placed.withLock { $0.map { ($0.sequence, $0.rowCount) } }
        if let current, current.0 == sequence, current.1 >= rowCount { return }
        let storage = context.storage.placedCopy()
        placed.withLock { placed in
            if let kept = placed, kept.sequence == sequence, kept.rowCount >= rowCount { return }
            placed = Placed(sequence: sequence, storage: storage, rowCount: rowCount)
        }
    }

    /// Drops the tables kept if they were read before `sequence` (a commit made them stale).
    func drop(before sequence: Int64) {
        placed.withLock { if let kept = $0, kept.sequence < sequence { $0 = nil } }
    }
}
