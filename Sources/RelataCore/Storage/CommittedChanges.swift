/// What a replica needs to catch up with the commits after its sequence: the keys those commits
/// touched and the rows stored under them now, read in one read transaction (so they come from
/// one committed state).
public struct CommittedChanges: Sendable {
    /// The sequence of the last commit these changes include.
    public var sequence: Int64
    /// The keys the commits touched (merged).
    public var touched = ChangeLogRecord()
    /// The commits' origins (see ``StorageTransaction/persist(_:origin:)``), in commit order.
    public var origins: [String] = []
    /// The current rows of the entity keys in ``touched`` (a key without a row was erased).
    public var entities: [EntityRecord] = []
    /// The current link rows of the sources in ``touched``.
    public var links: [LinkRecord] = []
    /// The dynamic relationships in ``touched`` that are stored now.
    public var dynamicLinks: [DynamicLinkRecord] = []
    /// Whether the log no longer holds every commit after the replica's sequence (it was
    /// pruned): the replica must load everything again instead.
    public var needsReload = false

    /// Changes up to `sequence`.
    public init(sequence: Int64) {
        self.sequence = sequence
    }

    /// Commits up to `sequence` that the log cannot describe (pruned, or a record that does not
    /// decode): the store loads every row again (see ``needsReload``).
    public static func reload(at sequence: Int64) -> CommittedChanges {
        var changes = CommittedChanges(sequence: sequence)
        changes.needsReload = true
        return changes
    }
}
