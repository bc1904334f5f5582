import Foundation
import Relata
@testable import RelataCore
import RelataPostgres
@testable import RelataSQLite
import Testing

/// A whole type's query with predicates, in a store's context: the predicates storage can test
/// select the rows in SQL first (the type is not read whole), and the answer is the one plain
/// Swift gives over what the context holds — its own unsaved saves and erasures included.
@Suite("Queries: predicates run in storage first")
struct QueryStorageFilterTests {
    typealias Employee = QueryPredicateTests.Employee

    @Test("A predicate on a property reads the matching rows, not the whole type")
    func readsMatchingRows() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let employees = QueryPredicateTests.employees(3_000, seed: 5)
        let backend = try SQLiteBackend(path: path)
        let store = try await Store(backend: backend, schema: EntitySchema(Employee.self), followInterval: nil)
        try await store.write { context in for employee in employees { try employee.save(to: &context) } }
        func check(_ name: String, _ expected: [Employee], _ query: @escaping @Sendable (QueryList<Employee>) -> QueryList<Employee>) async throws {
            let before = backend.rowsReadCount
            let found = try await store.read { query(Employee.query(in: $0)).sorted(by: \.id).resolve() }
            let read = backend.rowsReadCount - before
            #expect(found.map(\.id) == expected.map(\.id).sorted(), "\(name)")
            // Rows whose email is nil pass the email test (a NULL column), as the prefilter says.
            let allowed = name == "email" ? employees.filter { $0.email == nil }.count + 1 : max(expected.count, 1) * 3 + 10
            #expect(read <= allowed, "\(name): read \(read) rows of 3,000 for \(expected.count) matches")
            #expect(!expected.isEmpty, "\(name) matches something")
        }
        try await check("age == 42", employees.filter { $0.age == 42 }) { $0.filter(\.age == 42) }
        try await check("email", employees.filter { $0.email == "e77@example.com" }) { $0.filter(\.email == "e77@example.com") }
        try await check("team and age", employees.filter { $0.team == .ops && $0.age >= 69 }) { $0.filter(\.team == .ops).and(\.age >= 69) }
        try await check("contains", employees.filter { $0.name.contains("Smith") && $0.age < 19 }) {
            $0.filter(.string(\.name, contains: "Smith", caseSensitive: true)).and(\.age < 19)
        }
        // A case-insensitive test cannot run in SQL (Unicode case folding): the type is read.
        let before = backend.rowsReadCount
        _ = try await store.read { Employee.query(in: $0).filter(.string(\.name, contains: "smith")).resolve() }
        #expect(backend.rowsReadCount - before == 3_000)
        try await store.close()
    }

    /// Inside a write, a filtered query of the whole type answers over storage and the write's
    /// own changes: `check` gets the query's ids and plain Swift's.
    static func checkWrite(_ store: Store) async throws {
        let employees = QueryPredicateTests.employees(200, seed: 9).map { employee -> Employee in
            var employee = employee
            employee.age = Int(employee.id.dropFirst())! % 2 == 0 ? 42 : 30
            return employee
        }
        try await store.write { context in for employee in employees { try employee.save(to: &context) } }
        let (found, expected) = try await store.write { context -> ([String], [String]) in
            try Employee.delete(id: "e0", from: &context)  // stored with age 42
            var moved = try context.find(Employee.self, id: "e2")  // 42 → 43
            moved.age = 43
            try moved.save(to: &context)
            var joined = try context.find(Employee.self, id: "e1")  // 30 → 42
            joined.age = 42
            try joined.save(to: &context)
            try Employee(id: "new", name: "New", age: 42, team: .web, email: nil, remote: true).save(to: &context)
            let found = Employee.query(in: context).filter(\.age == 42).sorted(by: \.id).resolve().map(\.id)
            let all = Employee.query(in: context).resolve()
            return (found, all.filter { $0.age == 42 }.map(\.id).sorted())
        }
        #expect(found == expected)
        #expect(found.contains("new") && found.contains("e1") && !found.contains("e0") && !found.contains("e2"))
        let after = try await store.read { Employee.query(in: $0).filter(\.age == 42).resolve().map(\.id).sorted() }
        #expect(after == expected, "and after the commit")
        try await store.close()
    }

    @Test("Inside a write, the write's own saves and erasures win over storage's answer", arguments: BackendKind.allCases)
    func ownChanges(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        try await Self.checkWrite(try await kind.open(harness.backend(), schema: EntitySchema(Employee.self)))
    }

    @Test("Inside a write on PostgreSQL, the write's own saves and erasures win over storage's answer")
    func ownChangesPostgres() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let backend = try await PostgresBackend.connect(url: url, configuration: .init(schema: PostgresStoreTests.schema()))
        try await Self.checkWrite(try await Store(backend: backend, schema: EntitySchema(Employee.self), followInterval: nil))
    }

    @Test("Rows whose properties are not in columns yet (an upgrade under way) are found too")
    func rowsNotUpgraded() async throws {
        typealias Reading = PropertyColumnTests.Reading
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let count = SQLiteSchema.upgradeBatch + 40
        let store = try await Store(path: path, entities: Reading.self)
        try await store.write { context in for i in 0..<count { try PropertyColumnTests.reading(i).save(to: &context) } }
        try await store.close()
        try await LegacyStoreFile.downgradeToVersion7(path)
        let half = try await SQLiteSchema.$upgradeBatchesBeforeStop.withValue(1) { try await Store(path: path, entities: Reading.self) }
        // Ids sort as text: r0, r1, r10, r100, …; the first batch moved the first 2,000 of them.
        for i in [0, 5, 999, count - 1, count - 2] {
            let found = try await half.read { Reading.query(in: $0).filter(\.count == -i).resolve().map(\.id) }
            #expect(found == ["r\(i)"], "r\(i)")
        }
        let ok = try await half.read { Reading.query(in: $0).filter(\.ok == true).resolve().count }
        #expect(ok == (0..<count).filter { $0 % 2 == 0 }.count)
        try await half.close()
    }
}
