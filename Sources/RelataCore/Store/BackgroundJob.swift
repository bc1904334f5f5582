import Foundation
import Synchronization

/// Work started at once on a thread of its own, whose result is waited for later: a large Store
/// write gathers its link rows while its entity payloads are encoded on every core.
///
/// Waiting blocks the caller, so only the store's writer queue waits (never a thread of Swift's
/// cooperative pool); a dedicated thread, not a queue, so that the work never waits behind
/// blocked threads.
final class BackgroundJob<Result: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Mutex<Result?>(nil)

    /// Starts `work`.
    init(_ work: @escaping @Sendable () -> Result) {
        let thread = Thread { [self] in
            let value = work()
            result.withLock { $0 = value }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Blocks until the work is done, and returns its result. Called once.
    func wait() -> Result {
        done.wait()
        return result.withLock { $0! }
    }
}
