import Foundation
import PropertyBased
@testable import RelataCore
import Testing

/// The binary payload format of stored entities: every `Codable` shape round-trips, models can
/// evolve as with JSON, and damaged bytes throw instead of crashing.
@Suite("Payload format")
struct PayloadFormatTests {
    struct Everything: Codable, Equatable {
        enum Kind: Codable, Equatable {
            case plain
            case file(url: URL, size: Int?)
            case pair(String, Double)
        }

        struct Inner: Codable, Equatable {
            var name: String
            var tags: [String]
        }

        var int = Int.min
        var int8 = Int8.min
        var int16 = Int16.max
        var int32 = Int32.min
        var int64 = Int64.max
        var uint = UInt.max
        var uint8 = UInt8.max
        var uint16 = UInt16.max
        var uint32 = UInt32.max
        var uint64 = UInt64.max
        var double = -0.000_123
        var infinity = -Double.infinity
        var float: Float = 3.25
        var bool = true
        var text = "héllo, 世界 👋"
        var empty = ""
        var none: String? = nil
        var some: Int? = 7
        var inner = Inner(name: "in", tags: ["a", "", "c"])
        var kinds: [Kind] = [.plain, .file(url: URL(string: "https://example.com/a?b=c")!, size: nil), .pair("p", 2.5)]
        var byName: [String: Int] = ["one": 1, "two": 2]
        var byNumber: [Int: String] = [1: "one", 2: "two"]
        var bytes = Data([0, 1, 2, 255])
        var date = Date(timeIntervalSinceReferenceDate: 123_456.789)
        var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        var decimal = Decimal(string: "12345.6789")!
        var set: Set<Int> = [3, 1, 2]
        var nested: [[Int?]] = [[1, nil], [], [nil]]
    }

    static func roundTrip<T: Codable>(_ value: T) throws -> T {
        try PayloadDecoder().decode(T.self, from: PayloadEncoder().encode(value))
    }

    @Test("Every Codable shape round-trips: numbers at their limits, text, optionals, enums, collections, Data, URL, Date")
    func roundTrips() throws {
        let value = Everything()
        #expect(try Self.roundTrip(value) == value)
        let nan = try Self.roundTrip(Double.nan)
        #expect(nan.isNaN)
        #expect(try Self.roundTrip(-0.0).sign == .minus)
        #expect(try Self.roundTrip([Everything(), Everything(int: 0, text: "second")]) == [Everything(), Everything(int: 0, text: "second")])
    }

    @Test("Payloads start with 00 01, so JSON payloads of older stores are told apart")
    func header() throws {
        let payload = try PayloadEncoder().encode(Everything.Inner(name: "x", tags: []))
        #expect(Array(payload.prefix(2)) == [0x00, 0x01])
        #expect(PayloadFormat.isBinary(payload))
        #expect(!PayloadFormat.isBinary(try JSONEncoder().encode(Everything.Inner(name: "x", tags: []))))
    }

    class Animal: Codable {
        var name: String
        init(name: String) { self.name = name }
    }

    final class Dog: Animal, @unchecked Sendable {
        var breed: String
        init(name: String, breed: String) {
            self.breed = breed
            super.init(name: name)
        }

        enum CodingKeys: String, CodingKey { case breed }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            breed = try container.decode(String.self, forKey: .breed)
            try super.init(from: container.superDecoder())
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(breed, forKey: .breed)
            try super.encode(to: container.superEncoder())
        }
    }

    @Test("A subclass encodes its superclass through superEncoder and decodes it back")
    func superclass() throws {
        let dog = try Self.roundTrip(Dog(name: "Rex", breed: "collie"))
        #expect(dog.name == "Rex" && dog.breed == "collie")
    }

    /// Writes to a nested container after its parent moved on, as `Encoder` allows.
    struct Interleaved: Codable, Equatable {
        var first: Int
        var inner: [String]
        var last: String

        enum CodingKeys: String, CodingKey { case first, inner, last }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var nested = container.nestedUnkeyedContainer(forKey: .inner)
            try container.encode(first, forKey: .first)
            try container.encode(last, forKey: .last)
            for element in inner { try nested.encode(element) }
        }
    }

    @Test("A nested container written after its parent's later entries keeps its values in place")
    func interleaved() throws {
        let value = Interleaved(first: 1, inner: ["a", "b"], last: "z")
        #expect(try Self.roundTrip(value) == value)
    }

    struct ItemV1: Codable {
        var id: String
        var title: String
        var legacy: Int
    }

    struct ItemV2: Codable, Equatable {
        var id: String
        var title: String
        var subtitle: String?
        var score: Double
    }

    struct ScoreV1: Codable {
        var id: String
        var title: String
        var score: Int
        var legacy: Int
    }

    @Test("Models evolve as with JSON: an added optional is nil, a removed property is ignored, an Int reads as a Double")
    func evolution() throws {
        let payload = try PayloadEncoder().encode(ScoreV1(id: "1", title: "T", score: 3, legacy: 9))
        let decoded = try PayloadDecoder().decode(ItemV2.self, from: payload)
        #expect(decoded == ItemV2(id: "1", title: "T", subtitle: nil, score: 3))
    }

    struct Small: Codable { var value: Int8 }
    struct Named: Codable { var value: String }

    @Test("A stored value that does not fit the model throws a DecodingError naming the property")
    func mismatches() throws {
        let big = try PayloadEncoder().encode(["value": 300])
        #expect {
            try PayloadDecoder().decode(Small.self, from: big)
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["value"]
        }
        #expect {
            try PayloadDecoder().decode(Named.self, from: big)
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["value"]
        }
        #expect {
            try PayloadDecoder().decode(ItemV2.self, from: big)
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return false }
            return key.stringValue == "id"
        }
    }

    @Test("Every truncation of a payload, and damaged bytes, throw instead of crashing")
    func damaged() throws {
        let payload = try PayloadEncoder().encode(Everything())
        for length in 0..<payload.count {
            #expect(throws: DecodingError.self) { try PayloadDecoder().decode(Everything.self, from: payload.prefix(length)) }
        }
        #expect(throws: DecodingError.self) { try PayloadDecoder().decode(Everything.self, from: payload + [0]) }
        var newer = payload
        newer[1] = 2
        #expect(throws: DecodingError.self) { try PayloadDecoder().decode(Everything.self, from: newer) }
        // Every single-byte change either decodes to something or throws; none crashes.
        for index in 2..<payload.count {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var changed = payload
                changed[index] ^= flip
                _ = try? PayloadDecoder().decode(Everything.self, from: changed)
            }
        }
    }

    struct Twice: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(1)
            try container.encode(2)
        }
    }

    @Test("Encoding two values into one single-value container throws an EncodingError")
    func encodedTwice() {
        #expect(throws: EncodingError.self) { try PayloadEncoder().encode(Twice()) }
    }

    indirect enum Tree: Codable, Equatable {
        case leaf(Int64)
        case text(String)
        case missing
        case node([Tree])
        case record([String: Tree])
    }

    static func tree(_ codes: [Int], _ index: inout Int, depth: Int) -> Tree {
        guard index < codes.count else { return .missing }
        let code = codes[index]
        index += 1
        switch code % (depth > 3 ? 3 : 5) {
        case 0: return .leaf((Int64(code) &<< (code % 64)) &* (code % 2 == 0 ? -1 : 1))
        case 1: return .text(String(repeating: "é", count: code % 7))
        case 2: return .missing
        case 3: return .node((0..<(code % 4)).map { _ in tree(codes, &index, depth: depth + 1) })
        default:
            return .record(Dictionary(
                (0..<(code % 4)).map { ("k\($0)", tree(codes, &index, depth: depth + 1)) }, uniquingKeysWith: { a, _ in a }
            ))
        }
    }

    @Test("Random nested values round-trip (property-based)")
    func randomTrees() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...1_000_000).array(of: 1...40)) { codes in
            var index = 0
            let tree = Self.tree(codes, &index, depth: 0)
            #expect((try? Self.roundTrip(tree)) == tree)
        }
    }

    typealias Link = Relation<User, Relations.OneWay, Relations.ToOne, Relations.Optional>

    /// Relations in every shape a container holds them: keyed, in an array, alone.
    struct Linked: Encodable {
        var name = "n"
        var link: Link
        var list: [Link]
    }

    /// What `Linked` with `.none` relations wrote before relations had a shortcut: a null each.
    struct Nulls: Encodable {
        enum CodingKeys: String, CodingKey { case name, link, list }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("n", forKey: .name)
            try container.encodeNil(forKey: .link)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encodeNil()
            try list.encodeNil()
        }
    }

    @Test("A relation left .none is written as the same null as before, in a keyed or an unkeyed container and alone")
    func noneRelationsAreNulls() throws {
        let none = Link(state: .none)
        let linked = Linked(link: none, list: [none, none])
        #expect(try PayloadEncoder().encode(linked) == PayloadEncoder().encode(Nulls()))
        #expect(try PayloadEncoder().encode(none) == PayloadEncoder().encode(String?.none))
        // Any other state still encodes in full.
        let null = Link(state: .null)
        let decoded = try PayloadDecoder().decode(Link.self, from: PayloadEncoder().encode(null))
        #expect(decoded.isNull)
    }
}
