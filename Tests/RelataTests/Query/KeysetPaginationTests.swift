import Foundation
import Relata
@testable import RelataCore
@testable import RelataSQLite
import Testing

/// `limit(_:after:)`: pages that follow the last entity of the page before, ties of the sort broken by
/// id, answered as plain Swift does in memory and in a store (where storage reads the page's rows
/// from the last value on, not the whole type), and that do not shift when entities are stored
/// before them.
@Suite("Queries: keyset pagination")
struct KeysetPaginationTests {
    typealias Employee = QueryPredicateTests.Employee

    /// One way to sort and filter, and the order plain Swift gives (ties by id).
    struct Ordering: Sendable, CustomStringConvertible {
        var description: String
        var query: @Sendable (QueryList<Employee>) -> QueryList<Employee>
        var precedes: @Sendable (Employee, Employee) -> Bool
        var isIncluded: @Sendable (Employee) -> Bool = { _ in true }
    }

    static func byKey<T: Comparable>(_ key: @escaping @Sendable (Employee) -> T, descending: Bool = false) -> @Sendable (Employee, Employee) -> Bool {
        { a, b in
            let (x, y) = (key(a), key(b))
            if x != y { return descending ? x > y : x < y }
            return a.id < b.id
        }
    }

    static let orderings: [Ordering] = [
        Ordering(description: "age (indexed)", query: { $0.sorted(by: \.age) }, precedes: byKey(\.age)),
        Ordering(description: "age.desc", query: { $0.sorted(by: \.age.desc) }, precedes: byKey(\.age, descending: true)),
        Ordering(description: "age, descending", query: { $0.sorted(by: \.age, ascending: false) }, precedes: byKey(\.age, descending: true)),
        Ordering(description: "name (text: sorted in Swift)", query: { $0.sorted(by: \.name) }, precedes: byKey(\.name)),
        Ordering(description: "age, then name", query: { $0.sorted(by: \.age, \.name) }, precedes: { a, b in (a.age, a.name, a.id) < (b.age, b.name, b.id) }),
        Ordering(description: "no sort: by id", query: { $0 }, precedes: { $0.id < $1.id }),
        Ordering(
            description: "web team, age", query: { $0.filter(\.team == .web).sorted(by: \.age) }, precedes: byKey(\.age),
            isIncluded: { $0.team == .web }
        ),
    ]

    /// Every page of `size` of `ordering` in `read`, each after the last entity of the one before.
    static func pages(_ ordering: Ordering, size: Int, read: (QueryList<Employee>) throws -> [Employee]) rethrows -> [[Employee]] {
        var pages: [[Employee]] = []
        var last: Employee?
        while true {
            let page = try read(ordering.query(Employee.query()).limit(size, after: last))
            guard !page.isEmpty else { return pages }
            pages.append(page)
            last = page.last
            if pages.count > 10_000 { return pages }
        }
    }

    static func expected(_ ordering: Ordering, _ employees: [Employee]) -> [Employee] {
        employees.filter(ordering.isIncluded).sorted(by: ordering.precedes)
    }

    @Test("In a context: the pages cover every entity once, in the sort's order with ties by id", arguments: orderings)
    func inMemory(ordering: Ordering) throws {
        let employees = QueryPredicateTests.employees(400, seed: 11)
        var context = Context()
        for employee in employees { try employee.save(to: &context) }
        let pages = Self.pages(ordering, size: 7) { $0.resolve(in: context) }
        #expect(pages.dropLast().allSatisfy { $0.count == 7 })
        #expect(pages.joined().map(\.id) == Self.expected(ordering, employees).map(\.id))
    }

    @Test("A page after an entity does not shift when entities are stored before it")
    func insertsBeforeDoNotShift() throws {
        var context = Context()
        for employee in QueryPredicateTests.employees(200, seed: 3) { try employee.save(to: &context) }
        let first = Employee.query().sorted(by: \.age).limit(10, after: nil).resolve(in: context)
        let second = Employee.query().sorted(by: \.age).limit(10, after: first.last).resolve(in: context)
        try Employee(id: "new", name: "New", age: 18, team: .ops, email: nil, remote: false).save(to: &context)
        #expect(Employee.query().sorted(by: \.age).limit(10, after: first.last).resolve(in: context).map(\.id) == second.map(\.id))
        // An offset does shift.
        #expect(Employee.query().sorted(by: \.age).limit(10, offset: 10).resolve(in: context).map(\.id) != second.map(\.id))
    }

    @Test("In a store: the same pages, storage reading each page's rows from the last value on", arguments: BackendKind.allCases)
    func inStore(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        // The in-memory backend reads and decodes the whole type for each page (it tests no
        // column), so it pages a smaller list.
        let employees = QueryPredicateTests.employees(kind == .memory ? 600 : 3_000, seed: 5)
        let backend = try harness.backend()
        let store = try await Store(backend: backend, schema: EntitySchema(Employee.self), followInterval: nil)
        try await store.write { context in for employee in employees { try employee.save(to: &context) } }
        for ordering in Self.orderings where ordering.description != "name (text: sorted in Swift)" {
            let pages = try await Self.pages(ordering, size: 50) { list in try store.read { list.resolve(in: $0) } }
            #expect(pages.joined().map(\.id) == Self.expected(ordering, employees).map(\.id), "\(ordering)")
        }
        if let sqlite = backend as? SQLiteBackend {
            // A page deep in the list reads its rows and the ties at the last value, not the rest.
            let sorted = Self.expected(Self.orderings[0], employees)
            let last = sorted[2_000]
            let ties = employees.count { $0.age == last.age }
            let before = sqlite.rowsReadCount
            let page = try await store.read { Employee.query(in: $0).sorted(by: \.age).limit(20, after: last).resolve() }
            #expect(page.map(\.id) == sorted[2_001..<2_021].map(\.id))
            #expect(sqlite.rowsReadCount - before <= 20 + ties, "read \(sqlite.rowsReadCount - before) rows for a page of 20 (\(ties) ties)")
        }
        // Inside a write, with its own unsaved saves and erasures.
        let inWrite = try await store.write { context -> ([String], [String]) in
            try Employee(id: "w1", name: "W", age: 30, team: .web, email: nil, remote: true).save(to: &context)
            try Employee(id: "e10", name: "Moved", age: 31, team: .web, email: nil, remote: true).save(to: &context)
            try Employee(id: "e11", name: "", age: 0, team: .web, email: nil, remote: true).delete(from: &context)
            let all = Employee.query(in: context).resolve()
            let expected = all.sorted(by: Self.byKey(\.age)).filter { ($0.age, $0.id) > (29, "e999") }.prefix(30).map(\.id)
            let anchor = Employee(id: "e999", name: "", age: 29, team: .web, email: nil, remote: false)
            return (Employee.query(in: context).sorted(by: \.age).limit(30, after: anchor).resolve().map(\.id), Array(expected))
        }
        #expect(inWrite.0 == inWrite.1)
        try await store.close()
    }
}
