/// Reads the sources of one-way links to targets a ``Backlinks`` index does not hold.
@usableFromInline
final class BacklinkFaulter<SourceID: Hashable & Sendable, TargetID: Hashable & Sendable>: @unchecked Sendable {
    @usableFromInline typealias Load = (ContextBase, [TargetID]) -> [TargetID: Set<SourceID>]?

    /// The base of the context whose index this is (a context that takes the table points it at
    /// its own: `Context.init(over:taking:)`, before it reads;
    /// every read reads it, so it skips run-time exclusivity checks).
    @exclusivity(unchecked) @usableFromInline var base: ContextBase
    /// How the sources are read, shared by every context (see ``OverlayPlan``).
    @usableFromInline let load: Load

    @usableFromInline
    init(base: ContextBase, load: @escaping Load) {
        self.base = base
        self.load = load
    }

    /// A faulter of its own for a clone of the index, reading the same base.
    func copy() -> BacklinkFaulter {
        BacklinkFaulter(base: base, load: load)
    }

    /// The sources of each of a batch of targets; `nil` when the read failed.
    @inlinable
    func read(_ targets: [TargetID]) -> [TargetID: Set<SourceID>]? {
        load(base, targets)
    }
}
