import Foundation

/// How one side of one relation is read from a base: made once per relation side
/// (``OverlayPlan``) and shared by every context's ``LinkFaulter``.
@usableFromInline
final class LinkReads<SourceID: Hashable & Sendable, TargetID: Hashable & Sendable>: @unchecked Sendable {
    @usableFromInline typealias Load = (ContextBase, [SourceID]) -> (one: [SourceID: TargetID], many: [SourceID: OrderedLinks<TargetID>])?
    @usableFromInline typealias Page = (ContextBase, SourceID, ListPage) -> [(target: TargetID, key: PositionKey)]?
    @usableFromInline typealias Count = (ContextBase, [SourceID]) -> [SourceID: Int]?
    @usableFromInline typealias Tails = (ContextBase, [SourceID]) -> [SourceID: PositionKey]?

    /// The links of a batch of sources; `nil` when the read failed (the base keeps the error).
    @usableFromInline let read: Load
    /// Reads what ``read`` reads, with the targets' entity rows in the same statement (kept by the
    /// read transaction for the fetch of the targets that follows: see `TransactionReader`); `nil`
    /// where the targets' rows cannot come with the links (a to-one side stored in the sources'
    /// rows). Used only over a base that joins them (`ContextBase.joinsLinkedRows`).
    @usableFromInline let readWithTargets: Load?
    /// A page of one to-many source's list; `nil` for a to-one side.
    @usableFromInline let page: Page?
    /// How many targets each of a batch of to-many sources has; `nil` for a to-one side.
    @usableFromInline let count: Count?
    /// The last key of each of a batch of to-many sources' lists; `nil` for a to-one side.
    @usableFromInline let tails: Tails?
    /// The reads ``tails`` makes for a batch of sources; `nil` for a to-one side.
    @usableFromInline let plannedTails: (([SourceID]) -> PlannedReads)?

    @usableFromInline
    init(read: @escaping Load, readWithTargets: Load?, page: Page?, count: Count?, tails: (read: Tails, planned: ([SourceID]) -> PlannedReads)?) {
        self.read = read
        self.readWithTargets = readWithTargets
        self.page = page
        self.count = count
        self.tails = tails?.read
        plannedTails = tails?.planned
    }
}
