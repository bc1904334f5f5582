import Foundation
import Relata
@testable import RelataCore
import Testing

/// The index a context keeps in memory for `@FullTextIndex`: kept by every save and erase,
/// copy-on-write with the context, checked by `checkInvariants()`; a search ranks from it as
/// SwiftletModel's index ranks, and a text test starting from it keeps what plain Swift keeps.
@Suite("Full-text index in memory: kept by saves and erasures, answering searches and text tests")
struct FullTextMemoryIndexTests {
    typealias Article = FullTextIndexTests.Article

    /// Words with letters whose case mapping is not one to one, or depends on the letters
    /// around (Greek's final sigma, the Turkish dotted I, the German sharp s, the Kelvin sign).
    static let words = FullTextIndexTests.words + ["ΚΑΣΑ", "κας", "straße", "STRASSE", "İstanbul", "istanbul", "\u{212A}elvin", "kelvin", "re-lease"]

    static func article(_ i: Int, _ random: inout SeededGenerator) -> Article {
        func text(_ n: Int) -> String {
            (0..<n).map { _ in words.randomElement(using: &random)! }.joined(separator: [" ", ", ", "-"].randomElement(using: &random)!)
        }
        return Article(id: "a\(i)", title: text(Int.random(in: 0...3, using: &random)), body: text(Int.random(in: 0...10, using: &random)),
                       rank: i % 7, tag: i % 2 == 0 ? "even" : "odd")
    }

    /// Values to test: pieces of stored texts with their case changed at random, and a few
    /// chosen ones (across words, too short, not ASCII, found nowhere).
    static func values(_ all: [Article], _ random: inout SeededGenerator) -> [String] {
        var values = ["release", "ASE NO", "e-lea", "ΚΑΣ", "κασ", "stanbul", "STANBUL", "kelvin", "xyzzy", "re", ""]
        for _ in 0..<4 {
            guard let article = all.randomElement(using: &random) else { break }
            let text = Array(Bool.random(using: &random) ? article.body : article.title)
            guard !text.isEmpty else { continue }
            let start = Int.random(in: 0..<text.count, using: &random)
            let piece = String(text[start..<min(text.count, start + Int.random(in: 2...10, using: &random))])
            values.append(Bool.random(using: &random) ? piece.uppercased() : piece)
        }
        return values
    }

    static func check(_ context: Context, _ random: inout SeededGenerator) throws {
        try context.checkInvariants()
        let all = Article.query(in: context).resolve()
        for search in FullTextIndexTests.searches + ["istanbul straße", "kelvin"] {
            let expected = FullTextIndexTests.oracle(all, search)
            #expect(Article.query(in: context).filter(.string(\.title, \.body, matches: search)).resolve().map(\.id) == expected, "\(search)")
            let window = Article.query(in: context).filter(.string(\.title, \.body, matches: search)).limit(4, offset: 1).resolve().map(\.id)
            #expect(window == Array(expected.dropFirst(1).prefix(4)), "\(search), limited")
        }
        for value in values(all, &random) {
            for caseSensitive in [false, true] {
                let tests: [StringPredicate<Article>] = [
                    .string(\.title, \.body, contains: value, caseSensitive: caseSensitive),
                    .string(\.body, contains: value, caseSensitive: caseSensitive),
                    .string(\.title, hasPrefix: value, caseSensitive: caseSensitive),
                    .string(\.body, \.title, hasSuffix: value, caseSensitive: caseSensitive),
                ]
                for test in tests {
                    let expected = all.filter(test.isIncluded).map(\.id)
                    let query = Article.query(in: context).filter(test)
                    #expect(query.resolve().map(\.id) == expected, "\(value.debugDescription), case-sensitive: \(caseSensitive)")
                    #expect(query.resolveCount() == expected.count, "\(value.debugDescription), counted")
                }
            }
        }
    }

    @Test("Random saves, re-saves, erasures and copies: the index matches its entities; searches and text tests answer as plain Swift")
    func randomOperations() throws {
        var random = SeededGenerator(seed: 34)
        var context = Context()
        var copies: [Context] = []
        for step in 0..<SeededGenerator.rounds(normal: 600, long: 6_000) {
            let i = Int.random(in: 0..<150, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6: try Self.article(i, &random).save(to: &context)
            case 6..<8: try Article.delete(id: "a\(i)", from: &context)
            case 8: copies.append(context)  // a copy keeps its own index
            default:
                if var copy = copies.popLast() {
                    try Self.article(i, &random).save(to: &copy)
                    try Article.delete(id: "a\((i + 1) % 150)", from: &copy)
                    if copies.count % 4 == 0 { try Self.check(copy, &random) }
                }
            }
            if step % 60 == 0 { try Self.check(context, &random) }
        }
        try Self.check(context, &random)
        for copy in copies.suffix(3) { try Self.check(copy, &random) }
    }

    @Test("A search reads the index, not every entity; a text test with an ASCII value tests only the entities holding its trigrams")
    func readsTheIndex() throws {
        var random = SeededGenerator(seed: 3)
        var context = Context()
        for i in 0..<400 { try Self.article(i, &random).save(to: &context) }
        let table = try #require(context.table(Article.self))
        let index = try #require(table.memoryIndexes?.compactMap { $0 as? FullTextMemoryIndex<Article> }.first)
        #expect(index.numbers.count == 400)
        let all = Article.query(in: context).resolve()
        let query = Article.query(in: context).filter(.string(\.title, \.body, contains: "1042 ind", caseSensitive: true))
        let candidates = try #require(context.indexedIDs(of: Article.self, query.lookups))
        let holding = all.filter { ($0.title + " " + $0.body).lowercased().contains("1042") && ($0.title + " " + $0.body).lowercased().contains("ind") }
        #expect(Set(candidates) == Set(holding.map(\.id)), "the entities holding 104, 042 and ind")
        #expect(candidates.count < all.count / 2)
        #expect(query.resolve().map(\.id) == all.filter { $0.title.contains("1042 ind") || $0.body.contains("1042 ind") }.map(\.id))
        // A value that is not ASCII, or too short, is tested against every entity.
        #expect(Article.query(in: context).filter(.string(\.body, contains: "ΚΑΣ")).lookups.isEmpty)
        #expect(Article.query(in: context).filter(.string(\.body, contains: "re")).lookups.isEmpty)
        // With a limit, the ranking reads the rarest trigrams' entities only.
        let search = FullTextSearch<Article>(keyPaths: [\.title, \.body], value: "release notes 1042")
        let best = index.ranked(search, first: 3)
        let whole = index.ranked(search, first: nil)
        #expect(Array(best.prefix(3)) == Array(whole.prefix(3)))
        #expect(best.count < whole.count)
        #expect(whole == search.rank(zip(all.map(\.id), all)))
    }

    @Test("A full-text index that differs from its entities fails checkInvariants")
    func staleIndexIsReported() throws {
        var context = Context()
        var random = SeededGenerator(seed: 5)
        for i in 0..<100 { try Self.article(i, &random).save(to: &context) }
        try context.checkInvariants()
        let table = try #require(context.table(Article.self))
        let index = try #require(table.memoryIndexes?.compactMap { $0 as? FullTextMemoryIndex<Article> }.first)
        index.postings[Trigram("zzz"), default: [:]][index.numbers["a1"]!] = 1
        let error = try #require(throws: RelataError.self) { try context.checkInvariants() }
        #expect(error.code == .invalidIndex && error.entityType.hasSuffix("Article"))
    }
}
