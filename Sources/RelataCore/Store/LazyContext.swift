import Foundation

/// A context found only when first asked for, once, from any thread: the state before a Store
/// write, which the write's rows need only to compare removals and moved links with. Finding it
/// may wait for the other copy's catch-up (see `PublishedContext`), so a write that only adds
/// never waits for it.
@usableFromInline
final class LazyContext: @unchecked Sendable {
    private let lock = NSLock()
    private var resolve: (() -> Context)?
    private var value: Context?

    /// A context already at hand.
    init(_ context: Context) {
        value = context
    }

    /// The context `resolve` returns, called at most once, on first use.
    init(resolving resolve: @escaping () -> Context) {
        self.resolve = resolve
    }

    /// Whether the context was asked for (or given).
    var isResolved: Bool {
        lock.withLock { value != nil }
    }

    /// The context, found on first use.
    @usableFromInline var context: Context {
        lock.withLock {
            if let value { return value }
            let found = resolve!()
            value = found
            resolve = nil
            return found
        }
    }
}
