import Foundation

/// The two copies of a ``Store``'s state and who may use each (left-right, caught up lazily).
///
/// Readers copy the *published* copy (O(1)). The *spare* copy is the published state as of a few
/// writes ago: the writes it lacks wait in `pending`, as catch-ups (what each write changed,
/// copied from the state it made). A write starts on:
/// - **the published copy, in place**, when no reader holds it: nothing is copied and nothing
///   catches up. Readers that arrive during that write need the last committed state, so the
///   first of them starts the spare's catch-up on a thread of its own, and they wait for it (or
///   for the write to commit, whichever comes first). A write that fails in place does the same
///   to recover the state before it.
/// - **the spare**, when a reader holds the published copy: the spare first receives the pending
///   catch-ups, or, when they hold more rows than the state has entities, is dropped for the
///   published copy itself, shared (the write then copies the tables it touches, once).
///
/// After a write, the copy it made is published and the other copy becomes the spare, lacking
/// just that write. A bulk load with no reader thus keeps one copy up to date, not two.
///
/// All state is behind one lock, held only to move references (and while a reader waits).
final class PublishedContext: @unchecked Sendable {
    private let condition = NSCondition()
    /// What readers get; `nil` while a write mutates it in place (readers wait).
    private var current: Context?
    /// The published state before the writes of `pending`; `nil` while a write or a catch-up
    /// uses it.
    private var spare: Context?
    /// What the spare lacks, oldest first.
    private var pending: [CatchUp] = []
    /// The rows of `pending`.
    private var pendingRows = 0
    /// The background catch-up of the spare, started by a reader that found no published copy.
    private var job: BackgroundJob<Void>?
    /// Runs in a background catch-up before it finishes (tests use it to hold one back).
    private var hook: (@Sendable () -> Void)?
    /// How many times the spare and what it lacked were dropped for the published copy (tests).
    private var droppedLogs = 0

    init(_ context: Context) {
        current = context
        spare = context
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    /// The published state, as of the last completed write. When a write is mutating the
    /// published copy in place, this waits for the spare to catch up (starting that) or for the
    /// write to commit, whichever comes first.
    var snapshot: Context {
        locked {
            while current == nil {
                startCatchUpIfIdle()
                condition.wait()
            }
            return current!
        }
    }

    /// Starts the background catch-up of the spare, unless one runs. Called under the lock, with
    /// no published copy.
    private func startCatchUpIfIdle() {
        guard job == nil, spare != nil else { return }
        let handOver = HandOver(spare!), steps = takePending(), hook = hook
        spare = nil
        job = BackgroundJob { [self] in
            var copy = handOver.take()
            for step in steps { step.apply(to: &copy) }
            hook?()
            finishCatchUp(copy)
        }
    }

    /// The caught-up copy is published if a write still holds the published copy (waking the
    /// readers waiting), and is the spare otherwise (lacking the write that committed since).
    private func finishCatchUp(_ copy: Context) {
        locked {
            job = nil
            if current == nil {
                current = copy
            } else {
                spare = copy
            }
            condition.broadcast()
        }
    }

    /// Waits for the background catch-up, if one runs.
    func settle() async {
        guard let job = locked({ job }) else { return }
        _ = await job.finished()
    }

    /// What a write starts on (see ``startWrite()``).
    struct Start {
        /// The copy to mutate; the writer is its only holder.
        var context: Context
        /// Whether it is the published copy (readers meanwhile wait for the spare).
        var inPlace: Bool
        /// Catch-ups to apply to `context` first.
        var catchUps: [CatchUp]
    }

    /// Hands the copy a write mutates to the writer. Call after ``settle()``, one write at a time.
    ///
    /// - Parameter prefetch: Whether a write in place should start the spare's catch-up at once,
    ///   beside its closure (when it will likely compare its rows with the state before it).
    func startWrite(prefetch: Bool) -> Start {
        locked {
            precondition(job == nil && current != nil, "a write started while another was running")
            if spare != nil, current!.isUniquelyReferenced {
                let start = Start(context: current!, inPlace: true, catchUps: [])
                current = nil
                if prefetch, !pending.isEmpty { startCatchUpIfIdle() }
                return start
            }
            if spare == nil || pendingRows > entityCount(current!) {
                // Catching up would cost more than copying what the write touches.
                droppedLogs += 1
                spare = current
                _ = takePending()
            }
            defer { spare = nil }
            return Start(context: spare!, inPlace: false, catchUps: takePending())
        }
    }

    /// What the spare lacks, which the caller applies to it or drops with it. Called under the lock.
    private func takePending() -> [CatchUp] {
        defer {
            pending = []
            pendingRows = 0
        }
        return pending
    }

    private func entityCount(_ context: Context) -> Int {
        context.storage.tables.reduce(0) { $0 + $1.entityCount }
    }

    /// The state before the write in progress: the published copy, or, for a write in place,
    /// the spare once caught up (then published for readers too).
    func committedState() async -> Context {
        while true {
            let (found, running): (Context?, BackgroundJob<Void>?) = locked {
                if let current { return (current, nil) }
                startCatchUpIfIdle()
                return (nil, job)
            }
            if let found { return found }
            if let running { _ = await running.finished() }
        }
    }

    /// Publishes `context`, a write's new state; `catchUp` brings the other copy up to it.
    func publish(_ context: Context, catchUp: CatchUp, rows: Int) {
        locked {
            if let previous = current {
                // The write ran on the spare, or a catch-up published the state before it.
                precondition(spare == nil && pending.isEmpty, "two spares")
                spare = previous
            }
            current = context
            pending.append(catchUp)
            pendingRows += rows
            condition.broadcast()
        }
    }

    /// Puts back the copy of a write that changed nothing.
    func returnUnchanged(_ context: Context) {
        locked {
            if current == nil {
                current = context
                condition.broadcast()
            } else {
                precondition(spare == nil && pending.isEmpty, "two spares")
                spare = context
            }
        }
    }

    /// After a write that failed (its copy is half-written and dropped) or whose context the
    /// closure replaced: `context`, or the committed state, is both copies. The next write copies
    /// the tables it touches, once. Call after ``committedState()`` and ``settle()``.
    func reset(to context: Context? = nil) {
        locked {
            precondition(job == nil && current != nil, "resetting while the other copy is catching up")
            if let context { current = context }
            spare = current
            _ = takePending()
        }
    }

    /// Sets what a background catch-up runs before it finishes, for tests.
    func setCatchUpHook(_ hook: (@Sendable () -> Void)?) {
        locked { self.hook = hook }
    }

    /// The spare copy caught up, for tests: it must equal the published state. Call between
    /// writes.
    func caughtUpSpareForTesting() async -> Context {
        await settle()
        return locked {
            for step in takePending() { step.apply(to: &spare!) }
            return spare!
        }
    }

    /// How many catch-ups the spare lacks, for tests.
    var pendingCountForTesting: Int {
        locked { pending.count }
    }

    /// How many times the spare was dropped for the published copy, for tests.
    var droppedLogsForTesting: Int {
        locked { droppedLogs }
    }

    /// Whether a background catch-up runs, for tests.
    var isCatchingUpForTesting: Bool {
        locked { job != nil }
    }
}

extension Context {
    /// Whether no other copy of this context shares its storage (so a mutation does not copy it).
    var isUniquelyReferenced: Bool {
        mutating get { isKnownUniquelyReferenced(&storage) }
    }
}

/// Moves a value to another thread, which takes it out: no reference to it stays behind.
final class HandOver<Value>: @unchecked Sendable {
    private var value: Value?

    init(_ value: Value) {
        self.value = value
    }

    /// The value; called once.
    func take() -> Value {
        defer { value = nil }
        return value!
    }
}
