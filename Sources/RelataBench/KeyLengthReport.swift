import Relata

/// Issue 3's key-length report: mean and maximum position-key length after 100,000 random
/// inserts and moves, and after 10,000 appends at the end and 10,000 prepends.
enum KeyLengthReport {
    struct Lengths {
        let count: Int
        let mean: Double
        let max: Int
    }

    static func lengths(_ keys: some Collection<PositionKey>) -> Lengths {
        let total = keys.reduce(0) { $0 + $1.length }
        return Lengths(count: keys.count, mean: Double(total) / Double(max(keys.count, 1)), max: keys.map(\.length).max() ?? 0)
    }

    /// Random inserts (at random indexes) and moves (a random element to a random index), half each.
    static func randomInsertsAndMoves(_ operations: Int = 100_000, seed: UInt64 = 3) -> Lengths {
        var generator = SplitMix(seed: seed)
        var list = ChunkedList()
        for _ in 0..<operations {
            if list.count < 2 || Bool.random(using: &generator) {
                let index = Int.random(in: 0...list.count, using: &generator)
                list.insert(key(at: index, in: list, using: &generator), at: index)
            } else {
                list.remove(at: Int.random(in: 0..<list.count, using: &generator))
                let index = Int.random(in: 0...list.count, using: &generator)
                list.insert(key(at: index, in: list, using: &generator), at: index)
            }
        }
        return lengths(list.all)
    }

    static func key(at index: Int, in list: ChunkedList, using generator: inout SplitMix) -> PositionKey {
        try! PositionKey.between(index > 0 ? list[index - 1] : nil, index < list.count ? list[index] : nil, using: &generator)
    }

    static func appends(_ count: Int = 10_000) -> Lengths {
        var keys: [PositionKey] = []
        for _ in 0..<count { keys.append(try! PositionKey.between(keys.last, nil)) }
        return lengths(keys)
    }

    static func prepends(_ count: Int = 10_000) -> Lengths {
        var keys: [PositionKey] = []
        for _ in 0..<count { keys.append(try! PositionKey.between(nil, keys.last)) }
        return lengths(keys)
    }
}

/// A list with O(√n) insert and remove at an index: enough for 100,000 random operations.
struct ChunkedList {
    private var chunks: [[PositionKey]] = [[]]
    private(set) var count = 0

    subscript(index: Int) -> PositionKey {
        let (chunk, offset) = locate(index)
        return chunks[chunk][offset]
    }

    var all: [PositionKey] { chunks.flatMap { $0 } }

    private func locate(_ index: Int) -> (Int, Int) {
        var rest = index
        for (i, chunk) in chunks.enumerated() {
            if rest < chunk.count || i == chunks.count - 1 { return (i, rest) }
            rest -= chunk.count
        }
        return (chunks.count - 1, rest)
    }

    mutating func insert(_ key: PositionKey, at index: Int) {
        let (chunk, offset) = locate(index)
        chunks[chunk].insert(key, at: offset)
        count += 1
        if chunks[chunk].count > 512 {
            let upper = Array(chunks[chunk][256...])
            chunks[chunk].removeSubrange(256...)
            chunks.insert(upper, at: chunk + 1)
        }
    }

    mutating func remove(at index: Int) {
        let (chunk, offset) = locate(index)
        chunks[chunk].remove(at: offset)
        count -= 1
        if chunks[chunk].isEmpty, chunks.count > 1 { chunks.remove(at: chunk) }
    }
}
