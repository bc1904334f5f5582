/// Reads a store's change log after a sequence, checked — the one reader of the log: the row
/// cache, a snapshot's changes and a store's catch-up all read it through here.
///
/// What it returns is every commit after the sequence, or ``Result/unknowable`` when the log
/// cannot say what they touched: records pruned, a record damaged (its checksum), or a record
/// missing (each record names the commit it follows: a break in that chain, or a newest record
/// that is not the log's newest). A reader then treats every row as changed.
package enum ChangeLogCursor {
    /// One commit read from the log.
    package struct Commit: Sendable {
        package var sequence: Int64
        /// Who made it; `nil` when the stored value cannot be read.
        package var origin: String?
        package var record: ChangeLogRecord
    }

    package enum Result: Sendable {
        /// The commits after the sequence, in order (none when the log ends there).
        case commits([Commit])
        /// The log cannot say what the commits after the sequence touched.
        case unknowable
    }

    /// The commits `reader` holds after `sequence`, its log's `bounds` read already.
    package static func commits(after sequence: Int64, bounds: ChangeLogBounds, in reader: any StorageReader) throws -> Result {
        guard bounds.last > sequence else { return .commits([]) }
        guard sequence >= bounds.pruned else { return .unknowable }
        var commits: [Commit] = []
        var previous = sequence
        for entry in try reader.logEntries(after: sequence) {
            guard entry.sequence > previous, let bytes = entry.record, let stored = try? StoredChangeLogRecord(decoding: bytes),
                stored.previous == previous
            else { return .unknowable }
            previous = entry.sequence
            commits.append(Commit(sequence: entry.sequence, origin: entry.origin, record: stored.record))
        }
        return previous == bounds.last ? .commits(commits) : .unknowable
    }
}
