/// What a Store write's context reads for links it set without reading (see
/// `Context.resolveUnreadLinks()`): the read, made in one batch before the write's delta, and the
/// reads it will make — told to the transaction ahead, so that a backend whose reads are round
/// trips sends every batch at once (``StorageReader/prefetch(_:)``).
@usableFromInline
struct DeferredRead: Sendable {
    /// Reads what storage held, and applies it.
    @usableFromInline let resolve: @Sendable (inout Context) -> Void
    /// The reads ``resolve`` will make; `nil` when not told ahead.
    @usableFromInline let plan: (@Sendable (inout Context) -> PlannedReads)?

    @inlinable
    init(resolve: @escaping @Sendable (inout Context) -> Void, plan: (@Sendable (inout Context) -> PlannedReads)?) {
        self.resolve = resolve
        self.plan = plan
    }
}
