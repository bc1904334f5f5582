import Foundation

extension Duration {
    /// The duration in seconds (for timeouts given to Foundation, SQLite and PostgreSQL).
    package var timeInterval: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}

extension Duration {
    /// The duration in seconds, between zero and `limit` seconds: a timeout longer than a
    /// driver's own bound (SQLite's busy timeout and PostgreSQL's are milliseconds in a 32-bit
    /// integer, about 24.8 days) is taken as that bound, a negative one as zero.
    package func seconds(atMost limit: TimeInterval) -> TimeInterval {
        min(max(0, timeInterval), limit)
    }

    /// The longest timeout SQLite and PostgreSQL take: `Int32.max` milliseconds (about 24.8 days).
    package static let longestDriverTimeout: TimeInterval = TimeInterval(Int32.max) / 1_000
}
