/// One commit a ``Store`` published: a write of its own, or commits of other stores it caught up
/// with. Read from the commit's ``StoreDelta`` (no state is compared).
///
/// ```swift
/// for await commit in store.commits {
///     print(commit.sequence, commit.isLocal, commit.delta.storedIDs(of: Message.self))
/// }
/// ```
public struct StoreCommit: Sendable {
    /// What produced the commit.
    public enum Kind: Sendable, Hashable {
        /// A write of this store.
        case local
        /// Commits of other stores (in this process or others), applied together by one
        /// catch-up: ``StoreCommit/delta`` holds their combined effect, from the rows they
        /// touched as those are now — a to-one link that moved or was removed is named with its
        /// new target only, not with the list it left (``Store/observeChanges(of:_:)`` and query
        /// observers account for it; read the list again to follow it by hand).
        case remote
        /// The store loaded everything again (it was behind the pruned change log):
        /// ``StoreCommit/delta`` holds every difference from the state before. Also what a
        /// subscriber of ``Store/commits`` that fell behind by more than its buffering limit
        /// reads in place of the commits it missed: ``StoreCommit/droppedCommits`` says how many
        /// (more than 0), the delta is empty, and the state to read again is ``Store/context``.
        case reload
    }

    /// The change log sequence of the last commit included.
    public let sequence: Int64
    /// What produced the commit.
    public let kind: Kind
    /// What changed: entities stored and erased per type, links set and removed per relation
    /// (both sides of mutual relations).
    public let delta: StoreDelta
    /// How many commits a subscriber that fell behind missed, told by a ``Kind/reload`` commit in
    /// their place (see ``Store/commits(bufferingLimit:)``); 0 for every other commit.
    public let droppedCommits: Int
    /// The commit's place in the order this store published its commits (for subscribers' gaps).
    var ordinal: UInt64 = 0
    /// Whether every query observer is evaluated again after it: a store over storage does not
    /// know what other stores' commits changed in enough detail to tell which reads they reach.
    var reachesEveryObserver = false

    init(sequence: Int64, kind: Kind, delta: StoreDelta, droppedCommits: Int = 0) {
        self.sequence = sequence
        self.kind = kind
        self.delta = delta
        self.droppedCommits = droppedCommits
    }

    /// Whether this store made the commit.
    public var isLocal: Bool { kind == .local }
}
