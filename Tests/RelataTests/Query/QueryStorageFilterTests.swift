import Foundation
import GRDB
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

    /// A SQLite store of 3,000 employees in a new folder, and its backend (which counts the rows
    /// it reads).
    static func employeeStore() async throws -> (URL, [Employee], SQLiteBackend, Store) {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        let employees = QueryPredicateTests.employees(3_000, seed: 5)
        let backend = try SQLiteBackend(path: path)
        let store = try await Store(backend: backend, schema: EntitySchema(Employee.self), followInterval: nil)
        try await store.write { context in for employee in employees { try employee.save(to: &context) } }
        return (directory, employees, backend, store)
    }

    @Test("A predicate on a property reads the matching rows, not the whole type")
    func readsMatchingRows() async throws {
        let (directory, employees, backend, store) = try await Self.employeeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
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

    @Test("A predicate's storage test is made only where storage may run it: in a store's context or a deferred list, not in an in-memory Context")
    func storageTestsOnlyWhereStorageReads() async throws {
        let (directory, employees, _, store) = try await Self.employeeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        var memory = Context()
        for employee in employees.prefix(300) { try employee.save(to: &memory) }
        let inMemory = Employee.query(in: memory).filter(\.age == 42)
        #expect(inMemory.columnFilters.isEmpty)
        #expect(inMemory.resolve().map(\.id).sorted() == employees.prefix(300).filter { $0.age == 42 }.map(\.id).sorted())
        #expect(Employee.query().filter(\.age == 42).columnFilters.count == 1)
        #expect(try await store.read { Employee.query(in: $0).filter(\.age == 42).columnFilters.count } == 1)
        try await store.close()
    }

    @Test("A filtered query over the rows earlier reads kept, and in a copy saved outside a write: storage's matches and the copy's own saves")
    func keptRowsAndLocalSaves() async throws {
        let (directory, employees, _, store) = try await Self.employeeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A read holding every employee: the next contexts start from its rows.
        #expect(try await store.read { Employee.query(in: $0).resolve().count } == employees.count)
        let expected = employees.filter { $0.age == 42 }.map(\.id).sorted()
        #expect(try await store.read { Employee.query(in: $0).filter(\.age == 42).resolve().map(\.id).sorted() } == expected)
        // Outside a write: a copy saves one employee into the range and another out of it.
        var copy = store.context
        var moved = try #require(employees.first { $0.age != 42 }), away = try #require(employees.first { $0.age == 42 })
        (moved.age, away.age) = (42, 41)
        try moved.save(to: &copy)
        try away.save(to: &copy)
        let found = Employee.query(in: copy).filter(\.age == 42).resolve().map(\.id).sorted()
        #expect(found == (expected.filter { $0 != away.id } + [moved.id]).sorted())
        #expect(try await store.read { Employee.query(in: $0).filter(\.age == 42).resolve().map(\.id).sorted() } == expected, "storage is unchanged")
        try await store.close()
    }

    @Test("A filtered query's count is storage's: no entity is read, unless a row's column is NULL")
    func countsInStorage() async throws {
        let (directory, employees, backend, store) = try await Self.employeeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        func check(_ name: String, _ expected: Int, rowsRead: Int = 0, _ query: @escaping @Sendable (QueryList<Employee>) -> QueryList<Employee>) async throws {
            let before = backend.rowsReadCount
            let count = try await store.read { query(Employee.query(in: $0)).resolveCount() }
            #expect(count == expected, "\(name)")
            #expect(backend.rowsReadCount - before == rowsRead, "\(name): read \(backend.rowsReadCount - before) rows")
        }
        let web42 = employees.filter { $0.team == .web && $0.age >= 42 }.count
        #expect(web42 > 20)
        try await check("age == 42", employees.filter { $0.age == 42 }.count) { $0.filter(\.age == 42) }
        try await check("web, 42 or older", web42) { $0.filter(\.team == .web).and(\.age >= 42) }
        try await check("a page of them", 10) { $0.filter(\.team == .web).and(\.age >= 42).limit(10, offset: 5) }
        try await check("the last page", 3) { $0.filter(\.team == .web).and(\.age >= 42).limit(10, offset: web42 - 3) }
        try await check("past the end", 0) { $0.filter(\.team == .web).and(\.age >= 42).limit(10, offset: web42 + 1) }
        try await check("everyone", 3_000) { $0 }
        // Rows whose email is nil have a NULL column: read and tested in Swift.
        let withoutEmail = employees.filter { $0.email == nil }.count
        try await check("email", 1, rowsRead: withoutEmail) { $0.filter(\.email == "e77@example.com") }
        // A closure or a text test storage cannot run exactly: the query resolves (a text test
        // still selects the rows in SQL first).
        try await check("closure", employees.filter { $0.age % 2 == 0 }.count, rowsRead: 3_000) { $0.filter { $0.age % 2 == 0 } }
        let smiths = employees.filter { $0.name.contains("Smith") }.count
        try await check("contains", smiths, rowsRead: smiths) {
            $0.filter(.string(\.name, contains: "Smith", caseSensitive: true))
        }
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
            #expect(Employee.query(in: context).filter(\.age == 42).resolveCount() == found.count, "the count counts the write's changes")
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
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let count = SQLiteSchema.upgradeBatch + 40
        let half = try await Self.halfUpgraded(count, at: path)
        // Ids sort as text: r0, r1, r10, r100, …; the first batch moved the first 2,000 of them.
        for i in [0, 5, 999, count - 1, count - 2] {
            let found = try await half.read { Reading.query(in: $0).filter(\.count == -i).resolve().map(\.id) }
            #expect(found == ["r\(i)"], "r\(i)")
        }
        let ok = try await half.read { Reading.query(in: $0).filter(\.ok == true).resolve().count }
        #expect(ok == (0..<count).filter { $0 % 2 == 0 }.count)
        let counted = try await half.read { Reading.query(in: $0).filter(\.ok == true).resolveCount() }
        #expect(counted == ok, "storage counts the moved rows, Swift tests the others")
        try await half.close()
    }

    typealias Reading = PropertyColumnTests.Reading

    /// A store of `count` readings, turned back into format 7 and opened with its upgrade
    /// stopped after the first batch: the rows after it have their properties in the payload.
    static func halfUpgraded(_ count: Int, at path: String) async throws -> Store {
        let store = try await Store(path: path, entities: Reading.self)
        try await store.write { context in for i in 0..<count { try PropertyColumnTests.reading(i).save(to: &context) } }
        try await store.close()
        try await LegacyStoreFile.downgradeToVersion7(path)
        return try await SQLiteSchema.$upgradeBatchesBeforeStop.withValue(1) { try await Store(path: path, entities: Reading.self) }
    }

    /// A SQLite store of 3,000 readings in a new folder, and its backend (which counts the rows
    /// it reads).
    static func readingStore(followInterval: Duration?) async throws -> (URL, [Reading], SQLiteBackend, Store) {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        let readings = (0..<3_000).map(PropertyColumnTests.reading)
        let backend = try SQLiteBackend(path: path)
        let store = try await Store(backend: backend, schema: EntitySchema(Reading.self), followInterval: followInterval)
        try await store.write { context in for reading in readings { try reading.save(to: &context) } }
        return (directory, readings, backend, store)
    }

    @Test("A sorted, limited query reads the first rows in SQL's order, not every row that passes")
    func readsFirstRows() async throws {
        let (directory, readings, backend, store) = try await Self.readingStore(followInterval: nil)
        defer { try? FileManager.default.removeItem(at: directory) }
        func check(_ name: String, _ expected: [Reading], _ query: @escaping @Sendable (QueryList<Reading>) -> QueryList<Reading>) async throws {
            let before = backend.rowsReadCount
            let found = try await store.read { query(Reading.query(in: $0)).resolve().map(\.id) }
            #expect(found == expected.map(\.id), "\(name)")
            #expect(!found.isEmpty, "\(name) finds something")
            #expect(backend.rowsReadCount - before <= 20, "\(name): read \(backend.rowsReadCount - before) rows")
        }
        try await check("newest 5 after 3, even", Array(readings.filter(\.ok).sorted { $0.taken > $1.taken }.dropFirst(3).prefix(5))) {
            $0.filter(\.ok == true).sorted(by: \.taken.desc).limit(5, offset: 3)
        }
        try await check("smallest count", Array(readings.sorted { $0.count < $1.count }.prefix(4))) { $0.sorted(by: \.count).limit(4) }
        try await check("two keys", Array(readings.filter { $0.value > 100 }.sorted { ($0.count, $0.value) < ($1.count, $1.value) }.prefix(3))) {
            $0.filter(\.value > 100).sorted(by: \.count, \.value).limit(3)
        }
        // A text key: storage orders the rows whose text is ASCII (Swift orders text by
        // canonical equivalence, SQL by bytes: they agree there), here all of them.
        try await check("by id", ["r1000", "r1001"].map { readings[Int($0.dropFirst())!] }) {
            $0.filter(\.value > 100).sorted(by: \.id).limit(2)
        }
        var before = backend.rowsReadCount
        // A closure filter could drop storage's first rows: every row is read.
        before = backend.rowsReadCount
        let odd = try await store.read { Reading.query(in: $0).filter { $0.count % 2 != 0 }.sorted(by: \.count).limit(2).resolve().map(\.id) }
        #expect(odd == ["r2999", "r2997"])
        #expect(backend.rowsReadCount - before == 3_000)
        try await store.close()
    }

    /// Pages far down a filtered, sorted list in `store` (`readings` stored), each against plain
    /// Swift; `reads` (rows read so far), when given, shows only the page's rows were read.
    static func checkPagesAfterOffset(_ store: Store, _ readings: [Reading], reads: (() -> Int)? = nil) async throws {
        let newest = readings.filter(\.ok).sorted { ($0.taken, $0.id) > ($1.taken, $1.id) }
        for (count, offset) in [(5, 300), (20, 1_000), (10, 1_495), (10, 2_000)] {
            let before = reads?() ?? 0
            let found = try await store.read {
                Reading.query(in: $0).filter(\.ok == true).sorted(by: \.taken.desc).limit(count, offset: offset).resolve().map(\.id)
            }
            #expect(found == newest.dropFirst(offset).prefix(count).map(\.id), "\(count) after \(offset)")
            // Storage skips the offset: it tests every filter and orders by every key.
            if let reads { #expect(reads() - before == min(count, max(0, newest.count - offset)), "\(count) after \(offset): read \(reads() - before) rows") }
        }
        try await store.close()
    }

    @Test("A page after an offset, when storage tests every filter and orders by every key, reads the page's rows only")
    func pageAfterOffset() async throws {
        let (directory, readings, backend, store) = try await Self.readingStore(followInterval: nil)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.checkPagesAfterOffset(store, readings, reads: { backend.rowsReadCount })
    }

    @Test("On PostgreSQL too, a page after an offset is the rows SQL skips to")
    func pageAfterOffsetPostgres() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let backend = try await PostgresBackend.connect(url: url, configuration: .init(schema: PostgresStoreTests.schema()))
        let store = try await Store(backend: backend, schema: EntitySchema(Reading.self), followInterval: nil)
        let readings = (0..<3_000).map(PropertyColumnTests.reading)
        try await store.write { context in for reading in readings { try reading.save(to: &context) } }
        try await Self.checkPagesAfterOffset(store, readings)
    }

    @Test("A sorted, limited query asked again and again reads as few rows each time: the rows earlier reads kept do not add to it")
    func repeatedFirstRows() async throws {
        let (directory, readings, backend, store) = try await Self.readingStore(followInterval: .milliseconds(10))
        defer { try? FileManager.default.removeItem(at: directory) }
        let expected = Array(readings.filter(\.ok).sorted { $0.taken > $1.taken }.prefix(5)).map(\.id)
        var reads: [Int] = []
        for _ in 0..<30 {
            let before = backend.rowsReadCount
            let found = try await store.read { Reading.query(in: $0).filter(\.ok == true).sorted(by: \.taken.desc).limit(5).resolve().map(\.id) }
            reads.append(backend.rowsReadCount - before)
            #expect(found == expected)
        }
        // Each new context starts from what the last read kept (the same commit): those rows
        // are storage's own, so storage's first 5 still answer.
        #expect(reads.allSatisfy { $0 <= 5 }, "rows read by each of 30 reads: \(reads)")
        try await store.close()
    }

    /// Pages of employees sorted by name in `store` (names composed and decomposed: see
    /// `QueryPredicateTests.names`), each against plain Swift over `employees`.
    static func checkTextOrder(_ store: Store, _ employees: [Employee], reads: (() -> Int)? = nil) async throws {
        let older = employees.filter { $0.age >= 60 }
        // Text that is not ASCII comes whole, for Swift to order; the rest is ordered in SQL.
        let unordered = older.filter { !$0.name.utf8.allSatisfy { $0 < 0x80 } }.count
        for (count, offset) in [(10, 0), (10, 5), (25, 180)] {
            let before = reads?() ?? 0
            let found = try await store.read { Employee.query(in: $0).filter(\.age >= 60).sorted(by: \.name, \.id).limit(count, offset: offset).resolve() }
            let expected = older.sorted { ($0.name, $0.id) < ($1.name, $1.id) }.dropFirst(offset).prefix(count)
            #expect(found.map(\.id) == expected.map(\.id), "by name, \(count) from \(offset)")
            if let reads { #expect(reads() - before <= unordered + offset + count, "read \(reads() - before) rows of \(older.count) matches") }
        }
        let descending = try await store.read { Employee.query(in: $0).filter(\.age >= 60).sorted(by: \.name.desc).limit(5).resolve() }
        #expect(descending.map(\.name) == Array(older.map(\.name).sorted(by: >).prefix(5)), "by name, descending")
        try await store.close()
    }

    @Test("A sort by text reads the first rows in SQL where the text is ASCII; the rest come whole and sort as Swift sorts them")
    func textOrder() async throws {
        let (directory, employees, backend, store) = try await Self.employeeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.checkTextOrder(store, employees, reads: { backend.rowsReadCount })
    }

    @Test("On PostgreSQL, a sort by text orders the ASCII rows in SQL and the rest in Swift, as plain Swift does")
    func textOrderPostgres() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let backend = try await PostgresBackend.connect(url: url, configuration: .init(schema: PostgresStoreTests.schema()))
        let store = try await Store(backend: backend, schema: EntitySchema(Employee.self), followInterval: nil)
        let employees = QueryPredicateTests.employees(600, seed: 5)
        try await store.write { context in for employee in employees { try employee.save(to: &context) } }
        try await Self.checkTextOrder(store, employees)
    }

    /// Inside a write, a sorted, limited query answers over storage and the write's own changes:
    /// erased first rows, a row moved in front, new rows.
    static func checkFirstRowsInWrite(_ store: Store) async throws {
        try await store.write { context in for i in 0..<300 { try PropertyColumnTests.reading(i).save(to: &context) } }
        let (found, expected) = try await store.write { context -> ([String], [String]) in
            for id in ["r298", "r296", "r294", "r10"] { try Reading.delete(id: id, from: &context) }
            var moved = try context.find(Reading.self, id: "r4")
            moved.taken = Date(timeIntervalSinceReferenceDate: 1e9)
            try moved.save(to: &context)
            var later = PropertyColumnTests.reading(1_000)
            later.ok = true
            try later.save(to: &context)
            let found = Reading.query(in: context).filter(\.ok == true).sorted(by: \.taken.desc).limit(6, offset: 1).resolve().map(\.id)
            let all = Reading.query(in: context).resolve().filter(\.ok).sorted { $0.taken > $1.taken }
            return (found, Array(all.dropFirst(1).prefix(6)).map(\.id))
        }
        #expect(found == expected)
        #expect(expected.first == "r1000" && !expected.contains("r4"), "r4 (moved in front) is skipped by the offset; \(expected)")
        try await store.close()
    }

    @Test("Inside a write, a sorted, limited query counts the write's own saves and erasures", arguments: BackendKind.allCases)
    func firstRowsInWrite(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        try await Self.checkFirstRowsInWrite(try await kind.open(harness.backend(), schema: EntitySchema(Reading.self)))
    }

    @Test("Inside a write on PostgreSQL, a sorted, limited query counts the write's own saves and erasures")
    func firstRowsInWritePostgres() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let backend = try await PostgresBackend.connect(url: url, configuration: .init(schema: PostgresStoreTests.schema()))
        try await Self.checkFirstRowsInWrite(try await Store(backend: backend, schema: EntitySchema(Reading.self), followInterval: nil))
    }

    @Test("A sorted, limited query finds the rows an upgrade under way has not moved into columns yet")
    func firstRowsNotUpgraded() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let half = try await Self.halfUpgraded(SQLiteSchema.upgradeBatch + 40, at: path)
        let expected = (990..<995).map { "r\($0)" }
        let found = try await half.read { Reading.query(in: $0).filter(\.count <= -990).sorted(by: \.count.desc).limit(5).resolve().map(\.id) }
        #expect(found == expected)
        try await half.close()
        // The test means something only if some of those rows were not moved.
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let unmoved = try await queue.read { db -> Set<String> in
            let type = EntitySchema.storageName(of: Reading.self)
            let table = try #require(try LegacyStoreFile.entityTable(db, type))
            let column = try #require(try Int64.fetchOne(db, sql: "SELECT number FROM relata_table WHERE type = ? AND relation = 'count'", arguments: [type]))
            return Set(try String.fetchAll(db, sql: "SELECT id FROM \(table) WHERE c\(column) IS NULL"))
        }
        #expect(!unmoved.isDisjoint(with: expected), "some expected rows are not in columns yet")
    }
}
