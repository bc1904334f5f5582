import Synchronization

/// What one Store write is tracking: made by the write, active until the write ends.
///
/// While a context's storage holds an active tracker, its tables mark every entity and link that
/// changes (`EntityTable.dirty`, `LinkTable.dirty`); those marks become the write's
/// ``StoreDelta``. The tracker is an identity, never a flag: a copy of the context that escapes
/// the write (returned from the closure, kept in a variable) still holds this tracker after the
/// write ended, and so
/// - it is never mistaken for the context of a later write (whose tracker is another object), so
///   a closure that assigns it back is diffed in full against the state before that write;
/// - it stops marking changes the first time it is mutated after the write (a stale tracker is
///   dropped by `Context.mutableTable`), so it pays nothing for tracking afterwards.
@usableFromInline
final class ChangeTracker: Sendable {
    private let active = Atomic<Bool>(true)

    @usableFromInline init() {}

    /// Whether the write that made this tracker is still running.
    @usableFromInline var isActive: Bool {
        active.load(ordering: .relaxed)
    }

    /// Ends tracking: every context still holding this tracker stops marking when next mutated.
    func end() {
        active.store(false, ordering: .relaxed)
    }
}
