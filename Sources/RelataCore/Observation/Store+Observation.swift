extension Store {
    /// Every commit this store publishes from now on, in commit order: its own writes and the
    /// commits of other stores (other processes included) it catches up with, each with what it
    /// changed. Ending the iteration (or cancelling its task) unsubscribes.
    ///
    /// ```swift
    /// for await commit in store.commits where !commit.isLocal {
    ///     print("another process stored", commit.delta.storedIDs(of: Message.self))
    /// }
    /// ```
    ///
    /// The subscription starts when iteration starts (`makeAsyncIterator()`); commits are
    /// buffered until read, at most ``StoreCommits/defaultBufferingLimit`` of them (see
    /// ``commits(bufferingLimit:)``).
    public var commits: StoreCommits {
        StoreCommits(hub: writer.observers, bufferingLimit: StoreCommits.defaultBufferingLimit)
    }

    /// Every commit this store publishes from now on (see ``commits``), with at most
    /// `bufferingLimit` commits kept for a subscriber that has not read them.
    ///
    /// A subscriber that falls further behind never makes the store buffer without limit: its
    /// oldest unread commits are dropped, and before the next commit it reads, it reads one
    /// commit of kind ``StoreCommit/Kind/reload`` with ``StoreCommit/droppedCommits`` saying how
    /// many it missed and an empty delta: whatever it keeps from the commits, it reads again
    /// from ``context``.
    ///
    /// - Parameter bufferingLimit: How many unread commits are kept (at least 1).
    public func commits(bufferingLimit: Int) -> StoreCommits {
        StoreCommits(hub: writer.observers, bufferingLimit: max(1, bufferingLimit))
    }

    /// The value `body` computes from the store's state: at once, then again after each commit
    /// that touched what `body` read. Values equal to the one before are not repeated.
    ///
    /// ```swift
    /// for try await messages in store.observe({ Chat.query("1", in: $0).related(\.$messages).resolve() }) {
    ///     render(messages)
    /// }
    /// ```
    ///
    /// What `body` reads is recorded while it runs — the types whose ids or counts it asked for,
    /// the entities it read, the relations of each source it followed, the backlinks of each
    /// target — so a commit elsewhere evaluates nothing: with 1,000 observers of 1,000 chats, a
    /// commit to one chat evaluates one closure. A filtered query of a whole type
    /// (`Message.query(in: $0).filter(\.isRead == false).sorted(by: \.date).limit(20)`) reads
    /// which entities can change its value, not which exist: a commit evaluates it again only
    /// when it stores or erases an entity of the type whose old value passed the filters (one of
    /// the entities the query kept, up to its window's end) or whose new value passes them —
    /// O(entities of the type in the commit). (Filters that are closures over relations `with`
    /// resolved, metadata filters and full-text rankings fall back to reading which entities
    /// exist: any commit of the type evaluates them.) Evaluations run on a queue of their own, never
    /// in the write; a burst of commits is evaluated once, on the newest state, and a reader that
    /// lags gets the latest value only. Ending the iteration (or cancelling its task) stops the
    /// observation. If `body` throws, the sequence ends with that error.
    public func observe<Value: Sendable & Equatable>(
        _ body: @escaping @Sendable (Context) throws -> Value
    ) -> StoreObservation<Value> {
        observe(body, isRepeat: ==)
    }

    /// The value `body` computes from the store's state: at once, then again after each commit
    /// that touched what `body` read (see `observe(_:)`, for
    /// `Equatable` values, which are not repeated).
    public func observe<Value: Sendable>(
        _ body: @escaping @Sendable (Context) throws -> Value
    ) -> StoreObservation<Value> {
        observe(body, isRepeat: { _, _ in false })
    }

    private func observe<Value: Sendable>(
        _ body: @escaping @Sendable (Context) throws -> Value, isRepeat: @escaping @Sendable (Value, Value) -> Bool
    ) -> StoreObservation<Value> {
        StoreObservation(hub: writer.observers) { continuation in
            let last = LastValue<Value>()
            return ObservationHub.Observer { context, _ in
                let recorder = RegionRecorder()
                do {
                    let value = try body(context.recordingReads(into: recorder))
                    return ObservationHub.Evaluation(keys: recorder.region, watches: recorder.watches) {
                        // Evaluations run one at a time, on the hub's queue.
                        let repeated = last.value.map { isRepeat($0, value) } ?? false
                        last.value = value
                        if !repeated { continuation.yield(value) }
                    }
                } catch {
                    return ObservationHub.Evaluation(keys: nil) { continuation.finish(throwing: error) }
                }
            }
        }
    }
}

/// The commits of a ``Store`` (``Store/commits``): an `AsyncSequence` whose iteration subscribes
/// when it starts and unsubscribes when it ends — the loop finishes, its task is cancelled, or
/// the iterator is dropped.
public struct StoreCommits: AsyncSequence, Sendable {
    /// Each element is one commit.
    public typealias Element = StoreCommit
    let hub: ObservationHub
    /// How many unread commits a subscriber keeps.
    let bufferingLimit: Int

    /// How many unread commits ``Store/commits`` keeps for a subscriber: 100. A bulk load's
    /// commit can hold thousands of changes, so a bound in commits bounds the memory a
    /// subscriber that stopped reading can hold.
    public static let defaultBufferingLimit = 100

    /// Subscribes to the store's commits from now on.
    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncStream<StoreCommit>.makeStream(bufferingPolicy: .bufferingNewest(bufferingLimit))
        let subscription = CommitSubscription(continuation)
        let id = hub.subscribe(subscription)
        continuation.onTermination = { [hub] _ in hub.remove(id) }
        return Iterator(base: stream.makeAsyncIterator(), subscription: subscription, end: { [hub] in hub.remove(id) })
    }

    /// Reads the commits; dropping it unsubscribes.
    public final class Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<StoreCommit>.Iterator
        let subscription: CommitSubscription
        let end: @Sendable () -> Void
        /// A commit read after a gap, returned after the commit that tells of the gap.
        private var held: StoreCommit?

        init(base: AsyncStream<StoreCommit>.Iterator, subscription: CommitSubscription, end: @escaping @Sendable () -> Void) {
            self.base = base
            self.subscription = subscription
            self.end = end
        }

        /// The next commit, or `nil` once the task is cancelled.
        public func next() async -> StoreCommit? {
            if let held {
                self.held = nil
                return held
            }
            guard let commit = await base.next() else { return nil }
            if let gap = subscription.gap(before: commit) {
                held = commit
                return gap
            }
            return commit
        }

        deinit { end() }
    }
}

/// The values of an observed closure (`Store.observe(_:)`): an
/// `AsyncSequence` whose iteration starts the observation and stops it when it ends — the loop
/// finishes, its task is cancelled, or the iterator is dropped. For query values, the latest value
/// is kept for a reader that lags and older ones are dropped; list changes are all kept (each is
/// relative to the one before).
public struct StoreObservation<Value: Sendable>: AsyncSequence, Sendable {
    /// Each element is one value of the observed closure.
    public typealias Element = Value
    let hub: ObservationHub
    /// Whether a reader that lags gets only the latest value (query values) or every one (list
    /// changes, each relative to the one before).
    let keepsEveryValue: Bool
    let makeObserver: @Sendable (AsyncThrowingStream<Value, any Error>.Continuation) -> ObservationHub.Observer

    init(
        hub: ObservationHub, keepsEveryValue: Bool = false,
        makeObserver: @escaping @Sendable (AsyncThrowingStream<Value, any Error>.Continuation) -> ObservationHub.Observer
    ) {
        self.hub = hub
        self.keepsEveryValue = keepsEveryValue
        self.makeObserver = makeObserver
    }

    /// Starts the observation: the first value comes at once.
    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream(
            bufferingPolicy: keepsEveryValue ? .unbounded : .bufferingNewest(1)
        )
        let id = hub.observe(makeObserver(continuation))
        continuation.onTermination = { [hub] _ in hub.remove(id) }
        return Iterator(base: stream.makeAsyncIterator(), end: { [hub] in hub.remove(id) })
    }

    /// Reads the values; dropping it stops the observation.
    public final class Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Value, any Error>.Iterator
        let end: @Sendable () -> Void

        init(base: AsyncThrowingStream<Value, any Error>.Iterator, end: @escaping @Sendable () -> Void) {
            self.base = base
            self.end = end
        }

        /// The next value; `nil` once the task is cancelled.
        ///
        /// - Throws: What the observed closure threw.
        public func next() async throws -> Value? {
            try await base.next()
        }

        deinit { end() }
    }
}

/// The last value an observer yielded; used on the observation queue only.
private final class LastValue<Value>: @unchecked Sendable {
    var value: Value?
}
