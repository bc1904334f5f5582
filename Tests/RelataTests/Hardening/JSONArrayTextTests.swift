import Foundation
import GRDB
@testable import RelataSQLite
import Testing

/// The keys of a batched SQLite read travel as a JSON array read by `json_each`: every id —
/// quotes, backslashes, control characters, any Unicode — must arrive as it was.
@Suite("SQLite: batch keys as JSON text")
struct JSONArrayTextTests {
    static let pool: [Unicode.Scalar] = ["a", "Z", "0", "\"", "\\", "/", "'", "\n", "\r", "\t", "\u{01}", "\u{1F}", "\u{7F}", "é", "ß", "\u{2028}", "😀", " ", ",", "]", "["]

    static func randomStrings(_ random: inout SeededGenerator) -> [String] {
        (0..<Int.random(in: 0...6, using: &random)).map { _ in
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...8, using: &random) { text.append(pool.randomElement(using: &random)!) }
            return String(text)
        }
    }

    @Test("Random ids, with every character JSON escapes: SQLite's json_each and JSONDecoder read back what was encoded")
    func roundTrips() throws {
        let queue = try DatabaseQueue()
        var random = SeededGenerator(seed: 0x150A)
        for _ in 0..<SeededGenerator.rounds(normal: 300, long: 20_000) {
            let values = Self.randomStrings(&random)
            let text = JSONArrayText.encode(values)
            #expect(try JSONDecoder().decode([String].self, from: Data(text.utf8)) == values, "\(text)")
            let read = try queue.read { try String.fetchAll($0, sql: "SELECT value FROM json_each(?) ORDER BY key", arguments: [text]) }
            #expect(read == values, "\(text)")
            let nested = [values, ["x"], []]
            #expect(try JSONDecoder().decode([[String]].self, from: Data(JSONArrayText.encode(nested).utf8)) == nested)
        }
    }

    @Test("Exact text: nothing escaped but quotes, backslashes and control characters")
    func exactText() {
        #expect(JSONArrayText.encode([String]()) == "[]")
        #expect(JSONArrayText.encode(["a", "é/😀"]) == "[\"a\",\"é/😀\"]")
        #expect(JSONArrayText.encode(["\"\\\n\u{01}"]) == "[\"\\\"\\\\\\n\\u0001\"]")
        #expect(JSONArrayText.encode([["a"], []]) == "[[\"a\"],[]]")
    }
}
