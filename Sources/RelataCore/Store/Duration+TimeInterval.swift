import Foundation

extension Duration {
    /// The duration in seconds (for timeouts given to Foundation, SQLite and PostgreSQL).
    package var timeInterval: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
