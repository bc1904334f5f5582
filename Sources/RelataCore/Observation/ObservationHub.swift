import Dispatch
import Synchronization

/// Hands a store's commits to its observers, on a serial queue of its own: the writer only
/// appends each commit to a list (O(1)), so observers never slow a write.
///
/// Commit subscribers (``Store/commits``) get every commit, in order. Query observers
/// (``Store/observe(_:)``) are indexed by the region keys their last evaluation read: a batch of
/// commits is matched against the index by the keys it touched (O(keys), whatever the number of
/// observers), and each observer it reached is evaluated once, on the newest state — bursts
/// coalesce.
final class ObservationHub: Sendable {
    private let queue = DispatchQueue(label: "Relata.Store.observers", qos: .userInitiated)
    private let published: PublishedState
    let state = Mutex(State())

    struct State {
        var nextID = 0
        var subscribers: [Int: CommitSubscription] = [:]
        /// The ordinal of the last commit handed here.
        var ordinal: UInt64 = 0
        var observers: [Int: Observer] = [:]
        /// Observers by the keys their last evaluation read.
        var index: [RegionKey: Set<Int>] = [:]
        var pending: [StoreCommit] = []
        /// Commits handed to subscribers whose observers still wait for a state at or after them.
        var deferred: [StoreCommit] = []
        /// The state the last commit handed here published: observers are evaluated on it, so
        /// that the states they see follow the commits they are given, in order.
        var latest: Context?
        var isDraining = false
    }

    /// An observer: evaluates itself on the newest state, given the commits that reached it since
    /// its last evaluation (none the first time). What it computed is handed out only once the
    /// hub knows the state it read was one state (``Evaluation/deliver``): user code that takes
    /// the value never runs while a read is in progress, and never gets a value of a state whose
    /// reads were refused.
    final class Observer: Sendable {
        let evaluate: @Sendable (Context, [StoreCommit]) -> Evaluation
        let keys = Mutex(Set<RegionKey>())
        /// What its last evaluation's filtered queries watched (see ``RegionWatch``).
        let watches = Mutex([RegionWatch]())

        init(_ evaluate: @escaping @Sendable (Context, [StoreCommit]) -> Evaluation) {
            self.evaluate = evaluate
        }
    }

    /// What an observer computed: the keys that should reach it next (`nil`: it is done), and
    /// what hands its value out (and keeps it as the last one), run after every read ended.
    struct Evaluation {
        var keys: Set<RegionKey>?
        /// The watches of its filtered queries (reached through ``RegionKey/watched(_:)`` keys).
        var watches: [RegionWatch] = []
        var deliver: () -> Void
    }

    /// Called when the state to evaluate observers on is behind storage (a store over storage
    /// whose snapshot another commit passed): the store then catches up, and its next publish
    /// evaluates the observers.
    let onBehind = Mutex<(@Sendable () -> Void)?>(nil)

    init(published: PublishedState) {
        self.published = published
    }

    /// Evaluates `observers` on `context` — outside any read transaction: each read of a context
    /// over storage is one, at the context's snapshot, and refuses rows changed since — and, when
    /// every read answered as of that one state, hands their values out and indexes them by what
    /// they read; `false` (nothing handed out) when a read was refused because storage moved past
    /// the snapshot: the observers then wait for the commits that moved it.
    private func evaluate(_ observers: [(Int, Observer)], on context: Context, after commits: [StoreCommit]) -> Bool {
        let evaluations = observers.map { ($0.0, $0.1, $0.1.evaluate(context, commits)) }
        if let failure = context.storageFailure as? RelataError, failure.code == .staleSnapshot { return false }
        for (id, observer, evaluation) in evaluations {
            evaluation.deliver()
            observer.watches.withLock { $0 = evaluation.watches }
            index(observer, id: id, by: evaluation.keys ?? [])
        }
        return true
    }

    /// Whether anyone observes: when nobody does, a store skips work done only for observers.
    var isObserved: Bool {
        state.withLock { !$0.subscribers.isEmpty || !$0.observers.isEmpty }
    }

    /// Hands `commit`, which published `context`, to the observers. The context is made only when
    /// someone observes (a store over storage makes a new one each time).
    func publish(_ commit: StoreCommit, context: @autoclosure () -> Context) {
        var commit = commit
        let start = state.withLock { state -> Bool in
            state.ordinal += 1
            commit.ordinal = state.ordinal
            guard !state.subscribers.isEmpty || !state.observers.isEmpty else {
                // Unobserved: an observer added later starts from the published state itself.
                state.latest = nil
                return false
            }
            state.latest = context()
            state.pending.append(commit)
            defer { state.isDraining = true }
            return !state.isDraining
        }
        if start { queue.async { self.drain() } }
    }

    private func drain() {
        while true {
            let (fresh, context, subscribers) = state.withLock { state in
                defer { state.pending = [] }
                if state.pending.isEmpty { state.isDraining = false }
                return (state.pending, state.latest, Array(state.subscribers.values))
            }
            guard !fresh.isEmpty else { return }
            for commit in fresh {
                for subscriber in subscribers { subscriber.deliver(commit) }
            }
            // Commits whose evaluation waited for a newer state come first.
            let deferred = state.withLock { state in
                defer { state.deferred = [] }
                return state.deferred
            }
            let commits = deferred + fresh
            var touched = Set<RegionKey>()
            for commit in commits { touched.formUnion(commit.delta.touchedKeys) }
            let everyObserver = commits.contains(where: \.reachesEveryObserver)
            let (reachedIDs, watching) = state.withLock { state -> (Set<Int>, [ObjectIdentifier: [(Int, Observer)]]) in
                var ids = everyObserver ? Set(state.observers.keys) : []
                var watching: [ObjectIdentifier: [(Int, Observer)]] = [:]
                for key in touched {
                    guard let observers = state.index[key] else { continue }
                    if case .watched(let type) = key {
                        watching[type] = observers.compactMap { id in state.observers[id].map { (id, $0) } }
                    } else {
                        ids.formUnion(observers)
                    }
                }
                return (ids, watching)
            }
            // A filtered query is reached only by an entity whose old or new value can match.
            var ids = reachedIDs
            for (type, observers) in watching {
                for (id, observer) in observers where !ids.contains(id) {
                    let watches = observer.watches.withLock { $0 }
                    if watches.contains(where: { $0.type == type && $0.isTouched(by: commits) }) { ids.insert(id) }
                }
            }
            let reached = state.withLock { state in
                ids.sorted().compactMap { id in state.observers[id].map { (id, $0) } }
            }
            guard let context else { continue }
            if !evaluate(reached, on: context, after: commits) {
                // Storage moved past the state: the observers wait for the commits that moved it,
                // and get these with them (subscribers have had them already).
                let behind = state.withLock { state -> (@Sendable () -> Void)? in
                    state.deferred = commits + state.deferred
                    return onBehind.withLock { $0 }
                }
                behind?()
            }
        }
    }

    /// Indexes `observer` by the keys its last evaluation read (on the queue).
    private func index(_ observer: Observer, id: Int, by keys: Set<RegionKey>) {
        let old = observer.keys.withLock { old in
            defer { old = keys }
            return old
        }
        state.withLock { state in
            guard state.observers[id] != nil else { return }
            for key in old.subtracting(keys) {
                state.index[key]?.remove(id)
                if state.index[key]?.isEmpty == true { state.index[key] = nil }
            }
            for key in keys.subtracting(old) { state.index[key, default: []].insert(id) }
        }
    }

    /// Adds a commit subscriber; returns its id.
    func subscribe(_ subscription: CommitSubscription) -> Int {
        state.withLock { state in
            defer { state.nextID += 1 }
            state.subscribers[state.nextID] = subscription
            return state.nextID
        }
    }

    /// Adds a query observer and evaluates it at once (on the queue); returns its id.
    func observe(_ observer: Observer) -> Int {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.observers[state.nextID] = observer
            return state.nextID
        }
        queue.async { self.evaluateFirst(observer, id: id) }
        return id
    }

    /// An observer's first evaluation (on the queue), on a new context whose first read binds it
    /// to the newest commit: it reads one state, and commits up to it that arrive later change
    /// nothing it saw. A commit made between its reads refuses the later ones: it is evaluated
    /// again on a new context, at once a few times, then after a pause, until it reads one state.
    private func evaluateFirst(_ observer: Observer, id: Int, attempt: Int = 1) {
        guard state.withLock({ $0.observers[id] != nil }) else { return }
        if evaluate([(id, observer)], on: published.snapshot, after: []) { return }
        if attempt % 8 == 0 {
            queue.asyncAfter(deadline: .now() + .milliseconds(5)) { self.evaluateFirst(observer, id: id, attempt: attempt + 1) }
        } else {
            evaluateFirst(observer, id: id, attempt: attempt + 1)
        }
    }

    /// Removes a subscriber or observer.
    func remove(_ id: Int) {
        state.withLock { state in
            state.subscribers[id] = nil
            guard let observer = state.observers.removeValue(forKey: id) else { return }
            for key in observer.keys.withLock({ $0 }) {
                state.index[key]?.remove(id)
                if state.index[key]?.isEmpty == true { state.index[key] = nil }
            }
        }
    }
}
