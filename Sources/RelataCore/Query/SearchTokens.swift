import Foundation

/// The tokens of SwiftletModel's fuzzy text matching: the character trigrams of each run of
/// letters and digits of the lowercased text (`"Hello, world"` → `hel ell llo wor orl rld`). A
/// text shorter than three characters has none.
package enum SearchTokens {
    /// The trigrams of `text`, in order, repeats included.
    package static func trigrams(of text: String) -> [String] {
        var tokens: [String] = []
        for word in text.lowercased().components(separatedBy: CharacterSet.alphanumerics.inverted) {
            let characters = Array(word)
            guard characters.count >= 3 else { continue }
            for start in 0...(characters.count - 3) {
                tokens.append(String(characters[start..<(start + 3)]))
            }
        }
        return tokens
    }

    /// Whether `text` contains any of `tokens` (as written: tokens are lowercase, the text is not
    /// folded — SwiftletModel's rule).
    static func text(_ text: String, matchesAnyOf tokens: [String]) -> Bool {
        tokens.contains { text.contains($0) }
    }
}
