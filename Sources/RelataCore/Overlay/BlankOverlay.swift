import Synchronization

/// The tables a context over storage starts with — one per type of the schema, with its link
/// tables, backlink indexes and faulters, holding nothing — made once and copied for each new
/// context (its faulters then pointed at the context's base), instead of made again from each
/// type's `OverlayPlan` for every read and every write (a tenth of a point write).
final class BlankOverlay: Sendable {
    /// Made at the first context, never changed after: copies are read from several threads.
    private let blank = Mutex<Context.Storage?>(nil)

    init() {}

    /// A new context over `base`, holding nothing, as `Context(over: base)` makes it.
    func context(over base: ContextBase) -> Context {
        if let storage = blank.withLock({ $0 }) {
            // A copy: the blank tables are shared by every context made from them.
            return Context(over: base, taking: storage.placedCopy())
        }
        let made = Context(over: base)
        // Its storage is copied before the context is handed out: the blank one is never read into.
        let storage = made.storage.placedCopy()
        blank.withLock { if $0 == nil { $0 = storage } }
        return made
    }
}
