import Foundation
import HeapModule

/// A `matches` search of properties a ``FullTextIndex`` covers, ranked as SwiftletModel's index
/// ranks it: BM25 (k1 = 1.2, b = 0.75) over the character trigrams of each word of the
/// lowercased text, summed over the search's trigrams (repeats included), best first, ties by
/// id. The same code scores entities held in memory and rows storage describes
/// (``FullTextCandidates``), so a search answers the same everywhere.
@usableFromInline
struct FullTextSearch<Entity: EntityModelProtocol> {
    let keyPaths: [KeyPath<Entity, String>]
    /// The names of the properties as storage keeps them; `nil` when one is not a column.
    let properties: [String]?
    /// The search's trigrams, in order, repeats included.
    let tokens: [String]
    /// The distinct trigrams, in order of first appearance.
    let distinct: [String]
    private let places: [String: Int]
    /// The place of each of ``tokens`` in ``distinct``, in order (scoring hashes no string).
    private let tokenPlaces: [Int]
    /// The places of the ASCII trigrams, by their packed key (ASCII texts are counted without
    /// making strings: see ``SearchTokens/forEachASCIITrigram(of:_:)``).
    private let asciiPlaces: [UInt32: Int]

    init(keyPaths: [KeyPath<Entity, String>], value: String) {
        self.init(keyPaths: keyPaths, tokens: SearchTokens.trigrams(of: value))
    }

    /// The search of `tokens`, the trigrams of its value (``SearchTokens/trigrams(of:)``).
    init(keyPaths: [KeyPath<Entity, String>], tokens: [String]) {
        self.keyPaths = keyPaths
        var names: [String] = []
        for keyPath in keyPaths {
            guard let name = Entity.columnName(of: keyPath) else { break }
            names.append(name)
        }
        properties = names.count == keyPaths.count ? names : nil
        self.tokens = tokens
        var distinct: [String] = [], places: [String: Int] = [:]
        for token in tokens where places[token] == nil {
            places[token] = distinct.count
            distinct.append(token)
        }
        self.distinct = distinct
        self.places = places
        tokenPlaces = tokens.map { places[$0]! }
        var asciiPlaces: [UInt32: Int] = [:]
        for (token, place) in places {
            if let key = SearchTokens.asciiKey(token) { asciiPlaces[key] = place }
        }
        self.asciiPlaces = asciiPlaces
    }

    /// An entity's text as the index counts it: its length in trigrams and how often it holds
    /// each of the search's.
    struct Document {
        var length: Int
        var frequencies: [Int: Int]
    }

    func document(_ entity: Entity) -> Document {
        var document = Document(length: 0, frequencies: [:])
        for keyPath in keyPaths {
            let text = entity[keyPath: keyPath]
            let ascii = SearchTokens.forEachASCIITrigram(of: text) { key in
                document.length += 1
                if let place = asciiPlaces[key] { document.frequencies[place, default: 0] += 1 }
            }
            if ascii { continue }
            for token in SearchTokens.trigrams(of: text) {
                document.length += 1
                if let place = places[token] { document.frequencies[place, default: 0] += 1 }
            }
        }
        return document
    }

    /// Whether `entity` holds any trigram of the search (what the index keeps).
    func matches(_ entity: Entity) -> Bool {
        !document(entity).frequencies.isEmpty
    }

    /// The statistics of the indexed entities BM25 needs.
    struct Statistics {
        var documents: Int
        var totalLength: Int
        /// By place in ``FullTextSearch/distinct``.
        var documentFrequencies: [Int]
    }

    /// BM25 for one search over given statistics, computed as SwiftletModel computes it, term by
    /// term: what every entity's score shares (each trigram's IDF, the average length) worked out
    /// once, so that scoring an entity is a loop of arithmetic in the same order.
    struct Scoring {
        private let tokenPlaces: [Int]
        /// By place in ``FullTextSearch/distinct``: the trigram's IDF, `nil` when no entity
        /// holds it (it adds nothing).
        private let idf: [Double?]
        private let averageValueLength: Double
        private static var k1: Double { 1.2 }
        private static var b: Double { 0.75 }

        init(_ search: FullTextSearch, _ statistics: Statistics) {
            tokenPlaces = search.tokenPlaces
            let documentsCount = Double(statistics.documents)
            averageValueLength = Double(statistics.totalLength) / Double(Swift.max(1, statistics.documents))
            idf = statistics.documentFrequencies.map { frequency in
                let matchingDocumentsCount = Double(frequency)
                guard matchingDocumentsCount > 0 else { return nil }
                return log((documentsCount - matchingDocumentsCount + 0.5) / (matchingDocumentsCount + 0.5) + 1.0)
            }
        }

        /// The score of an entity `length` trigrams long holding each of the search's trigrams
        /// as often as `frequencies` says (by place; 0: not at all).
        func score(length: Int, frequencies: [Int32]) -> Double {
            score(length: length) { Int(frequencies[$0]) }
        }

        /// The BM25 score of `document`.
        func score(_ document: Document) -> Double {
            score(length: document.length) { document.frequencies[$0] ?? 0 }
        }

        @inline(__always)
        private func score(length: Int, frequency: (Int) -> Int) -> Double {
            let (k1, b) = (Self.k1, Self.b)
            var score = 0.0
            for place in tokenPlaces {
                guard let idf = idf[place] else { continue }
                let count = frequency(place)
                guard count > 0 else { continue }
                let tokenFrequency = Double(count)
                let docLength = Double(length)
                let numerator = tokenFrequency * (k1 + 1.0)
                let denominator = tokenFrequency + k1 * (1.0 - b + b * docLength / averageValueLength)
                score += idf * numerator / denominator
            }
            return score
        }
    }

    /// The most the trigram at `place` adds to any entity's score: each of its appearances in the
    /// search adds less than its IDF times k1 + 1.
    func bound(_ place: Int, _ statistics: Statistics) -> Double {
        let documentsCount = Double(statistics.documents)
        let matchingDocumentsCount = Double(statistics.documentFrequencies[place])
        let idf = log((documentsCount - matchingDocumentsCount + 0.5) / (matchingDocumentsCount + 0.5) + 1.0)
        // A hair above, against rounding.
        return Double(tokens.count { $0 == distinct[place] }) * idf * (1.2 + 1.0) * (1 + 1e-9)
    }

    /// An entity scored for a search: its id, its id as storage keeps it (`nil` when it is made
    /// from the id, for ties) and its score.
    typealias Scored = (id: Entity.ID, text: String?, score: Double)
    /// A stored row scored for a search from storage's counts: its id as stored, and its score.
    typealias StoredScore = (text: String, score: Double)

    /// Reads the entities holding the search's trigrams, rarest trigram first (`read(place,
    /// &scores)` scores those holding the trigram at `place` not scored yet, appending their
    /// scores), and stops once the trigrams left unread could not lift an entity holding only
    /// them to the `first`-th best score found (`known`: the scores of entities scored before):
    /// each adds at most its ``bound(_:_:)``, and a common trigram's is near zero. Every trigram
    /// is read without `first`. False when `read` gives up (it then returns false).
    func readRarestFirst(
        _ statistics: Statistics, first: Int?, known: some Sequence<Double>, read: (Int, inout [Double]) -> Bool
    ) -> Bool {
        let places = distinct.indices.filter { statistics.documentFrequencies[$0] > 0 }
            .sorted { (statistics.documentFrequencies[$0], $0) < (statistics.documentFrequencies[$1], $1) }
        // (Without `first`, every trigram is read: no bound is needed.)
        var unread = first == nil ? 0 : places.reduce(0.0) { $0 + bound($1, statistics) }
        // The `first` best scores so far.
        var best = Heap<Double>()
        if let first { for score in known { Self.keep(score, among: &best, first) } }
        var added: [Double] = []
        for (step, place) in places.enumerated() {
            if let first, step > 0, best.count == first, let threshold = best.min, unread < threshold { break }
            added.removeAll(keepingCapacity: true)
            guard read(place, &added) else { return false }
            if let first {
                for score in added { Self.keep(score, among: &best, first) }
                unread -= bound(place, statistics)
            }
        }
        return true
    }

    /// Keeps `score` in `best` if it is among the `first` best seen.
    private static func keep(_ score: Double, among best: inout Heap<Double>, _ first: Int) {
        if best.count < first {
            best.insert(score)
        } else if let least = best.min, score > least {
            best.replaceMin(with: score)
        }
    }

    /// The `first`-th best of `scores`; −∞ without `first`, or when there are no more than
    /// `first` scores (all of them rank).
    static func threshold(of scores: some Sequence<Double>, first: Int?) -> Double {
        guard let first, first > 0 else { return -.infinity }
        var best = Heap<Double>(), count = 0
        for score in scores {
            keep(score, among: &best, first)
            count += 1
        }
        return count > first ? best.min! : -.infinity
    }

    /// The ids in ranking order: score descending, then id (as stored: `text`, or made from the
    /// id when `nil`) ascending; with `first`, only those scoring at least the `first`-th best
    /// score (the best `first`, and the ties at the last one's score), so that only they are
    /// sorted. `stored`: rows scored from storage's counts, their ids decoded only when they
    /// rank (one that does not decode is left out).
    static func ranked(_ scored: [Scored], stored: [StoredScore] = [], first: Int? = nil) -> [Entity.ID] {
        let threshold = first == nil ? -.infinity : threshold(of: scored.lazy.map { $0.score } + stored.lazy.map { $0.score }, first: first)
        // Sorted without the ids (`held`: the place in `scored`, −1 for a stored row).
        var order: [(text: String, score: Double, held: Int)] = []
        for (place, entry) in scored.enumerated() where entry.score >= threshold {
            order.append((entry.text ?? Self.text(entry.id), entry.score, place))
        }
        for entry in stored where entry.score >= threshold { order.append((entry.text, entry.score, -1)) }
        order.sort { a, b in
            a.score != b.score ? a.score > b.score : a.text.utf8.lexicographicallyPrecedes(b.text.utf8)
        }
        return order.compactMap { entry in
            entry.held >= 0 ? scored[entry.held].id : try? IDText.decode(entry.text, as: Entity.ID.self)
        }
    }

    /// The id as storage keeps it, for ties.
    static func text(_ id: Entity.ID) -> String {
        (try? IDText.encode(id, of: EntitySchema.storageName(of: Entity.self))) ?? String(describing: id)
    }

    /// The matching entities of `entities` (every entity of the type), ranked.
    func rank(_ entities: some Sequence<(Entity.ID, Entity)>) -> [Entity.ID] {
        var documents: [(Entity.ID, Document)] = []
        var statistics = Statistics(documents: 0, totalLength: 0, documentFrequencies: Array(repeating: 0, count: distinct.count))
        for (id, entity) in entities {
            let document = document(entity)
            statistics.documents += 1
            statistics.totalLength += document.length
            for place in document.frequencies.keys { statistics.documentFrequencies[place] += 1 }
            if !document.frequencies.isEmpty { documents.append((id, document)) }
        }
        let scoring = Scoring(self, statistics)
        return Self.ranked(documents.map { ($0.0, nil, scoring.score($0.1)) })
    }
}
