import Foundation
import Relata
@testable import RelataCore
import Testing

/// The save times a context that holds everything keeps in order (`SaveTimes`): they answer
/// `filter(.updated(within:))` and its `resolveCount()` as testing every entity does, whatever
/// order the times come in and however often entities are saved again or erased.
@Suite("Metadata: save times in order")
struct SaveTimesTests {
    typealias Employee = QueryPredicateTests.Employee

    @Test("Times in any order, replaced and removed: every range finds the ids whose time is in it")
    func rangesOfShuffledTimes() throws {
        var random = SeededGenerator(seed: 17)
        var times = SaveTimes<Int>()
        times.keepOrder()
        var expected: [Int: Date] = [:]
        let base = Date(timeIntervalSinceReferenceDate: 800_000_000)
        for step in 0..<5_000 {
            let id = Int.random(in: 0..<400, using: &random)
            // Mostly later than the last (a clock), sometimes earlier, sometimes removed.
            let roll = Int.random(in: 0..<10, using: &random)
            let time: Date? = roll == 0 ? nil : base.addingTimeInterval(roll == 1 ? Double.random(in: 0...Double(step), using: &random) : Double(step))
            times[id] = time
            expected[id] = time
            if step % 500 == 0 {
                #expect(times.mismatch() == nil)
                for _ in 0..<20 {
                    let a = base.addingTimeInterval(Double.random(in: -10...5_010, using: &random))
                    let b = a.addingTimeInterval(Double.random(in: 0...800, using: &random))
                    let found = try #require(times.ids(within: a...b))
                    #expect(found.count == Set(found).count, "each id once")
                    #expect(Set(found) == Set(expected.filter { (a...b).contains($0.value) }.keys))
                }
            }
        }
        #expect(times.mismatch() == nil)
        #expect(times.byID == expected)
    }

    @Test("filter(.updated(within:)) in a context answers as testing every entity, and checkInvariants() holds")
    func contextRanges() async throws {
        var context = Context()
        let employees = QueryPredicateTests.employees(300, seed: 9)
        var marks: [Date] = []
        var random = SeededGenerator(seed: 5)
        for round in 0..<6 {
            for employee in employees.shuffled(using: &random).prefix(120) {
                if Int.random(in: 0..<8, using: &random) == 0 {
                    try employee.delete(from: &context)
                } else {
                    try employee.save(to: &context)
                }
            }
            marks.append(Date())
            if round % 2 == 0 { try await Task.sleep(for: .milliseconds(2)) }
        }
        try context.checkInvariants()
        #expect(context.savedIDs(of: Employee.self, within: Date.distantPast...Date.distantFuture) != nil, "the times are kept in order")
        let all = Employee.query(in: context).resolve()
        for lower in [Date.distantPast] + marks {
            for upper in marks + [Date.distantFuture] where lower <= upper {
                let range = lower...upper
                let expected = all.filter { $0.updatedAt(in: context).map(range.contains) ?? false }.map(\.id)
                let query = Employee.filter(.updated(within: range))
                #expect(query.resolve(in: context).map(\.id) == expected, "\(range)")
                #expect(query.resolveCount(in: context) == expected.count)
                let older = Employee.filter(\.age > 40).filter(.updated(within: range))
                #expect(older.resolve(in: context).map(\.id) == expected.filter { id in all.first { $0.id == id }!.age > 40 })
            }
        }
    }
}
