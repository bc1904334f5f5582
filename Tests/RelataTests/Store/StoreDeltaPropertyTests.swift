import PropertyBased
import Relata
@testable import RelataCore
import Testing

/// A write's delta holds the new value of every place the write touched, so applying it to the
/// state before the write must give the state after it — entities, links in order with their
/// position keys, backlinks of one-way relations, dynamic relationships — and the same places
/// read from the state before must undo it.
@Suite("Store delta (property-based)")
struct StoreDeltaPropertyTests {
    typealias Copies = StoreRandomWritesPropertyTests

    @Test("before.applying(delta) == after, and after.applying(undo) == before, for random writes")
    func applyingTheDelta() async {
        await propertyCheck(count: 80, input: Gen.int(in: 0...100_000).array(of: 0...40), Gen.int(in: 0...100_000).array(of: 1...40)) { setup, write in
            var before = Context()
            for code in setup { Copies.apply(code, to: &before) }
            var after = before
            let tracker = ChangeTracker()
            after.beginTracking(tracker)
            for code in write { Copies.apply(code, to: &after) }
            let delta = after.trackedDelta()
            let undo = after.trackedDelta(valuesFrom: before)
            after.endTracking(tracker)

            var replayed = before
            delta.apply(to: &replayed)
            #expect(Copies.dumped(replayed) == Copies.dumped(after), "position keys included")
            #expect(throws: Never.self) { try replayed.checkInvariants() }

            var undone = after
            undo.apply(to: &undone)
            #expect(Copies.dumped(undone) == Copies.dumped(before))
        }
    }

    @Test("The delta names the entities stored and erased")
    func storedAndErasedIDs() throws {
        var before = Context()
        try User(id: "a", name: "A").save(to: &before)
        try User(id: "b", name: "B").save(to: &before)
        var after = before
        let tracker = ChangeTracker()
        after.beginTracking(tracker)
        try User(id: "c", name: "C").save(to: &after)
        try User.delete(id: "a", from: &after)
        try Chat(id: "x", users: .ids(["b"])).save(to: &after)
        let delta = after.trackedDelta()
        after.endTracking(tracker)
        #expect(delta.storedIDs(of: User.self) == ["c"])
        #expect(delta.erasedIDs(of: User.self) == ["a"])
        #expect(delta.storedIDs(of: Chat.self) == ["x"])
        #expect(delta.erasedIDs(of: Message.self).isEmpty)
        #expect(!delta.isEmpty && delta.count >= 5, "3 entities, the chat's link and its inverse")
        #expect(StoreDelta().isEmpty)
    }
}
