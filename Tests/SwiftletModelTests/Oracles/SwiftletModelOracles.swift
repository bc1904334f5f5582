// SwiftletModel's internal text and array helpers (a24c84e: String+SearchTokens.swift,
// String+FuzzyMatch.swift, Predicate.swift, ArrayExtensions.swift), which its test suite reaches
// through `@testable import` to compute expected values. They are test oracles, not Relata API:
// Relata exports no extension of `String` or `Array`, so the suite gets them from this file.
// Everything else in this folder is SwiftletModel's suite with only its import renamed.
import Foundation

extension String {
    func contains(_ value: String, caseSensitive: Bool) -> Bool {
        caseSensitive ? contains(value) : lowercased().contains(value.lowercased())
    }

    func hasPrefix(_ value: String, caseSensitive: Bool) -> Bool {
        caseSensitive ? hasPrefix(value) : lowercased().hasPrefix(value.lowercased())
    }

    func hasSuffix(_ value: String, caseSensitive: Bool) -> Bool {
        caseSensitive ? hasSuffix(value) : lowercased().hasSuffix(value.lowercased())
    }

    func makeTokens() -> [String] {
        lowercased()
            .components(separatedBy: CharacterSet.alphanumerics.inverted)
            .flatMap { $0.windows(ofLength: 3) }
            .map { String($0) }
    }

    func matches(fuzzy pattern: String) -> Bool {
        let patternTokens = Set(pattern.makeTokens())
        return patternTokens.first { contains($0) } != nil
    }

    func matches(tokens: [String]) -> Bool {
        tokens.first { contains($0) } != nil
    }

    private func windows(ofLength length: Int) -> [Substring] {
        guard length > 0, count >= length else { return [] }
        return (0...(count - length)).map { start in
            self[index(startIndex, offsetBy: start)..<index(startIndex, offsetBy: start + length)]
        }
    }
}

extension Array {
    func distinct<Key: Hashable>(by key: (Element) -> Key) -> [Element] {
        var seen = Set<Key>()
        return filter { seen.insert(key($0)).inserted }
    }

    func limit(_ limit: Int, offset: Int) -> Array {
        guard limit > 0, offset >= 0 else { return [] }
        return Array(dropFirst(offset).prefix(limit))
    }
}
