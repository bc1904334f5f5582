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
    /// Each held entity's number: the postings list numbers, not ids, so that they are plain
    /// integers (hashed and copied fast, and the code handling them is specialized).
    var numbers: [Entity.ID: Int32] = [:]
    /// The entity of each number (`nil`: a free number, in ``free``).
    var holders: [Entity.ID?] = []
    var free: [Int32] = []
    /// Trigram → (entity number → how often its text holds the trigram).
    var postings: [Trigram: [Int32: Int32]] = [:]
    /// Each number's entity's length in trigrams (0 for a free number).
    var lengths: [Int32] = []
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
        let number: Int32
        if let reused = free.popLast() {
            number = reused
            holders[Int(number)] = entity.id
            lengths[Int(number)] = length
        } else {
            number = Int32(holders.count)
            holders.append(entity.id)
            lengths.append(length)
        }
        numbers[entity.id] = number
        for (trigram, count) in counts { postings[trigram, default: [:]][number] = count }
        totalLength += Int(length)
    }

    override func remove(_ entity: Entity) {
        guard let number = numbers.removeValue(forKey: entity.id) else { return }
        for trigram in counts(of: entity).counts.keys {
            postings[trigram]?[number] = nil
            if postings[trigram]?.isEmpty == true { postings[trigram] = nil }
        }
        totalLength -= Int(lengths[Int(number)])
        lengths[Int(number)] = 0
        holders[Int(number)] = nil
        free.append(number)
    }

    override func ids(_ lookups: [IndexLookup<Entity>]) -> [Entity.ID]? {
        var lists: [[Int32: Int32]] = []
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
        return lists[smallest].keys.filter { number in others.allSatisfy { $0[number] != nil } }.map { holders[Int($0)]! }
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
            documents: numbers.count, totalLength: totalLength, documentFrequencies: lists.map { $0?.count ?? 0 }
        )
        let holding = search.distinct.indices.compactMap { place in lists[place].map { (place, $0) } }
        let scoring = FullTextSearch<Entity>.Scoring(search, statistics)
        // Scored by number; only those that rank are given their ids. Each entity's counts go
        // into one buffer, by place (a trigram it does not hold counts 0).
        var scored: [(number: Int32, score: Double)] = []
        var seen = Set<Int32>()
        var frequencies = [Int32](repeating: 0, count: search.distinct.count)
        _ = search.readRarestFirst(statistics, first: first, known: []) { place, scores in
            for number in lists[place]!.keys where seen.insert(number).inserted {
                for (other, list) in holding { frequencies[other] = list[number] ?? 0 }
                let score = scoring.score(length: Int(lengths[Int(number)]), frequencies: frequencies)
                scored.append((number, score))
                scores.append(score)
            }
            return true
        }
        let threshold = FullTextSearch<Entity>.threshold(of: scored.lazy.map { $0.score }, first: first)
        let ranking = scored.filter { $0.score >= threshold }.map { (id: holders[Int($0.number)]!, text: String?.none, score: $0.score) }
        return FullTextSearch<Entity>.ranked(ranking, first: first)
    }

    override func copy() -> MemoryIndex<Entity> {
        let copy = FullTextMemoryIndex(textKeyPaths)
        (copy.numbers, copy.holders, copy.free) = (numbers, holders, free)
        (copy.postings, copy.lengths, copy.totalLength) = (postings, lengths, totalLength)
        return copy
    }

    /// The postings and lengths by id (numbers are the index's own business).
    private var byID: (postings: [Trigram: [Entity.ID: Int32]], lengths: [Entity.ID: Int32]) {
        let postings = postings.mapValues { list in
            Dictionary(uniqueKeysWithValues: list.map { (holders[Int($0.key)]!, $0.value) })
        }
        return (postings, numbers.mapValues { lengths[Int($0)] })
    }

    override func mismatch(with entities: [Entity]) -> String? {
        for (id, number) in numbers where holders.indices.contains(Int(number)) == false || holders[Int(number)] != id {
            return "the full-text index of \(textKeyPaths) numbers \(id) \(number), held by another"
        }
        guard holders.count(where: { $0 != nil }) == numbers.count, free.allSatisfy({ holders[Int($0)] == nil && lengths[Int($0)] == 0 }) else {
            return "the full-text index of \(textKeyPaths) holds \(numbers.count) entities, its numbers disagree"
        }
        for list in postings.values where list.keys.contains(where: { holders.indices.contains(Int($0)) == false || holders[Int($0)] == nil }) {
            return "the full-text index of \(textKeyPaths) lists a free number"
        }
        let fresh = FullTextMemoryIndex(textKeyPaths)
        for entity in entities { fresh.insert(entity) }
        let (mine, theirs) = (byID, fresh.byID)
        guard theirs.lengths == mine.lengths, fresh.totalLength == totalLength else {
            return "the full-text index of \(textKeyPaths) holds \(numbers.count) lengths summing to \(totalLength), its entities \(fresh.numbers.count) summing to \(fresh.totalLength)"
        }
        guard theirs.postings == mine.postings else {
            return "the full-text index of \(textKeyPaths) holds \(postings.count) trigrams, its entities \(fresh.postings.count), or other counts"
        }
        return nil
    }
}
