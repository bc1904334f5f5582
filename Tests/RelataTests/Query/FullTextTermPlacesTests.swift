import Foundation
@testable import RelataCore
import Testing

/// A search in storage counts, for every row holding one of its trigrams, how often the row's
/// stored words hold each: the counts must be those of splitting the words and comparing them.
@Suite("Full-text search in storage: the search's trigrams counted in a row's stored words")
struct FullTextTermPlacesTests {
    /// What the counts are, the plain way: the stored text split at spaces, each word compared.
    static func expected(_ stored: String, _ terms: [String]) -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for word in stored.split(separator: " ", omittingEmptySubsequences: false) {
            if let place = terms.firstIndex(of: String(word)) { counts[place, default: 0] += 1 }
        }
        return counts
    }

    @Test("Random searches over random stored rows (ASCII trigrams and the hexadecimal words of others): the counts of plain splitting", arguments: [5, 40])
    func countsAsSplitting(termCount: Int) {
        var random = SeededGenerator(seed: UInt64(termCount))
        let texts = ["release notes 1042", "straße", "ΚΑΣΑ κας", "İstanbul", "re-lease 99999", "aaa aaa aab", "naïve café"]
        let vocabulary = Array(Set(texts.flatMap { SearchTokens.trigrams(of: $0).map(FullTextCandidates.term) })).sorted()
        for _ in 0..<200 {
            let terms = Array(vocabulary.shuffled(using: &random).prefix(termCount))
            let places = FullTextTermPlaces(terms: terms)
            let row = (0..<Int.random(in: 0...4, using: &random)).map { _ in texts.randomElement(using: &random)! }
            let stored = FullTextCandidates.terms(of: row).text
            #expect(places.frequencies(in: stored) == Self.expected(stored, terms), "\(row) for \(terms)")
            for (place, term) in terms.enumerated() {
                #expect(places.place(of: term.utf8) == place)
            }
            #expect(places.place(of: "zzz".utf8) == (terms.firstIndex(of: "zzz")))
        }
        #expect(vocabulary.contains { $0.utf8.count > 3 } && vocabulary.contains { $0.utf8.count == 3 }, "both kinds of words are searched")
    }
}
