import Foundation
@testable import Relata
@testable import RelataSQLite
import Testing

/// On SQLite, a filter on a property that leads an index searches that index twice — the rows
/// passing its test, and the rows whose column is NULL (their value is in the payload, as in a
/// row the upgrade to property columns has not moved yet), each tested in Swift after. Half an
/// upgrade makes both kinds, so every answer is checked against plain Swift over both.
@Suite("Queries: an indexed filter searches the index, and still finds rows not in columns")
struct QueryIndexSearchTests {
    typealias Employee = QueryPredicateTests.Employee

    /// A store of `count` employees whose upgrade to property columns stopped after its first
    /// batch: the later rows (in id order) hold their properties in the payload only.
    static func halfUpgraded(_ employees: [Employee], at path: String) async throws -> Store {
        let store = try await Store(path: path, entities: Employee.self)
        try await store.write { context in for employee in employees { try employee.save(to: &context) } }
        try await store.close()
        try await LegacyStoreFile.downgradeToVersion7(path)
        return try await SQLiteSchema.$upgradeBatchesBeforeStop.withValue(1) { try await Store(path: path, entities: Employee.self) }
    }

    @Test("Equality, range, sorted page and count on indexed properties: the same answers as Swift, rows moved or not")
    func indexedFiltersOverHalfAnUpgrade() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let employees = QueryPredicateTests.employees(SQLiteSchema.upgradeBatch + 600, seed: 11)
        let store = try await Self.halfUpgraded(employees, at: path)
        // Some rows of each answer are in columns and some are not.
        let moved = Set(employees.map(\.id).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.prefix(SQLiteSchema.upgradeBatch))
        let aged = employees.filter { $0.age == 42 }
        #expect(aged.contains { moved.contains($0.id) } && aged.contains { !moved.contains($0.id) })

        let found = try await store.read { Employee.query(in: $0).filter(\.age == 42).resolve().map(\.id).sorted() }
        #expect(found == aged.map(\.id).sorted(), "equality")
        let ops = try await store.read { Employee.query(in: $0).filter(\.team == .ops).and(\.age < 25).resolve().map(\.id).sorted() }
        #expect(ops == employees.filter { $0.team == .ops && $0.age < 25 }.map(\.id).sorted(), "two indexed properties")
        let older = employees.filter { $0.age >= 60 }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
        for (count, offset) in [(10, 0), (10, 7), (30, 200)] {
            let page = try await store.read {
                Employee.query(in: $0).filter(\.age >= 60).sorted(by: \.name, \.id).limit(count, offset: offset).resolve().map(\.id)
            }
            #expect(page == older.dropFirst(offset).prefix(count).map(\.id), "by name, \(count) from \(offset)")
        }
        let range = try await store.read { Employee.query(in: $0).filter(\.age >= 30).and(\.age <= 39).sorted(by: \.age.desc, \.id).limit(25).resolve() }
        let expected = employees.filter { (30...39).contains($0.age) }.sorted { ($0.age, $1.id) > ($1.age, $0.id) }.prefix(25)
        #expect(range.map(\.id) == expected.map(\.id), "a range, newest first")
        let counted = try await store.read { Employee.query(in: $0).filter(\.age >= 60).resolveCount() }
        #expect(counted == older.count, "count")
        try await store.close()
    }
}
