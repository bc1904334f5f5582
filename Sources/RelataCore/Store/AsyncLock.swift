import DequeModule
import Synchronization

/// A first-come first-served lock for async code: ``Store`` holds it across a write's `await`s,
/// which actor isolation alone would not serialize (actors are reentrant).
final class AsyncLock: Sendable {
    private struct State: ~Copyable {
        var locked = false
        var waiters: Deque<CheckedContinuation<Void, Never>> = []
    }

    private let state = Mutex(State())

    func lock() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = state.withLock { state in
                if !state.locked {
                    state.locked = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if acquired { continuation.resume() }
        }
    }

    func unlock() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let next = state.waiters.popFirst() { return next }
            state.locked = false
            return nil
        }
        next?.resume()
    }
}
