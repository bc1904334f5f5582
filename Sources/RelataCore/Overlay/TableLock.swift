#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// The lock of the tables a context over storage shares with its copies: reads fault rows into
/// them, so two threads reading copies of one context (a `Sendable` value) would otherwise mutate
/// one dictionary at once. Every public operation of such a context holds it while it runs
/// (``Context/exclusively(_:)``); a context that holds everything (`Context()`) has none and pays
/// one `nil` check.
///
/// Reentrant: an operation calls others (a resolve reads entities, a save reads what it merges
/// with). Held only while an operation runs; the user code an operation runs (a delete's
/// `willDelete`/`didDelete` hooks) runs holding it, so a hook must not wait for another thread
/// that uses the same context. A `QueryList`'s filter and sort closures run after it is released.
@usableFromInline
package final class TableLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    @usableFromInline
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

extension Context {
    /// Runs `body` holding the lock of the tables this context shares with its copies, in a
    /// context over storage (see ``TableLock``); runs it at once in a context that holds everything.
    @inlinable
    func exclusively<T>(_ body: () throws -> T) rethrows -> T {
        guard let lock = storage.base?.tableLock else { return try body() }
        return try lock.withLock(body)
    }

    /// Runs `body` on this context holding the lock of the tables it shares with its copies (see
    /// ``exclusively(_:)``): the lock of the base the context had when the call began.
    @inlinable
    mutating func exclusivelyMutating<T>(_ body: (inout Context) throws -> T) rethrows -> T {
        guard let lock = storage.base?.tableLock else { return try body(&self) }
        return try lock.withLock { try body(&self) }
    }
}
