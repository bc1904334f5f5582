import Dispatch
import Synchronization

/// Follows a store's backend: on every tick it asks the backend whether another connection
/// committed (``StorageBackend/hasNewCommits()``, SQLite's `PRAGMA data_version`: a few
/// microseconds), and only then has the store's writer catch up.
///
/// Ticks come every `interval` while other stores commit; after a second without any commit they
/// come three times less often, until the next one. A timer wake-up is the cost of following
/// (about 100 µs of CPU on a shared virtual machine, measured: 1% of a core at 10 ms), so an idle
/// store pays a third of it, and the first commit after a quiet spell is seen within three
/// intervals. The check runs on a dispatch timer of its own, with some leeway so the system can
/// coalesce wake-ups, never as a job of the writer. It holds the writer weakly and stops when
/// cancelled.
final class StoreFollower: @unchecked Sendable {
    // A dispatch source may be used from any thread (Dispatch documents it thread-safe); the
    // variables below are used on `queue` only.
    private let timer: any DispatchSourceTimer
    private let queue = DispatchQueue(label: "Relata.Store.follower", qos: .utility)
    private let catchingUp = Atomic<Bool>(false)
    private let fast: DispatchTimeInterval
    private let slow: DispatchTimeInterval
    private var quietTicks = 0
    private var isSlow = false
    /// Ticks without a commit before the follower slows down.
    private let quietLimit: Int

    init(writer: StoreWriter, interval: Duration) {
        // Between 1 ms and a day: a longer interval is taken as a day (and no product overflows).
        let nanoseconds = Int(max(1e6, interval.seconds(atMost: 86_400) * 1e9))
        fast = .nanoseconds(nanoseconds)
        slow = .nanoseconds(nanoseconds * 3)
        quietLimit = max(1, 1_000_000_000 / nanoseconds)
        timer = DispatchSource.makeTimerSource(queue: queue)
        schedule(fast)
        let backend = writer.backend
        timer.setEventHandler { [weak self, weak writer] in
            guard let self, let writer else { return }
            // While a catch-up runs, the hint is left for the next tick: taking it now and
            // dropping it would lose a commit made after the catch-up read the storage.
            guard !catchingUp.load(ordering: .acquiring) else { return }
            // A failed check (the file briefly unreadable) counts as news: the catch-up says more.
            guard (try? backend.hasNewCommits()) ?? true else {
                quietTicks += 1
                if !isSlow, quietTicks >= quietLimit {
                    isSlow = true
                    schedule(slow)
                }
                return
            }
            quietTicks = 0
            if isSlow {
                isSlow = false
                schedule(fast)
            }
            // One catch-up at a time (only this handler sets the flag).
            catchingUp.store(true, ordering: .releasing)
            Task { [weak self] in
                // A failure is not lost here: `refresh()` keeps it where the user sees it
                // (`Store.followError`) until a catch-up succeeds.
                try? await writer.refresh()
                self?.catchingUp.store(false, ordering: .releasing)
            }
        }
        timer.activate()
    }

    private func schedule(_ interval: DispatchTimeInterval) {
        let leeway: DispatchTimeInterval =
            switch interval {
            case .nanoseconds(let n): .nanoseconds(max(n / 5, 1_000_000))
            default: .milliseconds(2)
            }
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: leeway)
    }

    /// Stops following.
    func cancel() {
        timer.cancel()
    }

    deinit {
        timer.cancel()
    }
}
