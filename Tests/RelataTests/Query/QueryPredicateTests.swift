import Foundation
import Relata
import RelataPostgres
import Testing

/// SwiftletModel's filter, sort and limit vocabulary: `filter(\.age > 18)`, `.and(…)`,
/// `.string(\.name, contains:)`, `sorted(by: \.age.desc, \.name)`, `limit(_:offset:)` — the same
/// answers as plain Swift over the same entities, in a context and in a store's context on
/// every backend.
@Suite("Queries: predicates, sorting and limits")
struct QueryPredicateTests {
    @EntityModel
    struct Employee: Codable, Equatable {
        enum Team: String, Codable { case core, web, ops }
        // Kept in memory by a context and as SQL indexes by a store: the random queries below
        // run through them.
        @Index<Self>(\.age) private var ageIndex
        @HashIndex<Self>(\.team) private var teamIndex
        @HashIndex<Self>(\.email) private var emailIndex

        let id: String
        var name: String
        var age: Int
        var team: Team
        var email: String?
        var remote: Bool
    }

    // "Éva" twice, composed and decomposed: one name to Swift, two byte strings to SQL; "Áda"
    // decomposed sorts after every ASCII name in Swift, among the first in bytes.
    static let names = ["Ann", "bob", "Cleo", "dan", "Éva", "E\u{301}va", "A\u{301}da", "ann-marie", "Bo", "zed"]

    static func employees(_ count: Int, seed: UInt64) -> [Employee] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { i in
            Employee(
                id: "e\(i)", name: names.randomElement(using: &random)! + (Bool.random(using: &random) ? "" : " Smith"),
                age: Int.random(in: 18...70, using: &random), team: [.core, .web, .ops].randomElement(using: &random)!,
                email: Bool.random(using: &random) ? "e\(i)@example.com" : nil, remote: Bool.random(using: &random)
            )
        }
    }

    /// One random query and the answer plain Swift gives for it.
    struct Case: CustomStringConvertible, Sendable {
        var description: String
        var query: @Sendable (QueryList<Employee>) -> QueryList<Employee>
        var expected: @Sendable ([Employee]) -> [Employee]
        /// What is compared of each result: its id, or the sort key when the sort leaves ties
        /// in no order.
        var projection: @Sendable (Employee) -> String = { $0.id }
    }

    static func randomCase(_ random: inout SeededGenerator) -> Case {
        var description: [String] = []
        var query: @Sendable (QueryList<Employee>) -> QueryList<Employee> = { $0 }
        var expected: @Sendable ([Employee]) -> [Employee] = { $0 }
        func add(
            _ text: String, _ q: @escaping @Sendable (QueryList<Employee>) -> QueryList<Employee>,
            _ e: @escaping @Sendable ([Employee]) -> [Employee]
        ) {
            description.append(text)
            let (q0, e0) = (query, expected)
            query = { q(q0($0)) }
            expected = { e(e0($0)) }
        }
        let age = Int.random(in: 15...75, using: &random)
        switch Int.random(in: 0..<6, using: &random) {
        case 0: add("age > \(age)", { $0.filter(\.age > age) }, { $0.filter { $0.age > age } })
        case 1: add("age <= \(age)", { $0.filter(\.age <= age) }, { $0.filter { $0.age <= age } })
        case 2: add("age == \(age)", { $0.filter(\.age == age) }, { $0.filter { $0.age == age } })
        case 3: add("team == web", { $0.filter(\.team == .web) }, { $0.filter { $0.team == .web } })
        case 4: add("remote == true", { $0.filter(\.remote == true) }, { $0.filter { $0.remote } })
        default: break
        }
        let word = ["an", "AN", "bo", "Smith", "é", "e", "zz"].randomElement(using: &random)!
        let caseSensitive = Bool.random(using: &random)
        let folded: @Sendable (String) -> String = { [caseSensitive] s in caseSensitive ? s : s.lowercased() }
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            add("name contains \(word) cs=\(caseSensitive)", { $0.and(.string(\.name, contains: word, caseSensitive: caseSensitive)) },
                { $0.filter { folded($0.name).contains(folded(word)) } })
        case 1:
            add("name hasPrefix \(word) cs=\(caseSensitive)", { $0.and(.string(\.name, hasPrefix: word, caseSensitive: caseSensitive)) },
                { $0.filter { folded($0.name).hasPrefix(folded(word)) } })
        case 2:
            add("name notHavingSuffix \(word) cs=\(caseSensitive)", { $0.filter(.string(\.name, notHavingSuffix: word, caseSensitive: caseSensitive)) },
                { $0.filter { !folded($0.name).hasSuffix(folded(word)) } })
        case 4:
            let pattern = ["smithy", "Anne", "bob!", "x", "Évan", "dan-ann"].randomElement(using: &random)!
            add("name matches \(pattern)", { $0.filter(.string(\.name, matches: pattern)) }, {
                $0.filter { SwiftletModelOracles.matches($0.name, fuzzy: pattern) }
            })
        case 3:
            add("team != core", { $0.and(\.team != .core) }, { $0.filter { $0.team != .core } })
        default: break
        }
        // Sorts end with the id, so the expected order is one order.
        var projection: @Sendable (Employee) -> String = { $0.id }
        // The expected order, ties by id (as `limit(_:after:)` orders them).
        let precedes: @Sendable (Employee, Employee) -> Bool
        switch Int.random(in: 0..<6, using: &random) {
        case 5:
            precedes = { ($0.name, $0.id) < ($1.name, $1.id) }
            add("by name, id", { $0.sorted(by: \.name, \.id) }, { $0.sorted(by: precedes) })
        case 0:
            precedes = { ($0.age, $0.id) < ($1.age, $1.id) }
            add("by age, id", { $0.sorted(by: \.age, \.id) }, { $0.sorted(by: precedes) })
        case 1:
            precedes = { ($1.age, $0.name, $0.id) < ($0.age, $1.name, $1.id) }
            add("by age desc, name, id", { $0.sorted(by: \.age.desc, \.name, \.id) }, { $0.sorted(by: precedes) })
        case 2:
            precedes = { ($0.team.rawValue, $1.age, $0.name, $0.id) < ($1.team.rawValue, $0.age, $1.name, $1.id) }
            add("by team raw, age desc, name, id", { $0.sorted(by: \.team.rawValue, \.age.desc, \.name, \.id) }, { $0.sorted(by: precedes) })
        case 3:
            precedes = { $0.id < $1.id }
            add("by id", { $0.sorted(by: \.id) }, { $0.sorted(by: precedes) })
        default:
            // One key, ties in no order (an index in memory may give the first results): the
            // ages are compared, not the ids — unless a keyset page orders ties by id.
            precedes = { ($1.age, $0.id) < ($0.age, $1.id) }
            add("by age desc", { $0.sorted(by: \.age.desc) }, { $0.sorted(by: precedes) })
            projection = { "\($0.age)" }
        }
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            let count = Int.random(in: 0...12, using: &random), offset = Int.random(in: 0...30, using: &random)
            add("limit \(count) offset \(offset)", { $0.limit(count, offset: offset) }, { Array($0.dropFirst(offset).prefix(count)) })
        case 1:
            // A keyset page after an employee that may be stored or not, with any values.
            let count = Int.random(in: 0...12, using: &random)
            let seed = random.next(), number = Int.random(in: 0..<150, using: &random)
            let made = Self.employees(1, seed: seed)[0]
            let anchor = Employee(id: "e\(number)", name: made.name, age: made.age, team: made.team, email: nil, remote: made.remote)
            let isFirst = Int.random(in: 0..<4, using: &random) == 0
            add(isFirst ? "limit \(count) after nil" : "limit \(count) after \(anchor.id) (age \(anchor.age), \(anchor.name))", {
                $0.limit(count, after: isFirst ? nil : anchor)
            }, { sorted in
                Array(sorted.filter { isFirst || precedes(anchor, $0) }.prefix(count))
            })
            projection = { $0.id }
        default: break
        }
        return Case(description: description.joined(separator: ", "), query: query, expected: expected, projection: projection)
    }

    @Test("Key path operators make the predicates SwiftletModel's do; a sort by a Descending key is reversed")
    func vocabulary() throws {
        var context = Context()
        for employee in Self.employees(40, seed: 7) { try employee.save(to: &context) }
        let all = Employee.query(in: context).resolve()
        let adults = Employee.query(in: context).filter(\.age >= 30).and(\.team == .web).sorted(by: \.age.desc).resolve()
        #expect(adults.map(\.id) == all.filter { $0.age >= 30 && $0.team == .web }.sorted { $0.age > $1.age }.map(\.id))
        #expect(!adults.isEmpty)
        let anns = Employee.query(in: context).filter(.string(\.name, hasPrefix: "ANN")).resolve()
        #expect(Set(anns.map(\.id)) == Set(all.filter { $0.name.lowercased().hasPrefix("ann") }.map(\.id)))
        #expect(Employee.query(in: context).limit(-3, offset: -1).resolve().isEmpty, "a negative count keeps nothing")
        let smiths = Employee.query(in: context).filter(.string(\.name, matches: "blacksmith")).resolve()
        #expect(!smiths.isEmpty && smiths.allSatisfy { $0.name.hasSuffix("Smith") }, "mit, ith: trigrams of the pattern")
        #expect(Employee.query(in: context).filter(.string(\.name, matches: "Bo")).resolve().isEmpty, "no trigram, no match")
        #expect(Employee.query(in: context).sorted(by: \.id).limit(5, offset: 38).resolve().count == 2)
    }

    @Test("Random filters, sorts and pages answer as plain Swift does: in a context and in a store on every backend", arguments: BackendKind.allCases)
    func differential(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await kind.open(harness.backend(), schema: EntitySchema(Employee.self))
        try await Self.compare(store, "\(kind)")
    }

    @Test("Random filters, sorts and pages answer as plain Swift does: in a store on PostgreSQL")
    func differentialPostgres() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let backend = try await PostgresBackend.connect(url: url, configuration: .init(schema: PostgresStoreTests.schema()))
        let store = try await Store(backend: backend, schema: EntitySchema(Employee.self), followInterval: nil)
        try await Self.compare(store, "PostgreSQL")
    }

    /// Random queries over the same employees in a context and in `store`, each against plain Swift.
    /// Over random states: between the queries, employees are saved anew, added and erased.
    static func compare(_ store: Store, _ backend: String) async throws {
        var employees = Self.employees(120, seed: 11)
        var context = Context()
        for employee in employees { try employee.save(to: &context) }
        try context.checkInvariants()
        try await store.write { [employees] context in for employee in employees { try employee.save(to: &context) } }
        var random = SeededGenerator(seed: 3)
        for round in 0..<SeededGenerator.rounds(normal: 150, long: 3_000) {
            if round > 0, Int.random(in: 0..<3, using: &random) == 0 {
                let changed = Self.randomChange(&employees, &random)
                try changed.apply(&context)
                try await store.write { try changed.apply(&$0) }
                if round % 10 == 0 { try context.checkInvariants() }
            }
            let test = Self.randomCase(&random)
            let expected = test.expected(employees).map(test.projection)
            #expect(test.query(Employee.query(in: context)).resolve().map(test.projection) == expected, "in a context: \(test)")
            let stored = try await store.read { test.query(Employee.query(in: $0)).resolve().map(test.projection) }
            #expect(stored == expected, "in a store on \(backend): \(test)")
            #expect(test.query(Employee.query(in: context)).resolveCount() == expected.count, "count in a context: \(test)")
            let count = try await store.read { test.query(Employee.query(in: $0)).resolveCount() }
            #expect(count == expected.count, "count in a store on \(backend): \(test)")
        }
        try await store.close()
    }

    /// A change of the state: some employees saved with new values (or added), some erased.
    struct Change: Sendable {
        var saved: [Employee]
        var erased: [String]

        func apply(_ context: inout Context) throws {
            for employee in saved { try employee.save(to: &context) }
            for id in erased { try Employee.delete(id: id, from: &context) }
        }
    }

    /// A random change of `employees`, made to the array too.
    static func randomChange(_ employees: inout [Employee], _ random: inout SeededGenerator) -> Change {
        var change = Change(saved: [], erased: [])
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let i = Int.random(in: 0..<150, using: &random)
            if Bool.random(using: &random), let at = employees.firstIndex(where: { $0.id == "e\(i)" }) {
                employees.remove(at: at)
                change.saved.removeAll { $0.id == "e\(i)" }
                change.erased.append("e\(i)")
            } else {
                var employee = Self.employees(1, seed: random.next())[0]
                employee = Employee(
                    id: "e\(i)", name: employee.name, age: employee.age, team: employee.team,
                    email: employee.email.map { _ in "e\(i)@example.com" }, remote: employee.remote
                )
                employees.removeAll { $0.id == employee.id }
                employees.append(employee)
                change.erased.removeAll { $0 == employee.id }
                change.saved.append(employee)
            }
        }
        return change
    }
}
