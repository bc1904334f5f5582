import Foundation
import GRDB
import Relata
@testable import RelataCore
import RelataPostgres
@testable import RelataSQLite
import Testing

/// SwiftletModel's metadata in a store: when each entity was last saved is kept with its row,
/// read with the entity by every context the store hands out (in this process or after a
/// reopen), and `filter(.updated(within:))` / `sorted(by: .updatedAt)` answer as a plain context
/// holding the same entities does — storage testing and ordering by the time's column first.
@Suite("Metadata in a store")
struct StoredMetadataTests {
    typealias Employee = QueryPredicateTests.Employee

    static let schema = EntitySchema(Employee.self)

    /// Two writes: 200 employees, then (after `middle`) 2 of them changed, 20 new and one erased.
    /// Returns the moment between them and the ids the second write saved.
    static func twoWrites(_ store: Store) async throws -> (middle: Date, second: Set<String>) {
        let employees = QueryPredicateTests.employees(220, seed: 21)
        try await store.write { context in for employee in employees.prefix(200) { try employee.save(to: &context) } }
        try await Task.sleep(for: .milliseconds(5))
        let middle = Date()
        try await Task.sleep(for: .milliseconds(5))
        try await store.write { context in
            for var employee in [employees[3], employees[7]] {
                employee.age += 1
                try employee.save(to: &context)
            }
            for employee in employees[200...] { try employee.save(to: &context) }
            try employees[9].delete(from: &context)
        }
        return (middle, Set(["e3", "e7"] + employees[200...].map(\.id)))
    }

    /// The queries of metadata a store must answer as a plain context does, and whether their
    /// order is total (an unsorted list comes in each context's own order).
    static func queries(_ middle: Date) -> [(name: String, query: QueryList<Employee>, ordered: Bool)] {
        [
            ("updated within", Employee.filter(.updated(within: middle...Date.distantFuture)), false),
            ("updated before", Employee.filter(.updated(within: Date.distantPast...middle)), false),
            ("updated within, by age", Employee.filter(.updated(within: middle...Date.distantFuture)).sorted(by: \.age).limit(7, after: nil), true),
            ("by time, limited", Employee.query().sorted(by: .updatedAt).limit(5, offset: 3), true),
            ("by time, all", Employee.query().sorted(by: .updatedAt), true),
            ("age > 40 and updated within", Employee.filter(\.age > 40).filter(.updated(within: middle...Date.distantFuture)), false),
        ]
    }

    /// Checks `store` against a plain context holding what `backend` holds.
    static func expectSameAnswers(_ store: Store, _ backend: any StorageBackend, middle: Date, second: Set<String>) async throws {
        let whole = try loadedWhole(backend, schema: schema)
        try await store.read { context in
            #expect(Set(Employee.filter(.updated(within: middle...Date.distantFuture)).resolve(in: context).map(\.id)) == second)
            #expect(Employee.filter(.updated(within: middle...Date.distantFuture)).resolveCount(in: context) == second.count)
            for (name, query, ordered) in queries(middle) {
                let (found, expected) = (query.resolve(in: context).map(\.id), query.resolve(in: whole).map(\.id))
                #expect(!expected.isEmpty, "\(name)")
                if ordered {
                    #expect(found == expected, "\(name)")
                } else {
                    #expect(found.count == expected.count && Set(found) == Set(expected), "\(name)")
                }
            }
            for employee in Employee.query(in: context).resolve() {
                #expect(employee.updatedAt(in: context) == employee.updatedAt(in: whole), "\(employee.id)")
            }
        }
    }

    @Test("A new context, and the store reopened, read the time each entity was last saved", arguments: BackendKind.allCases)
    func timesAreKept(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await Store(backend: try harness.backend(), schema: Self.schema, followInterval: nil)
        let employees = QueryPredicateTests.employees(50, seed: 2)
        let saved = try await store.write { context -> [String: Date] in
            for employee in employees { try employee.save(to: &context) }
            return Dictionary(uniqueKeysWithValues: employees.map { ($0.id, $0.updatedAt(in: context)!) })
        }
        try await store.read { context in
            for employee in employees { #expect(employee.updatedAt(in: context) == saved[employee.id], "\(employee.id)") }
        }
        try await Task.sleep(for: .milliseconds(2))
        let resaved = try await store.write { context -> Date? in
            try employees[5].save(to: &context)
            return employees[5].updatedAt(in: context)
        }
        try await store.close()

        let reopened = try await Store(backend: try harness.backend(), schema: Self.schema, followInterval: nil)
        try await reopened.read { context in
            #expect(resaved.map { $0 > saved["e5"]! } == true)
            #expect(employees[5].updatedAt(in: context) == resaved)
            for employee in employees where employee.id != "e5" { #expect(employee.updatedAt(in: context) == saved[employee.id], "\(employee.id)") }
            // A query by the time sees them too.
            #expect(Employee.query().sorted(by: .updatedAt).resolve(in: context).last?.id == "e5")
        }
        try await reopened.close()
    }

    @Test("filter(.updated(within:)) and sorted(by: .updatedAt) answer in a store as in a plain context", arguments: BackendKind.allCases)
    func queriesAnswerAsInMemory(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let backend = try harness.backend()
        let store = try await Store(backend: backend, schema: Self.schema, followInterval: nil)
        let (middle, second) = try await Self.twoWrites(store)
        try await Self.expectSameAnswers(store, backend, middle: middle, second: second)
        if let sqlite = backend as? SQLiteBackend {
            // Storage finds the rows by the time's index: it reads those in the range, not the type.
            let before = sqlite.rowsReadCount
            let found = try await store.read { Employee.filter(.updated(within: middle...Date.distantFuture)).resolve(in: $0) }
            #expect(found.count == second.count)
            #expect(sqlite.rowsReadCount - before <= second.count, "read \(sqlite.rowsReadCount - before) rows for \(second.count) results")
            let queue = try DatabaseQueue(path: harness.path)
            try await queue.read { db in
                let table = try #require(try String.fetchOne(db, sql: "SELECT 'e' || number FROM relata_table WHERE kind = 'entity'"))
                let condition = ColumnFilter.updated(within: middle...Date.distantFuture)[0].condition(on: "updated_at", parameter: "?1", .sqlite)
                let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT * FROM \(table) WHERE \(condition)", arguments: [1.0])
                    .map { $0["detail"] as String }.joined()
                #expect(plan.contains("\(table)_updated"), "the range runs through the time's index: \(plan)")
            }
            try queue.close()
        }
        // Inside a write, its own saves and erasures count with their new times.
        let inWrite = try await store.write { context -> ([String], Set<String>) in
            try Employee(id: "w1", name: "W", age: 30, team: .web, email: nil, remote: true).save(to: &context)
            try Employee(id: "e50", name: "Changed", age: 31, team: .web, email: nil, remote: true).save(to: &context)
            try Employee(id: "e3", name: "", age: 0, team: .web, email: nil, remote: true).delete(from: &context)
            let found = Employee.filter(.updated(within: middle...Date.distantFuture)).resolve(in: context).map(\.id)
            return (found, second.subtracting(["e3"]).union(["w1", "e50"]))
        }
        #expect(Set(inWrite.0) == inWrite.1)
        #expect(inWrite.0.count == inWrite.1.count)
        try await store.close()
    }

    @Test("A version 9 file opens: its entities have no time until saved again, then are found by it")
    func upgradesVersion9() async throws {
        let harness = try StoreHarness(.sqlite)
        defer { harness.remove() }
        let store = try await Store(backend: try harness.backend(), schema: Self.schema, followInterval: nil)
        try await store.write { context in for employee in QueryPredicateTests.employees(30, seed: 4) { try employee.save(to: &context) } }
        try await store.close()
        try await LegacyStoreFile.downgradeToVersion9(harness.path)

        let backend = try harness.backend()
        let upgraded = try await Store(backend: backend, schema: Self.schema, followInterval: nil)
        let since = Date()
        try await upgraded.read { context in
            #expect(Employee.query(in: context).resolve().count == 30)
            #expect(Employee.query(in: context).resolve().allSatisfy { $0.updatedAt(in: context) == nil })
            #expect(Employee.filter(.updated(within: Date.distantPast...Date.distantFuture)).resolve(in: context).isEmpty)
        }
        try await upgraded.write { context in try QueryPredicateTests.employees(30, seed: 4)[12].save(to: &context) }
        try await upgraded.read { context in
            #expect(Employee.filter(.updated(within: since...Date.distantFuture)).resolve(in: context).map(\.id) == ["e12"])
            #expect(Employee.query().sorted(by: .updatedAt).resolve(in: context).last?.id == "e12")
        }
        try await upgraded.close()
        let queue = try DatabaseQueue(path: harness.path)
        let version = try await queue.read { db in try String.fetchOne(db, sql: "SELECT value FROM relata_meta WHERE key = 'version'") }
        try queue.close()
        #expect(version == "\(SQLiteSchema.version)")
    }

    @Test("On PostgreSQL: the same times and the same answers")
    func postgres() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let configuration = PostgresBackend.Configuration(schema: PostgresStoreTests.schema())
        let backend = try await PostgresBackend.connect(url: url, configuration: configuration)
        let store = try await Store(backend: backend, schema: Self.schema, followInterval: nil)
        let (middle, second) = try await Self.twoWrites(store)
        try await Self.expectSameAnswers(store, backend, middle: middle, second: second)
        try await store.close()
        let reopened = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: Self.schema, followInterval: nil)
        try await reopened.read { context in
            #expect(Set(Employee.filter(.updated(within: middle...Date.distantFuture)).resolve(in: context).map(\.id)) == second)
        }
        try await reopened.close()
        _ = try ShellCommand.run("psql '\(url)' -qc 'DROP SCHEMA \"\(configuration.schema)\" CASCADE'")
    }
}
