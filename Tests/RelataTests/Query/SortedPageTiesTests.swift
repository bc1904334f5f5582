import Foundation
import Relata
import Testing

/// In a context that holds every entity, a page of a sort by an indexed property (read from the
/// sorted index) holds the entities the whole sort puts there, ties in the same order — also
/// after saves move entities among the ties, which the index keeps in an order of its own.
@Suite("Sorted pages from an index in memory: the whole sort's entities, ties included")
struct SortedPageTiesTests {
    typealias Employee = QueryPredicateTests.Employee

    static func employee(_ id: String, age: Int, remote: Bool) -> Employee {
        Employee(id: id, name: id, age: age, team: .core, email: nil, remote: remote)
    }

    @Test("every page of a sort, ascending and descending, filtered or not, is its slice of the whole sort")
    func pages() throws {
        var context = Context()
        // Saved out of id order, five ages: ties everywhere; every fourth remote.
        let ids = (0..<200).map { "e\(($0 * 37) % 200)" }
        for (i, id) in ids.enumerated() { try Self.employee(id, age: i % 5, remote: i % 4 == 0).save(to: &context) }
        // Saved again with another age: each keeps its place in the table, and goes last among
        // its new ties in the index.
        for (i, id) in ids.enumerated() where i % 7 == 1 { try Self.employee(id, age: 0, remote: i % 4 == 0).save(to: &context) }
        let query = Employee.query(in: context)
        for ascending in [true, false] {
            let whole = query.sorted(by: \.age, ascending: ascending).resolve().map(\.id)
            let older = query.filter(\.age >= 1).sorted(by: \.age, ascending: ascending).resolve().map(\.id)
            // A filter the index does not answer: entities of a value it leaves out lie between runs.
            let onSite = query.filter(\.remote == false).sorted(by: \.age, ascending: ascending).resolve().map(\.id)
            for offset in stride(from: 0, to: 200, by: 30) {
                let page = query.sorted(by: \.age, ascending: ascending).limit(30, offset: offset).resolve().map(\.id)
                #expect(page == Array(whole.dropFirst(offset).prefix(30)), "ascending \(ascending), offset \(offset)")
                let filtered = query.filter(\.age >= 1).sorted(by: \.age, ascending: ascending).limit(30, offset: offset).resolve().map(\.id)
                #expect(filtered == Array(older.dropFirst(offset).prefix(30)), "filtered, ascending \(ascending), offset \(offset)")
                let tested = query.filter(\.remote == false).sorted(by: \.age, ascending: ascending).limit(30, offset: offset).resolve().map(\.id)
                #expect(tested == Array(onSite.dropFirst(offset).prefix(30)), "tested, ascending \(ascending), offset \(offset)")
            }
        }
    }
}
