import Foundation

/// SwiftletModel's own text helpers (String+SearchTokens.swift, String+FuzzyMatch.swift at
/// a24c84e), copied as test oracles: what its `matches` would answer.
enum SwiftletModelOracles {
    static func makeTokens(_ text: String) -> [String] {
        text.lowercased()
            .components(separatedBy: CharacterSet.alphanumerics.inverted)
            .flatMap { windows($0, ofLength: 3) }
            .map { String($0) }
    }

    static func windows(_ text: String, ofLength length: Int) -> [Substring] {
        guard length > 0, text.count >= length else { return [] }
        return (0...(text.count - length)).map { start in
            text[text.index(text.startIndex, offsetBy: start)..<text.index(text.startIndex, offsetBy: start + length)]
        }
    }

    static func matches(_ text: String, fuzzy pattern: String) -> Bool {
        Set(makeTokens(pattern)).first { text.contains($0) } != nil
    }
}
