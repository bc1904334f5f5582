import Foundation
import Relata
@testable import RelataSQLite
import Testing

/// A sorted, limited query over SQLite finds its page and the rows SQL cannot order (a text key
/// not ASCII, a column NULL) in one scan while those are few; once they outnumber the scan's
/// window, it reads them in a scan of their own, for that query from then on. Either way, the
/// answer is plain Swift's.
@Suite("Queries: a sorted page and its loose rows in one scan")
struct FirstRowsOneScanTests {
    typealias Employee = QueryPredicateTests.Employee

    static let ascii = ["Ann", "bob", "Cleo", "dan", "ann-marie", "Bo", "zed"]
    static let composed = ["Éva", "E\u{301}va", "A\u{301}da", "Ærø"]

    /// `count` employees with ASCII names, but `loose` of them (spread out) composed or
    /// decomposed; some without an e-mail.
    static func employees(_ count: Int, loose: Int, from start: Int = 0, seed: UInt64) -> [Employee] {
        var random = SeededGenerator(seed: seed)
        return (start..<start + count).map { i in
            let names = (i - start) % max(1, count / max(1, loose)) == 0 && (i - start) / max(1, count / max(1, loose)) < loose ? composed : ascii
            return Employee(
                id: "e\(i)", name: names.randomElement(using: &random)! + (Bool.random(using: &random) ? "" : " Smith"),
                age: Int.random(in: 18...70, using: &random), team: [.core, .web, .ops].randomElement(using: &random)!,
                email: Bool.random(using: &random) ? "e\(i)@example.com" : nil, remote: Bool.random(using: &random)
            )
        }
    }

    /// Sorted queries by text — with an indexed filter (`age`, `team`), with one no index serves
    /// (`remote`), without a filter; ascending and descending — each page against plain Swift
    /// over `employees`.
    static func checkPages(_ store: Store, _ employees: [Employee], _ comment: String) async throws {
        typealias Query = @Sendable (QueryList<Employee>) -> QueryList<Employee>
        let queries: [(String, Query, (Employee) -> Bool, (Employee, Employee) -> Bool)] = [
            ("aged 60 or more, by name", { $0.filter(\.age >= 60).sorted(by: \.name, \.id) }, { $0.age >= 60 }, { ($0.name, $0.id) < ($1.name, $1.id) }),
            ("of the web team, by name, descending", { $0.filter(\.team == .web).sorted(by: \.name.desc, \.id) }, { $0.team == .web }, {
                $0.name != $1.name ? $0.name > $1.name : $0.id < $1.id
            }),
            ("remote, by name", { $0.filter(\.remote == true).sorted(by: \.name, \.id) }, { $0.remote }, { ($0.name, $0.id) < ($1.name, $1.id) }),
            ("everyone, by name", { $0.sorted(by: \.name, \.id) }, { _ in true }, { ($0.name, $0.id) < ($1.name, $1.id) }),
        ]
        for (name, query, isIncluded, areInIncreasingOrder) in queries {
            let all = employees.filter(isIncluded).sorted(by: areInIncreasingOrder)
            for (count, offset) in [(10, 0), (10, 5), (25, 100), (5, all.count - 2), (5, all.count + 10)] {
                let found = try await store.read { query(Employee.query(in: $0)).limit(count, offset: offset).resolve().map(\.id) }
                #expect(found == all.dropFirst(offset).prefix(count).map(\.id), "\(comment): \(name), \(count) after \(offset)")
            }
        }
    }

    @Test("Few rows SQL cannot order: each page is one scan, as plain Swift orders it; many: a scan of their own, the same answers")
    func fewThenMany() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let backend = try SQLiteBackend(path: path)
        let store = try await Store(backend: backend, schema: EntitySchema(Employee.self), followInterval: nil)
        var employees = Self.employees(1_500, loose: 12, seed: 11)
        try await store.write { [employees] context in for employee in employees { try employee.save(to: &context) } }
        try await Self.checkPages(store, employees, "12 loose")
        // Every page above was one scan: no query needed a scan of its loose rows.
        #expect(backend.manyLooseRows.withLock { $0 }.isEmpty)

        // Now 300 of the older employees have names SQL cannot order, more than one scan keeps.
        let more = Self.employees(300, loose: 300, from: 1_500, seed: 12).map { employee in
            var employee = employee
            employee.age = 60 + employee.age % 11
            return employee
        }
        employees += more
        try await store.write { context in for employee in more { try employee.save(to: &context) } }
        try await Self.checkPages(store, employees, "312 loose")
        #expect(!backend.manyLooseRows.withLock { $0 }.isEmpty, "the loose rows of a query outnumbered the window")
        try await store.close()
    }

    @Test("A page without a limit, or with an offset past any count, pages as plain Swift does")
    func unboundedPages() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Store(backend: SQLiteBackend(path: path), schema: EntitySchema(Employee.self), followInterval: nil)
        let employees = Self.employees(400, loose: 6, seed: 13)
        try await store.write { context in for employee in employees { try employee.save(to: &context) } }
        let older = employees.filter { $0.age >= 40 }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
        var context = Context()
        for employee in employees { try employee.save(to: &context) }
        for (count, offset) in [(Int.max, 0), (Int.max, 7), (Int.max, Int.max), (3, Int.max)] {
            let query: @Sendable (Context) -> [String] = {
                Employee.query(in: $0).filter(\.age >= 40).sorted(by: \.name, \.id).limit(count, offset: offset).resolve().map(\.id)
            }
            let expected = older.dropFirst(offset).prefix(count).map(\.id)
            #expect(try await store.read(query) == expected, "in the store: \(count) after \(offset)")
            #expect(query(context) == expected, "in memory: \(count) after \(offset)")
        }
        try await store.close()
    }
}
