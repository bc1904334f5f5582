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

    /// One read of the log, after ``after``: what a catch-up reads once and hands to each of
    /// its readers (the row cache, the observers' changes), each reading from its own sequence.
    package struct Read: Sendable {
        /// The sequence the log was read after.
        package let after: Int64
        package let result: Result

        /// What a read after `sequence` returns, taken from this one; `nil` when this one cannot
        /// say (`sequence` is before ``after``, or this read found the log unknowable after an
        /// earlier sequence: it may not be after `sequence`).
        package func commits(after sequence: Int64) -> Result? {
            guard sequence >= after else { return nil }
            switch result {
            case .commits(let commits): return .commits(commits.filter { $0.sequence > sequence })
            case .unknowable: return sequence == after ? .unknowable : nil
            }
        }
    }

    /// The commits `reader` holds after `sequence`, its log's `bounds` read already — taken from
    /// `known` when that read of the same transaction answers.
    package static func commits(
        after sequence: Int64, bounds: ChangeLogBounds, in reader: any StorageReader, known: Read? = nil
    ) throws -> Result {
        if let known, let result = known.commits(after: sequence) { return result }
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
