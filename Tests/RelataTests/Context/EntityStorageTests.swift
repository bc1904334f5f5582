import PropertyBased
@testable import RelataCore
import Testing

@Suite("Entity storage (dense array and id positions)")
struct EntityStorageTests {
    @Test("Storing, replacing and erasing agree with a dictionary for any sequence of operations")
    func agreesWithDictionary() async {
        // Each code is one operation on ids 0..<12: store a value, replace, or erase.
        await propertyCheck(count: 300, input: Gen.int(in: 0...1_000_000).array(of: 1...80)) { codes in
            var storage = EntityStorage<Int, String>()
            var expected: [Int: String] = [:]
            for code in codes {
                let id = code % 12
                if code % 3 == 0 {
                    storage[id] = nil
                    expected[id] = nil
                } else {
                    storage[id] = "v\(code)"
                    expected[id] = "v\(code)"
                }
                #expect(storage.count == expected.count)
            }
            for id in 0..<12 { #expect(storage[id] == expected[id]) }
            // Every id sits beside its own value, at the position the table gives it.
            #expect(Dictionary(uniqueKeysWithValues: zip(storage.ids, storage.values)) == expected)
            for (position, id) in storage.ids.enumerated() { #expect(storage.positions[id] == position) }
        }
    }

    @Test("Erasing an entity moves the last one into its place; the others keep their ids")
    func erasingMovesTheLast() {
        var storage = EntityStorage<String, Int>()
        for (value, id) in ["a", "b", "c", "d"].enumerated() { storage[id] = value }
        storage["b"] = nil
        #expect(Array(storage.ids) == ["a", "d", "c"])
        #expect(Array(storage.values) == [0, 3, 2])
        #expect(storage["d"] == 3 && storage["b"] == nil)
        storage["c"] = nil  // the last one
        #expect(Array(storage.ids) == ["a", "d"])
        storage["e"] = 9
        storage["a"] = 7  // replaced in place
        #expect(Array(storage.ids) == ["a", "d", "e"] && Array(storage.values) == [7, 3, 9])
    }
}
