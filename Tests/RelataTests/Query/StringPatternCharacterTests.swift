import Foundation
import Relata
import RelataPostgres
import RelataSQLite
import Testing

/// A text filter matches its text literally on every backend: `%`, `_` and `\`, which are
/// wildcards and the escape character of SQL's `LIKE`, match only themselves.
@Suite("Queries: text filters match %, _ and \\ literally")
struct StringPatternCharacterTests {
    typealias Employee = QueryPredicateTests.Employee

    static let names = ["50% off", "500 off", "5 off", "a_b", "axb", "ab", "a\\b", "a\\\\b", "_lead", "xlead", "trail%", "trailx", "%", "_", "\\", "plain"]
    static let patterns = ["%", "_", "\\", "0%", "0% o", "a_", "_b", "a\\b", "\\b", "a\\", "%off", "x", ""]

    static var employees: [Employee] {
        names.enumerated().map { i, name in
            Employee(id: "e\(i)", name: name, age: 20 + i, team: .core, email: nil, remote: false)
        }
    }

    /// Every pattern as `contains`, `hasPrefix` and `hasSuffix`, read through `read`, against
    /// plain Swift.
    static func check(_ backend: String, _ read: (@escaping @Sendable (Context) -> [String]) async throws -> [String]) async throws {
        for pattern in patterns {
            let cases: [(String, @Sendable (QueryList<Employee>) -> QueryList<Employee>, (String) -> Bool)] = [
                ("contains", { $0.filter(.string(\.name, contains: pattern, caseSensitive: true)) }, { $0.contains(pattern) }),
                ("hasPrefix", { $0.filter(.string(\.name, hasPrefix: pattern, caseSensitive: true)) }, { $0.hasPrefix(pattern) }),
                ("hasSuffix", { $0.filter(.string(\.name, hasSuffix: pattern, caseSensitive: true)) }, { $0.hasSuffix(pattern) }),
            ]
            for (test, query, expected) in cases {
                let found = try await read { query(Employee.query(in: $0)).sorted(by: \.id).resolve().map(\.name) }
                let names = employees.sorted { $0.id < $1.id }.map(\.name).filter(expected)
                #expect(found == names, "\(backend): \(test) \"\(pattern)\"")
            }
        }
    }

    @Test("In a context and in a SQLite store, %, _ and \\ match only themselves")
    func memoryAndSQLite() async throws {
        var context = Context()
        for employee in Self.employees { try employee.save(to: &context) }
        try await Self.check("in memory") { [context] query in query(context) }
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Store(backend: SQLiteBackend(path: path), schema: EntitySchema(Employee.self), followInterval: nil)
        try await store.write { context in for employee in Self.employees { try employee.save(to: &context) } }
        try await Self.check("SQLite") { query in try await store.read(query) }
        try await store.close()
    }

    @Test("On PostgreSQL, %, _ and \\ match only themselves")
    func postgres() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let backend = try await PostgresBackend.connect(url: url, configuration: .init(schema: PostgresStoreTests.schema()))
        let store = try await Store(backend: backend, schema: EntitySchema(Employee.self), followInterval: nil)
        try await store.write { context in for employee in Self.employees { try employee.save(to: &context) } }
        try await Self.check("PostgreSQL") { query in try await store.read(query) }
        try await store.close()
    }
}
