import Dispatch
import Synchronization

/// Work started on a global queue at once, whose result is awaited later: a Store write reads
/// what the other copy must receive while the write is persisted.
final class BackgroundJob<Result>: @unchecked Sendable {
    private enum State {
        case running
        case awaited(CheckedContinuation<Void, Never>)
        case finished
    }

    private let state = Mutex<State>(.running)
    /// Written once by the job before `state` becomes `.finished`; read only after.
    private nonisolated(unsafe) var result: Result?

    /// Starts `work`. It must be the only user of what it captures until ``finished()`` returns.
    init(_ work: @escaping () -> Result) {
        let work = UnsafeTransfer(work)
        DispatchQueue.global().async { [self] in
            result = work.value()
            let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state = .finished }
                if case .awaited(let continuation) = state { return continuation }
                return nil
            }
            waiting?.resume()
        }
    }

    /// Waits for the work to finish and returns its result.
    func finished() async -> UnsafeTransfer<Result> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if case .finished = state { return true }
                state = .awaited(continuation)
                return false
            }
            if done { continuation.resume() }
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
