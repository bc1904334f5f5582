/// The rows that commits after a snapshot touched, as far as the change log was read: what a
/// context over that snapshot may no longer read from storage (see ``SnapshotReader``).
///
/// A context taken from a store at sequence `N` reads rows it does not hold yet in later read
/// transactions. A row no commit after `N` touched is the row it was at `N`; a touched one is not,
/// and the context refuses to read it (``RelataError/Code/staleSnapshot``) rather than mix two
/// states. The keys come from the log records after `N` — O(keys touched), read once per newer
/// commit and shared by every context over the snapshot.
struct SnapshotChanges: Sendable {
    /// The snapshot's sequence.
    let sequence: Int64
    /// The log was read up to this sequence.
    private(set) var through: Int64
    /// Whether the log no longer says what some commit after the snapshot touched (pruned, or a
    /// record that does not decode): nothing not held can be read as of the snapshot.
    private(set) var unknowable = false
    private(set) var entities: Set<EntityKey> = []
    /// Types with an entity stored or erased: their counts and pages changed.
    private(set) var entityTypes: Set<String> = []
    private(set) var linkSources: Set<LinkSourceKey> = []
    private(set) var linkTargets: Set<LinkTargetKey> = []
    private(set) var dynamicLinks: Set<DynamicLinkRecord> = []
    /// Ends of the dynamic relationships made or removed.
    private(set) var dynamicEnds: Set<EntityKey> = []

    init(sequence: Int64) {
        self.sequence = sequence
        through = sequence
    }

    /// Whether no commit after the snapshot is known: storage still reads as of it.
    var isUnchanged: Bool { through == sequence && !unknowable }

    /// Reads the log records `reader` holds after ``through`` (`known`: the log's bounds, when the
    /// caller read them already).
    ///
    /// - Returns: The sequence `reader` reads as of.
    @discardableResult
    mutating func advance(reading reader: any StorageReader, bounds known: ChangeLogBounds? = nil) throws -> Int64 {
        let bounds = try known ?? reader.logBounds()
        guard bounds.last > through else { return bounds.last }
        defer { through = bounds.last }
        switch try ChangeLogCursor.commits(after: through, bounds: bounds, in: reader) {
        case .unknowable: unknowable = true
        case .commits(let commits): for commit in commits { add(commit.record) }
        }
        return bounds.last
    }

    private mutating func add(_ record: ChangeLogRecord) {
        for key in record.entities {
            entities.insert(key)
            entityTypes.insert(key.type)
        }
        linkSources.formUnion(record.linkSources)
        linkTargets.formUnion(record.linkTargets)
        for link in record.dynamicLinks {
            dynamicLinks.insert(link)
            dynamicEnds.insert(EntityKey(type: link.sourceType, id: link.source))
            dynamicEnds.insert(EntityKey(type: link.targetType, id: link.target))
        }
    }
}
