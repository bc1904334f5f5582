import Foundation
import PropertyBased
import Relata
@testable import RelataCore
import Testing

@Suite("Position keys (fractional indexing)")
struct PositionKeyTests {
    @Test("A key generated between two keys sorts strictly between them, for random insert sequences")
    func betweenIsStrictlyBetween() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...1_000_000).array(of: 1...200)) { choices in
            var keys: [PositionKey] = []
            for choice in choices {
                let index = keys.isEmpty ? 0 : choice % (keys.count + 1)
                let lower = index > 0 ? keys[index - 1] : nil
                let upper = index < keys.count ? keys[index] : nil
                let key = try PositionKey.between(lower, upper)
                if let lower { #expect(lower < key, "\(lower) < \(key)") }
                if let upper { #expect(key < upper, "\(key) < \(upper)") }
                #expect(PositionKey(key.description) == key, "\(key) is valid and round-trips as text")
                keys.insert(key, at: index)
            }
            #expect(keys == keys.sorted())
        }
    }

    @Test("Bounds out of order are a typed error, not a crash")
    func outOfOrder() throws {
        let a = try #require(PositionKey("a5")), b = try #require(PositionKey("a6"))
        for (lower, upper) in [(b, a), (a, a)] {
            let error = #expect(throws: RelataError.self) { try PositionKey.between(lower, upper) }
            #expect(error?.code == .invalidPosition)
            #expect(error?.message.contains("\(lower)") == true && error?.message.contains("\(upper)") == true)
            var generator = SystemRandomNumberGenerator()
            #expect(throws: RelataError.self) { try PositionKey.keys(count: 3, between: lower, and: upper, using: &generator) }
        }
        #expect(try PositionKey.between(a, b) > a)
    }

    @Test("Many keys between two keys are increasing, strictly inside, and short")
    func manyKeysBetween() throws {
        var generator = SystemRandomNumberGenerator()
        let bounds: [(PositionKey?, PositionKey?)] = [
            (nil, nil), (PositionKey("a5")!, nil), (nil, PositionKey("a5")!),
            (PositionKey("a5")!, PositionKey("a6")!), (PositionKey("a5V")!, PositionKey("a5W")!),
        ]
        for (lower, upper) in bounds {
            let keys = try PositionKey.keys(count: 1_000, between: lower, and: upper, using: &generator)
            #expect(keys.count == 1_000)
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
            if let lower { #expect(lower < keys.first!) }
            if let upper { #expect(keys.last! < upper) }
            #expect(keys.map(\.length).max()! <= 12, "1,000 keys between \(String(describing: lower)) and \(String(describing: upper))")
        }
    }

    @Test("Appending and prepending keep keys short (the integer part grows logarithmically)")
    func appendsStayShort() throws {
        var last: PositionKey? = nil
        var first: PositionKey? = nil
        for _ in 0..<10_000 {
            last = try PositionKey.between(last, nil)
        }
        for _ in 0..<10_000 {
            first = try PositionKey.between(nil, first)
        }
        #expect(last!.length <= 6)
        #expect(first!.length <= 6)
    }

    @Test("Text that is not a key is rejected, also when decoding")
    func invalidText() throws {
        for text in ["", "a", "b1", "a5 ", "a50", "?1", "A00000000000000000000000000", "a5é"] {
            #expect(PositionKey(text) == nil, "\(text)")
        }
        #expect(PositionKey("a5")! < PositionKey("a5V")!)
        #expect(PositionKey("Zz")! < PositionKey("a0")!)
        let data = Data(#"["a5", "a"]"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([PositionKey].self, from: data) }
        let keys = try JSONDecoder().decode([PositionKey].self, from: Data(#"["a5", "b10"]"#.utf8))
        #expect(try JSONEncoder().encode(keys) == Data(#"["a5","b10"]"#.utf8))
    }

    @Test("Two replicas inserting at the same place rarely choose the same key (jitter)")
    func jitterSeparatesReplicas() throws {
        var collisions = 0
        let lower = PositionKey("a5")!
        let upper = PositionKey("a6")!
        for _ in 0..<1_000 {
            var a = SystemRandomNumberGenerator(), b = SystemRandomNumberGenerator()
            if try PositionKey.between(lower, upper, using: &a) == PositionKey.between(lower, upper, using: &b) {
                collisions += 1
            }
            if try PositionKey.between(lower, nil, using: &a) == PositionKey.between(lower, nil, using: &b) {
                collisions += 1
            }
        }
        #expect(collisions < 60, "\(collisions) collisions in 2,000 pairs")
    }

    @Test("Generators made one after another (a context's storage and its copies) draw different streams, and rarely the same key")
    func generatorsMadeInTurnDiffer() throws {
        var collisions = 0, firsts = Set<UInt64>()
        let lower = PositionKey("a5")!
        for _ in 0..<1_000 {
            var a = JitterGenerator(), b = JitterGenerator()
            let (a1, b1) = (a.next(), b.next())
            let (a2, b2) = (a.next(), b.next())
            firsts.insert(a1)
            firsts.insert(b1)
            // Not one stream a step apart either (each would draw the other's next key).
            #expect(b1 != a2 && a1 != b2)
            if try PositionKey.between(lower, nil, using: &a) == PositionKey.between(lower, nil, using: &b) { collisions += 1 }
        }
        #expect(firsts.count == 2_000, "every generator starts its own stream")
        #expect(collisions < 30, "\(collisions) collisions in 1,000 pairs")
    }

}
