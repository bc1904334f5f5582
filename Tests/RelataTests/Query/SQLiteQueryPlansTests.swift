import Foundation
import Relata
@testable import RelataSQLite
import Testing

/// The SQL of a query by value is built once per shape and kept by the SQLite backend
/// (`SQLiteQueryPlans`): the same shape with other values answers as plain Swift does, and a
/// catalog that gained an entry plans the shape anew.
@Suite("Queries: the SQL of a query shape is kept, its values bound anew")
struct SQLiteQueryPlansTests {
    typealias Employee = QueryPredicateTests.Employee

    @Test("One shape, many values: each answer is plain Swift's, from one plan per shape")
    func oneShapeManyValues() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let backend = try SQLiteBackend(path: path)
        let store = try await Store(backend: backend, schema: EntitySchema(Employee.self, Tag.self), followInterval: nil)
        let employees = QueryPredicateTests.employees(400, seed: 5)
        try await store.write { context in for employee in employees { try employee.save(to: &context) } }
        for age in stride(from: 18, through: 70, by: 4) {
            let older = try await store.read { Employee.query(in: $0).filter(\.age >= age).sorted(by: \.age, \.id).limit(7, offset: 3).resolve().map(\.id) }
            let expected = employees.filter { $0.age >= age }.sorted { ($0.age, $0.id) < ($1.age, $1.id) }.dropFirst(3).prefix(7).map(\.id)
            #expect(older == expected, "aged \(age) or more, by age")
            let exactly = try await store.read { Employee.query(in: $0).filter(\.age == age).and(\.remote == true).resolve().map(\.id).sorted() }
            #expect(exactly == employees.filter { $0.age == age && $0.remote }.map(\.id).sorted(), "aged \(age), remote")
        }
        // Two shapes: a first-rows query in order and a filtered page.
        #expect(backend.queryPlans.count == 2)

        // A new type gives the catalog new entries: the same shapes are planned anew.
        try await store.write { context in try Tag(id: "t1").save(to: &context) }
        let older = try await store.read { Employee.query(in: $0).filter(\.age >= 50).sorted(by: \.age, \.id).limit(7, offset: 3).resolve().map(\.id) }
        #expect(older == employees.filter { $0.age >= 50 }.sorted { ($0.age, $0.id) < ($1.age, $1.id) }.dropFirst(3).prefix(7).map(\.id))
        #expect(backend.queryPlans.count == 3)
        try await store.close()
    }

    @Test("An empty text is bound as text, not NULL: a filter for it finds the entities holding it")
    func emptyText() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Store(backend: SQLiteBackend(path: path), schema: EntitySchema(Employee.self), followInterval: nil)
        var employees = QueryPredicateTests.employees(60, seed: 9)
        for index in stride(from: 0, to: employees.count, by: 7) { employees[index].name = "" }
        try await store.write { [employees] context in for employee in employees { try employee.save(to: &context) } }
        let unnamed = try await store.read { Employee.query(in: $0).filter(\.name == "").resolve().map(\.id).sorted() }
        #expect(unnamed == employees.filter { $0.name.isEmpty }.map(\.id).sorted())
        #expect(!unnamed.isEmpty)
        let named = try await store.read { Employee.query(in: $0).filter(\.name != "").sorted(by: \.name, \.id).limit(5).resolve().map(\.id) }
        #expect(named == employees.filter { !$0.name.isEmpty }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }.prefix(5).map(\.id))
        try await store.close()
    }
}
