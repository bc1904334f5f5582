import Synchronization

/// A count of the statements (PostgreSQL: round trips) a backend ran, shared with whatever
/// runs them (SQLite's trace hook, PostgreSQL's transaction).
package final class StatementTally: Sendable {
    private let value = Atomic<Int>(0)

    package init() {}

    package func add(_ count: Int = 1) { value.add(count, ordering: .relaxed) }

    package var count: Int { value.load(ordering: .relaxed) }
}
