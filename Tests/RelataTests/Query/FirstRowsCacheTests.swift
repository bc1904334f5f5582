import Foundation
import Relata
import RelataSQLite
import Testing

/// A sorted, limited query over SQLite finds its page's ids in SQL, then reads the rows by id
/// through the store's row cache: a page read again reads none of its rows, and a row another
/// store changed since is read anew.
@Suite("Queries: a sorted page's rows come through the store's cache")
struct FirstRowsCacheTests {
    typealias Reading = PropertyColumnTests.Reading

    @Test("A sorted page read again reads none of its rows; the one row another store changed since is read anew")
    func pageRowsFromTheCache() async throws {
        let (directory, readings, backend, store) = try await QueryStorageFilterTests.readingStore(followInterval: nil)
        defer { try? FileManager.default.removeItem(at: directory) }
        let other = try await Store(backend: SQLiteBackend(path: backend.path), schema: EntitySchema(Reading.self), followInterval: nil)
        var page = Array(readings.filter(\.ok).sorted { $0.taken > $1.taken }.dropFirst(2).prefix(5))
        // Compared by what the test changes (a reading holds a NaN, unequal to itself).
        func shown(_ readings: [Reading]) -> [String] { readings.map { "\($0.id) \($0.value) \($0.note ?? "-")" } }
        func read() async throws -> (found: [String], rows: Int) {
            let before = backend.rowsReadCount
            let found = try await store.read { Reading.query(in: $0).filter(\.ok == true).sorted(by: \.taken.desc).limit(5, offset: 2).resolve() }
            return (shown(found), backend.rowsReadCount - before)
        }
        let first = try await read()
        #expect(first.found == shown(page))
        let again = try await read()
        #expect(again.found == shown(page))
        #expect(again.rows == 0, "the page read again read \(again.rows) rows")
        // Another store changes one of them, not its place in the order.
        page[3].value += 1_000
        page[3].note = "changed"
        try await other.write { [changed = page[3]] in try changed.save(to: &$0) }
        let after = try await read()
        #expect(after.found == shown(page), "the changed row as the other store wrote it")
        // The other store's log record, and the changed row.
        #expect(after.rows == 2, "read \(after.rows) rows after another store changed one")
        let last = try await read()
        #expect(last.rows == 0, "read \(last.rows) rows")
        try await other.close()
        try await store.close()
    }
}
