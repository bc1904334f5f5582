import Foundation

/// Which change log records a backend keeps — the same rule on SQLite, PostgreSQL and in memory.
///
/// A record is removed once it is more than ``maxRecords`` commits old, or once it and every
/// record before it are older than ``maxAge``, whichever comes first; the newest record is always
/// kept. Records are only ever removed as a prefix of the log (the oldest first, never one in the
/// middle: after the wall clock steps back, the records made before stay until they expire or
/// are ``maxRecords`` old), so a store behind the oldest record kept knows it: it loads
/// everything again (see `Store.fullReloads`) instead of skipping a commit.
///
/// ```swift
/// let retention = try LogRetention(maxRecords: 1_000, maxAge: .seconds(60))
/// let backend = try SQLiteBackend(path: "chat.sqlite", logRetention: retention)
/// ```
public struct LogRetention: Sendable, Hashable {
    /// How many of the newest records are kept at most (at least 1).
    public let maxRecords: Int
    /// How old a record may get (more than zero).
    public let maxAge: Duration

    /// The default: the last 10,000 commits of the last 10 minutes.
    public static let standard = LogRetention(checkedMaxRecords: 10_000, maxAge: .seconds(600))

    /// A retention.
    ///
    /// - Parameters:
    ///   - maxRecords: How many of the newest records are kept at most: at least 1 (a log that
    ///     keeps nothing would hide every commit from the other stores).
    ///   - maxAge: How old a record may get: more than zero.
    /// - Throws: ``RelataError`` with code ``RelataError/Code/invalidConfiguration`` for a value
    ///   out of range.
    public init(maxRecords: Int = 10_000, maxAge: Duration = .seconds(600)) throws(RelataError) {
        guard maxRecords >= 1 else {
            throw RelataError(
                code: .invalidConfiguration, entityType: "Store",
                message: "a log retention must keep at least 1 record (maxRecords is \(maxRecords))"
            )
        }
        guard maxAge > .zero else {
            throw RelataError(
                code: .invalidConfiguration, entityType: "Store", message: "a log retention's maxAge must be more than zero (it is \(maxAge))"
            )
        }
        self.init(checkedMaxRecords: maxRecords, maxAge: maxAge)
    }

    private init(checkedMaxRecords maxRecords: Int, maxAge: Duration) {
        self.maxRecords = maxRecords
        self.maxAge = maxAge
    }

    /// The wall-clock time before which records are expired, as seconds since 1970, for a
    /// commit made at `now`.
    package func cutoff(now: TimeInterval) -> TimeInterval {
        now - min(maxAge.timeInterval, 1e15)
    }

    /// The highest sequence to remove when the newest record is `last`: every record up to it
    /// goes, none after it. `firstUnexpired` is the lowest sequence of a record not older than
    /// ``maxAge`` (`nil` when every record is): the records before it all expired.
    package func pruneBound(last: Int64, firstUnexpired: Int64?) -> Int64 {
        let byCount = last > Int64.min + Int64(maxRecords) ? last - Int64(maxRecords) : Int64.min
        let byAge = firstUnexpired.map { $0 > Int64.min ? $0 - 1 : Int64.min } ?? last
        return min(last - 1, max(byCount, byAge))
    }

    /// Whether a commit with sequence `sequence` should prune: every 32 commits, or every commit
    /// for a retention of under 64 records (the check reads the records' times).
    package func prunes(at sequence: Int64) -> Bool {
        sequence % 32 == 0 || maxRecords < 64
    }
}
