/// A ``FullTextIndex`` declaration's index in memory: for each trigram, the entities whose text
/// holds it and how often; each entity's length in trigrams, and their sum. A search reads the
/// entities of its own trigrams only, rarest first, and stops once no entity left could enter
/// the results (``ranked(_:first:)``); a text test (`contains`, `hasPrefix`, `hasSuffix`) starts
/// from the entities holding every trigram of its value (``ids(_:)``).
///
/// It counts exactly what ``FullTextSearch/rank(_:)`` counts over every entity, so both rank
/// alike; `checkInvariants()` compares it with an index made afresh.
final class FullTextMemoryIndex<Entity: EntityModelProtocol>: MemoryIndex<Entity>, @unchecked Sendable {
    /// The indexed properties, in order.
    let textKeyPaths: [KeyPath<Entity, String>]
    /// Trigram → (entity → how often its text holds the trigram).
    var postings: [Trigram: [Entity.ID: Int32]] = [:]
    /// Each entity's length in trigrams (every entity held, also those with none).
    var lengths: [Entity.ID: Int32] = [:]
    var totalLength = 0

    init(_ keyPaths: [KeyPath<Entity, String>]) {
        textKeyPaths = keyPaths
        super.init(keyPath: keyPaths[0])
    }

    /// A text test this index can start from: every entity passing it holds each of `trigrams`
    /// in one of `keyPaths` (see ``QueryList/filter(_:)-(StringPredicate<Entity>)``).
    struct Lookup {
        let keyPaths: [KeyPath<Entity, String>]
        let trigrams: [Trigram]
    }

    /// How often `entity`'s text holds each trigram, and its length.
    private func counts(of entity: Entity) -> (length: Int32, counts: [Trigram: Int32]) {
        var counts: [Trigram: Int32] = [:]
        var length: Int32 = 0
        for keyPath in textKeyPaths {
            Trigram.forEach(in: entity[keyPath: keyPath]) { trigram in
                counts[trigram, default: 0] += 1
                length &+= 1
            }
        }
        return (length, counts)
    }

    override func insert(_ entity: Entity) {
        let (length, counts) = counts(of: entity)
        for (trigram, count) in counts { postings[trigram, default: [:]][entity.id] = count }
        lengths[entity.id] = length
        totalLength += Int(length)
    }

    override func remove(_ entity: Entity) {
        for trigram in counts(of: entity).counts.keys {
            postings[trigram]?[entity.id] = nil
            if postings[trigram]?.isEmpty == true { postings[trigram] = nil }
        }
        if let length = lengths.removeValue(forKey: entity.id) { totalLength -= Int(length) }
    }

    override func ids(_ lookups: [IndexLookup<Entity>]) -> [Entity.ID]? {
        var lists: [[Entity.ID: Int32]] = []
        var answers = false
        for lookup in lookups {
            guard let text = lookup.value as? Lookup, Set(text.keyPaths).isSubset(of: textKeyPaths) else { continue }
            answers = true
            for trigram in text.trigrams {
                // No entity holds it: none passes.
                guard let list = postings[trigram] else { return [] }
                lists.append(list)
            }
        }
        guard answers else { return nil }
        guard let smallest = lists.indices.min(by: { lists[$0].count < lists[$1].count }) else { return nil }
        let others = lists.indices.filter { $0 != smallest }.map { lists[$0] }
        return lists[smallest].keys.filter { id in others.allSatisfy { $0[id] != nil } }
    }

    /// The ids of the entities `search` matches, best first (see ``FullTextSearch``); with
    /// `first`, the best `first` in their places (and any tying with the last of them).
    ///
    /// The search's trigrams are read rarest first; each adds at most its weight to a score
    /// (``FullTextSearch/bound(_:_:)``), so once the weights of those not read yet sum below the
    /// `first`-th best score found, no entity holding only them can enter the first `first`.
    func ranked(_ search: FullTextSearch<Entity>, first: Int?) -> [Entity.ID] {
        let lists = search.distinct.map { postings[Trigram($0)] }
        let statistics = FullTextSearch<Entity>.Statistics(
            documents: lengths.count, totalLength: totalLength, documentFrequencies: lists.map { $0?.count ?? 0 }
        )
        let places = search.distinct.indices.filter { lists[$0] != nil }
            .sorted { (statistics.documentFrequencies[$0], $0) < (statistics.documentFrequencies[$1], $1) }
        var unread = places.reduce(0.0) { $0 + search.bound($1, statistics) }
        var scored: [(id: Entity.ID, text: String?, score: Double)] = []
        var seen = Set<Entity.ID>()
        for (step, place) in places.enumerated() {
            if let first, scored.count >= first, step > 0 {
                let threshold = scored.map(\.score).sorted(by: >)[first - 1]
                if unread < threshold { break }
            }
            for id in lists[place]!.keys where seen.insert(id).inserted {
                var document = FullTextSearch<Entity>.Document(length: Int(lengths[id] ?? 0), frequencies: [:])
                for other in places {
                    if let count = lists[other]![id] { document.frequencies[other] = Int(count) }
                }
                scored.append((id, nil, search.score(document, statistics)))
            }
            unread -= search.bound(place, statistics)
        }
        return FullTextSearch<Entity>.ranked(scored, first: first)
    }

    override func copy() -> MemoryIndex<Entity> {
        let copy = FullTextMemoryIndex(textKeyPaths)
        (copy.postings, copy.lengths, copy.totalLength) = (postings, lengths, totalLength)
        return copy
    }

    override func mismatch(with entities: [Entity]) -> String? {
        let fresh = FullTextMemoryIndex(textKeyPaths)
        for entity in entities { fresh.insert(entity) }
        guard fresh.lengths == lengths, fresh.totalLength == totalLength else {
            return "the full-text index of \(textKeyPaths) holds \(lengths.count) lengths summing to \(totalLength), its entities \(fresh.lengths.count) summing to \(fresh.totalLength)"
        }
        guard fresh.postings == postings else {
            return "the full-text index of \(textKeyPaths) holds \(postings.count) trigrams, its entities \(fresh.postings.count), or other counts"
        }
        return nil
    }
}
