import Dispatch

extension Store {
    /// Runs `body` on a new context (see ``context``) on one of the store's reader threads, and
    /// suspends the caller until it returns: a read that waits for storage (a PostgreSQL round
    /// trip, a SQLite page from disk) blocks that thread, never a thread of Swift's cooperative
    /// pool, as GRDB's `try await dbPool.read { … }` does. No lock is held while it runs.
    ///
    /// In an `async` function, `try await store.read { … }` calls this one; the synchronous
    /// ``read(_:)-7uh7i`` runs `body` on the calling thread.
    ///
    /// ```swift
    /// let latest = try await store.read { context in
    ///     context.ids(of: "c1", \Chat.$messages, page: .last(20))
    /// }
    /// ```
    ///
    /// - Returns: What `body` returns.
    /// - Throws: `CancellationError` when the task is cancelled before `body` starts; what
    ///   `body` throws; or the first read of `body` that storage could not answer
    ///   (``Context/storageFailure``), a ``RelataError`` naming the type and id.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Context) throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try await withCheckedThrowingContinuation { continuation in
            readers.run({ Result { try self.read(body) } }, then: { continuation.resume(with: $0) })
        }
    }

    /// Runs `body` on one of the store's reader threads and suspends the caller until it
    /// returns (see ``read(_:)-s1ly``): for reads that do not throw.
    func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            readers.run(body, then: { continuation.resume(returning: $0) })
        }
    }
}
