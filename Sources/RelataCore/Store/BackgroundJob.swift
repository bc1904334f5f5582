import Foundation

/// Work started at once on a thread of its own, whose result is taken later: a Store write reads
/// what the other copy must receive while the write is persisted, gathers link rows while entity
/// payloads are encoded, and catches the other copy up when a reader or the write needs it.
///
/// A dedicated thread, not a queue: callers may block on the result (``wait()``, or a reader
/// waiting for a catch-up), and a job queued behind blocked threads would never start.
final class BackgroundJob<Result>: @unchecked Sendable {
    private let group = DispatchGroup()
    /// Written once by the job before it leaves `group`; read only after the group is done.
    private nonisolated(unsafe) var result: Result?

    /// Starts `work`. It must be the only user of what it captures until the result is taken.
    init(_ work: @escaping () -> Result) {
        let work = UnsafeTransfer(work)
        group.enter()
        let thread = Thread { [self] in
            result = work.value()
            group.leave()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Blocks until the work is done, and returns its result.
    func wait() -> Result {
        group.wait()
        return result!
    }

    /// Waits, without blocking a thread, for the work to finish, and returns its result.
    func finished() async -> UnsafeTransfer<Result> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            group.notify(queue: .global()) { continuation.resume() }
        }
        return UnsafeTransfer(result!)
    }
}

/// Moves a value that is not `Sendable` to code that is its only user from then on.
struct UnsafeTransfer<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
