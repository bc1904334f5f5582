import Foundation
@testable import RelataCore
import Testing

/// A payload split into typed column values and put back together decodes to the same value,
/// whatever the shape — and whatever a database does to the JSON of nested values.
@Suite("Split payloads")
struct SplitPayloadTests {
    typealias Everything = PayloadFormatTests.Everything

    /// Splits `value`'s payload, optionally rewrites each JSON column as a database might, puts it
    /// back together, and decodes it.
    static func roundTrip<T: Codable>(_ value: T, rewrite: (String) throws -> String = { $0 }) throws -> (T, SplitPayload) {
        let payload = try PayloadEncoder().encode(value)
        var split = try SplitPayload(splitting: payload)
        for index in split.properties.indices {
            if case .json(let text) = split.properties[index].value { split.properties[index].value = .json(try rewrite(text)) }
        }
        return (try PayloadDecoder().decode(T.self, from: SplitPayload.assemble(rest: split.rest, properties: split.properties)), split)
    }

    /// JSON as another writer prints it: keys reordered, numbers printed its own way (`1e+16`
    /// as `10000000000000000`), escapes of its own.
    static func reprinted(_ text: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
    }

    @Test("Every Codable shape comes back: scalars as columns, nested values as JSON, the rest in the payload")
    func everything() throws {
        let (back, split) = try Self.roundTrip(Everything())
        #expect(back == Everything())
        let kinds = Dictionary(uniqueKeysWithValues: split.properties.map { ($0.name, $0.value.kind) })
        #expect(kinds["int"] == .integer && kinds["uint64"] == .unsigned && kinds["double"] == .real && kinds["bool"] == .bool)
        #expect(kinds["text"] == .text && kinds["bytes"] == .data && kinds["inner"] == .json && kinds["nested"] == .json)
        #expect(kinds["infinity"] == .real, "an infinite Double is a REAL")
        #expect(kinds["none"] == nil, "a nil is left out, as the payload left it out")
        #expect(!split.rest.isEmpty, "an entity's rest is never empty")
        let (reprinted, _) = try Self.roundTrip(Everything(), rewrite: Self.reprinted)
        #expect(reprinted == Everything(), "JSON a database reprints decodes the same")
    }

    struct Tricky: Codable, Equatable {
        var nan = Double.nan
        var withNul = "a\u{0}b"
        var nestedData = [Data([1, 2, 3])]
        var nestedInfinity = [Double.infinity]
        var nestedNul = ["x\u{0}"]
        var escapes = ["quote \" backslash \\ tab \t newline \n bell \u{7} 👋 é"]
        var big = [1e16, 1e300, 5e-324, -0.0, 0.1]
        var words = ["a": [1, 2], "b": []]

        static func == (a: Tricky, b: Tricky) -> Bool {
            a.nan.isNaN == b.nan.isNaN && a.withNul == b.withNul && a.nestedData == b.nestedData && a.nestedInfinity == b.nestedInfinity
                && a.nestedNul == b.nestedNul && a.escapes == b.escapes && a.big == b.big && a.words == b.words
        }
    }

    @Test("What a column cannot hold exactly stays in the payload: NaN, text with NUL, nested Data, infinities or NUL")
    func declined() throws {
        let (back, split) = try Self.roundTrip(Tricky())
        #expect(back == Tricky())
        let names = Set(split.properties.map(\.name))
        #expect(names == ["escapes", "big", "words"], "\(names)")
        let (reprinted, _) = try Self.roundTrip(Tricky(), rewrite: Self.reprinted)
        #expect(reprinted == Tricky())
    }

    @Test("A payload that is not keyed (a single value, JSON of older formats) is all rest; links-only rows stay empty")
    func notKeyed() throws {
        let single = try PayloadEncoder().encode(42)
        #expect(try SplitPayload(splitting: single) == SplitPayload(splitting: single))
        #expect(try SplitPayload(splitting: single).rest == single && SplitPayload(splitting: single).properties.isEmpty)
        let json = try JSONEncoder().encode(["id": "x"])
        #expect(try SplitPayload(splitting: json).rest == json)
        #expect(try SplitPayload(splitting: Data()).rest.isEmpty)
        #expect(try SplitPayload.assemble(rest: Data(), properties: []).isEmpty)
    }

    @Test("Damaged JSON in a column is a decoding error, never a crash, even nested thousands deep")
    func damagedJSON() throws {
        let rest = try SplitPayload(splitting: PayloadEncoder().encode(["k": 1])).rest
        for text in ["{", "[1,", "{\"a\" 1}", "nul", "\"\\u12\"", "\"\\ud800\"", "1e999", String(repeating: "[", count: 5_000), "[] []", ""] {
            #expect(throws: DecodingError.self, "\(text.prefix(20))") {
                try SplitPayload.assemble(rest: rest, properties: [PropertyEntry(name: "v", value: .json(text))])
            }
        }
    }
}
