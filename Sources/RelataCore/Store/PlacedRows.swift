import Synchronization

/// What the last `Store.read` placed, for the next context at the same commit to start from.
///
/// A context over storage places what it reads in typed tables (entities by id, lists in order);
/// placing rows costs more than reading them from the row cache. Two reads at the same commit see
/// the same rows, so a context that ended — its reads all answered, nothing written — leaves a
/// clone of its tables here (sharing their dictionaries), and the next context made while that
/// commit is still the newest the store knows of (its cache's and its published one) takes them,
/// answering as of it — as a context whose first read the cache answered does. Taken, not
/// copied: once the context that left them is gone, the taker places what it reads into them in
/// place (a copy would copy each dictionary it places into: a small read after a large one would
/// pay for the large one); a context made meanwhile starts empty, and the taker leaves its tables
/// in turn. A later commit makes them stale: they are dropped, never patched.
///
/// Only in a store that follows other stores' commits (`followInterval`): one that does not
/// learns of them only when it reads what they changed, so its new contexts must read storage.
/// Storage that tells a commit was made without a transaction (SQLite's commit token) is asked
/// that; storage that cannot (PostgreSQL) is asked its newest commit in one read, and only when
/// the tables kept are large enough to be worth the round trip (``askedRowCount``).
///
/// Bounded: tables holding more than ``limit`` ids and link sources are not kept (the rows they
/// hold are in the cache anyway).
final class PlacedRows: Sendable {
    struct Placed: @unchecked Sendable {
        /// The commit the tables were read at.
        let sequence: Int64
        /// Never mutated while here: a clone of a finished context's, taken by the next context.
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

    /// A context over a session of `published` (the store's snapshot) that takes the tables kept,
    /// when the store's cache is still as of the commit they were read at and that commit is not
    /// older than `published`'s; `nil` otherwise (stale tables are dropped).
    func context(over published: ContextBase) -> Context? {
        // Only at storage's newest commit: a new context answers as of it.
        guard limit > 0, published.cache != nil, let sequence = published.newestInCache() ?? newestAsked(over: published) else { return nil }
        // Taken out whole, no copy of the reference left behind: the new context must hold the
        // only one, or its first read would clone every table.
        guard let storage: Context.Storage = placed.withLock({ placed in
            guard let kept = placed.take() else { return nil }
            // Stale ones are dropped all the same.
            return kept.sequence == sequence && kept.sequence >= published.sequence ?? .max ? kept.storage : nil
        }) else { return nil }
        return Context(over: published.session(at: sequence), taking: consume storage)
    }

    /// The fewest ids and link sources worth a round trip to keep: over storage that cannot say
    /// without one whether a commit was made (PostgreSQL: ``StorageBackend/commitToken()`` is
    /// `nil`), tables holding fewer are left, and the new context places from the row cache what
    /// it reads (about 3 µs a row, measured on W2: 10,000 rows cost more than 100 round trips
    /// on loopback).
    static let askedRowCount = 256

    /// Storage's newest commit, asked in one read when the backend cannot tell it without one
    /// and the tables kept are worth it: as of the cache's commit and holding at least
    /// ``askedRowCount`` ids and link sources. `nil` otherwise, or when storage cannot answer
    /// (the context's first read then reports it).
    private func newestAsked(over published: ContextBase) -> Int64? {
        guard published.backend.readsCostRoundTrips, let cache = published.cache,
            let kept = placed.withLock({ $0.map { (sequence: $0.sequence, rowCount: $0.rowCount) } }),
            kept.rowCount >= Self.askedRowCount, kept.sequence == cache.sequence
        else { return nil }
        return published.newestCommit()
    }

    /// Keeps what `context` placed for the contexts that follow, when it answered every read as
    /// of one commit (still the cache's), wrote nothing, and holds more than the tables kept.
    ///
    /// - Parameter context: A context the store made for a read that has ended, handed over: when
    ///   no copy of it is left (the read kept none), its tables move here; otherwise they are
    ///   cloned (a copy may still read them; a copy that saved has storage of its own).
    func offer(_ context: consuming Context) {
        guard limit > 0, let base = context.storage.base, let cache = base.cache, base.failure == nil,
            let sequence = base.sequence, sequence == cache.sequence,
            context.storage.tracker == nil, context.storage.recorder == nil
        else { return }
        // The last reference to its storage (the read kept no copy): its tables move here as they
        // are, no one else can place into them.
        if isKnownUniquelyReferenced(&context.storage) {
            let rowCount = context.heldRowCount
            guard rowCount > 0, rowCount <= limit else { return }
            keep(Placed(sequence: sequence, storage: context.storage.placedMove(), rowCount: rowCount))
            return
        }
        // The context may live on in other threads (returned by the read): its tables are read
        // holding their lock.
        let copied: (storage: Context.Storage, rowCount: Int)? = context.exclusively {
            let rowCount = context.heldRowCount
            guard rowCount > 0, rowCount <= limit else { return nil }
            let current = placed.withLock { $0.map { ($0.sequence, $0.rowCount) } }
            if let current, current.0 == sequence, current.1 >= rowCount { return nil }
            // A clone: `context` may live on, and must not place into these.
            return (context.storage.placedCopy(), rowCount)
        }
        guard let (storage, rowCount) = copied else { return }
        keep(Placed(sequence: sequence, storage: storage, rowCount: rowCount))
    }

    /// Keeps `offered` unless the tables kept are as of the same commit and hold as much.
    private func keep(_ offered: consuming Placed) {
        let dropped: Placed? = placed.withLock { placed in
            if let kept = placed, kept.sequence == offered.sequence, kept.rowCount >= offered.rowCount { return offered }
            let dropped = placed
            placed = offered
            return dropped
        }
        // Released outside the lock.
        _ = consume dropped
    }

    /// Drops the tables kept if they were read before `sequence` (a commit made them stale).
    func drop(before sequence: Int64) {
        placed.withLock { if let kept = $0, kept.sequence < sequence { $0 = nil } }
    }
}
