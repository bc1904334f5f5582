import Foundation
import Relata
@testable import RelataCore
import Testing

/// The save times a context that holds everything keeps in order (`SaveOrder`, over the times
/// in the entities' slots, `EntityStorage.times`): they answer
/// `filter(.updated(within:))` and its `resolveCount()` as testing every entity does, whatever
/// order the times come in and however often entities are saved again or erased.
@Suite("Metadata: save times in order")
struct SaveOrderTests {
    typealias Employee = QueryPredicateTests.Employee

    @Test("Times in any order, replaced and removed: every range finds the ids whose time is in it")
    func rangesOfShuffledTimes() throws {
        var random = SeededGenerator(seed: 17)
        // The times themselves live outside the order (in a table, the entities' slots).
        var order = SaveOrder<Int>(sorting: [])
        var expected: [Int: Date] = [:]
        let base = Date(timeIntervalSinceReferenceDate: 800_000_000)
        for step in 0..<5_000 {
            let id = Int.random(in: 0..<400, using: &random)
            // Mostly later than the last (a clock), sometimes earlier, sometimes removed.
            let roll = Int.random(in: 0..<10, using: &random)
            let time: Date? = roll == 0 ? nil : base.addingTimeInterval(roll == 1 ? Double.random(in: 0...Double(step), using: &random) : Double(step))
            let old = expected[id]
            expected[id] = time
            if old != time { order.move(id, from: old, to: time, live: expected.count) { expected[$0] } }
            if step % 500 == 0 {
                #expect(order.mismatch(with: expected) == nil)
                for _ in 0..<20 {
                    let a = base.addingTimeInterval(Double.random(in: -10...5_010, using: &random))
                    let b = a.addingTimeInterval(Double.random(in: 0...800, using: &random))
                    let found = order.ids(within: a...b) { expected[$0] }
                    #expect(found.count == Set(found).count, "each id once")
                    #expect(Set(found) == Set(expected.filter { (a...b).contains($0.value) }.keys))
                }
            }
        }
        #expect(order.mismatch(with: expected) == nil)
    }

    @Test("An entity's time is in its slot: kept when it is stored again, moved when another is erased, gone with it")
    func timesInSlots() {
        var storage = EntityStorage<String, Int>()
        let t0 = Date(timeIntervalSinceReferenceDate: 1), t1 = Date(timeIntervalSinceReferenceDate: 2)
        #expect(storage.store(10, for: "a", savedAt: t0) == nil)
        #expect(storage.store(20, for: "b", savedAt: t1) == nil)
        storage["c"] = 30
        #expect(storage.time(of: "c") == nil, "stored without a time")
        storage["a"] = 11
        #expect(storage.time(of: "a") == t0, "stored again without a time: the time stays")
        #expect(storage.store(12, for: "a", savedAt: t1) == t0, "a save returns the time it replaces")
        storage["a"] = nil
        #expect(storage.time(of: "a") == nil && storage["a"] == nil)
        #expect(storage.time(of: "b") == t1 && storage["b"] == 20, "the last entity moved into the hole with its time")
        #expect(storage.setTime(t0, for: "c") == nil)
        #expect(storage.time(of: "c") == t0)
        #expect(storage.setTime(t1, for: "z") == nil && storage.time(of: "z") == nil, "no time without an entity")
        #expect(storage.timesByID == ["b": t1, "c": t0])
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
