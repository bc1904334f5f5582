import Foundation

/// The two copies of a ``Store``'s state (left-right) and who may use each: readers copy the
/// published one; a write mutates the other one in place; after a write the previous published
/// copy catches up with it, possibly on another thread while the next write runs.
///
/// A large write's catch-up runs in the background (see `Store.write`). When the next write
/// begins before it is done, that write takes the published copy for itself — if no reader holds
/// it, so it can be mutated in place — and readers wait until the catching-up copy is ready and
/// published in its place. Readers thus wait at most for one catch-up, never for a write or a
/// commit, and the catch-up overlaps the next write's own work.
///
/// All state is behind one lock, held only to move a reference (and while a reader waits).
final class PublishedContext: @unchecked Sendable {
    private let condition = NSCondition()
    /// What readers get; `nil` while a write holds the only up-to-date copy (readers wait).
    private var current: Context?
    /// The copy writes run on, when it is up to date and not published.
    private var spare: Context?
    /// Whether the other copy is catching up on another thread.
    private var catchingUp = false

    init(_ context: Context) {
        current = context
        spare = context
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    /// The published state, as of the last completed write. Waits if a write has just taken the
    /// published copy and the other copy is finishing its catch-up.
    var snapshot: Context {
        locked {
            while current == nil { condition.wait() }
            return current!
        }
    }

    /// What a write can start on.
    enum Start {
        /// The spare copy, up to date: mutate it; the published copy stays readable.
        case spare(Context)
        /// The published copy, which no reader holds: readers now wait for the catching-up copy.
        case published(Context)
        /// The spare is still catching up and a reader holds the published copy: wait for the
        /// catch-up, then start again.
        case wait
    }

    /// Hands the copy a write mutates to the writer (the only holder of it from then on).
    func startWrite() -> Start {
        locked {
            if let copy = spare {
                spare = nil
                return .spare(copy)
            }
            precondition(catchingUp && current != nil, "a write started while another was running")
            guard current!.isUniquelyReferenced else { return .wait }
            defer { current = nil }
            return .published(current!)
        }
    }

    /// Publishes `context` (a write's new state) and returns the copy it replaces, which must
    /// now catch up. The caller must have waited for any catch-up in progress.
    func publish(_ context: Context) -> Context {
        locked {
            precondition(!catchingUp && current != nil, "publishing while the other copy is catching up")
            defer { current = context }
            return current!
        }
    }

    /// Marks the other copy as catching up on another thread (see ``finishCatchUp(_:)``).
    func beginCatchUp() {
        locked { catchingUp = true }
    }

    /// The copy that was catching up is up to date: it is published if a write holds the
    /// published copy (waking the readers waiting), and is the spare otherwise.
    func finishCatchUp(_ copy: Context) {
        locked {
            catchingUp = false
            if current == nil {
                current = copy
                condition.broadcast()
            } else {
                spare = copy
            }
        }
    }

    /// Puts back the copy a write started on, as the spare (after a write that changed nothing,
    /// or whose catch-up was applied inline).
    func returnSpare(_ copy: Context) {
        locked { spare = copy }
    }

    /// After a write that failed (its copy is half-written and dropped) or that both copies
    /// share (it replaced the context): `context`, or the published state, is both copies.
    /// The next write copies the tables it touches, once. The caller must have waited for any
    /// catch-up in progress.
    func reset(to context: Context? = nil) {
        locked {
            precondition(!catchingUp && current != nil, "resetting while the other copy is catching up")
            if let context { current = context }
            spare = current
        }
    }

    /// The spare copy, for tests (`nil` while it is catching up or in use).
    var spareForTesting: Context? {
        locked { spare }
    }
}

extension Context {
    /// Whether no other copy of this context shares its storage (so a mutation does not copy it).
    var isUniquelyReferenced: Bool {
        mutating get { isKnownUniquelyReferenced(&storage) }
    }
}
