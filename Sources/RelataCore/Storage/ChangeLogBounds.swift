/// What a change log holds: the sequences of its newest record and of the newest record it no
/// longer holds (see ``StorageReader/logBounds()``).
public struct ChangeLogBounds: Sendable, Hashable {
    /// The sequence of the newest commit (`0` before the first).
    public var last: Int64
    /// The newest sequence whose record was pruned (`0` when none was): a store at an older
    /// sequence cannot catch up from the log and loads every row again.
    public var pruned: Int64

    /// Bounds.
    public init(last: Int64, pruned: Int64) {
        self.last = last
        self.pruned = pruned
    }
}

extension ChangeLogBounds {
    /// Bounds as storage gives them, checked before any arithmetic: the newest sequence in
    /// `0..<Int64.max`, the pruned one in `0...last`.
    ///
    /// - Parameters:
    ///   - last: The sequence of the newest record.
    ///   - pruned: The newest sequence whose record was pruned.
    ///   - place: Where they were read, for the error (a path, a schema).
    /// - Throws: ``RelataError`` with code ``RelataError/Code/corruptedStore`` naming `place` and
    ///   the numbers, when they are out of range (a crafted or damaged log).
    public init(checkedLast last: Int64, pruned: Int64, place: String) throws {
        guard last >= 0, last < .max, pruned >= 0, pruned <= last else {
            throw RelataError(
                code: .corruptedStore, entityType: "Store",
                message: "\(place) is damaged: the change log's sequences are out of range (newest \(last), pruned through \(pruned))"
            )
        }
        self.init(last: last, pruned: pruned)
    }

    /// Bounds from the sequences of the newest and oldest records a log holds (`nil` when it holds
    /// none), checked as ``init(checkedLast:pruned:place:)`` does: what was pruned is what comes
    /// before the oldest record kept (sequences have no gaps).
    ///
    /// - Parameters:
    ///   - newest: The sequence of the newest record, `nil` for an empty log.
    ///   - oldest: The sequence of the oldest record kept.
    ///   - place: Where they were read, for the error (a path, a schema).
    /// - Throws: ``RelataError`` with code ``RelataError/Code/corruptedStore`` when they are out of
    ///   range: the oldest below 1 or above the newest, the newest `Int64.max`.
    public init(newest: Int64?, oldest: Int64?, place: String) throws {
        guard let newest else {
            self.init(last: 0, pruned: 0)
            return
        }
        guard let oldest, oldest >= 1, oldest <= newest else {
            throw RelataError(
                code: .corruptedStore, entityType: "Store",
                message: "\(place) is damaged: the change log's sequences are out of range (oldest \(oldest.map(String.init) ?? "none"), newest \(newest))"
            )
        }
        try self.init(checkedLast: newest, pruned: oldest - 1, place: place)
    }
}
