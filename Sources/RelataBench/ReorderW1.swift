import Relata

/// W1 operation 6: one chat with 10,000 ordered messages; 1,000 random messages moved to random
/// places one at a time. Also replays the same operations on SwiftData's OrderedRelationship random-Int scheme.
enum ReorderW1 {
    struct Result {
        let build: Duration
        let moves: Duration
        let moveCount: Int
        let linksWritten: Int
        /// Positions OrderedRelationship's scheme (random Int between neighbours, every element rewritten
        /// when no integer is left) writes for the same appends and moves.
        let randomIntAppendWrites: Int
        let randomIntMoveWrites: Int
        let randomIntRewrites: Int
    }

    static func run(messages count: Int = 10_000, moves moveCount: Int = 1_000, seed: UInt64 = 6) throws -> Result {
        var generator = SplitMix(seed: seed)
        let plan = (0..<moveCount).map { _ in
            (Int.random(in: 0..<count, using: &generator), Int.random(in: 0..<count, using: &generator))
        }
        var context = Context()
        try User(id: "u", name: "u").save(to: &context)
        let buildStart = ContinuousClock.now
        for j in 0..<count {
            try Message(id: "m\(j)", text: "message \(j)", author: .id("u"), chat: .id("c")).save(to: &context)
        }
        let build = ContinuousClock.now - buildStart
        let chat = Chat(id: "c")
        context.beginRecordingChanges(replica: "bench")
        let start = ContinuousClock.now
        for (from, to) in plan {
            let id = "m\(from)"
            try chat.move(id, in: \.$messages, to: to, in: &context)
        }
        let moves = ContinuousClock.now - start
        precondition(context.count(of: "c", \Chat.$messages) == count)
        // The same appends and moves (message m<from> to index `to`) on OrderedRelationship's scheme.
        var scheme = RandomIntPositions(seed: seed)
        for j in 0..<count { scheme.insert(j, at: scheme.count) }
        let appendWrites = scheme.writes
        for (from, to) in plan { scheme.move(from, to: to) }
        return Result(
            build: build, moves: moves, moveCount: moveCount, linksWritten: context.changes.linkWriteCount,
            randomIntAppendWrites: appendWrites, randomIntMoveWrites: scheme.writes - appendWrites,
            randomIntRewrites: scheme.rewrites
        )
    }
}

/// SwiftData's OrderedRelationship ordering scheme: each element's position is a random Int
/// strictly between its neighbours' positions; when none is left, every element is rewritten
/// with evenly spaced positions.
struct RandomIntPositions {
    private(set) var positions: [Int] = []
    private(set) var elements: [Int] = []
    private(set) var writes = 0
    private(set) var rewrites = 0
    private var generator: SplitMix

    init(seed: UInt64) { generator = SplitMix(seed: seed) }

    var count: Int { positions.count }

    mutating func insert(_ element: Int, at index: Int) {
        let lower = index > 0 ? positions[index - 1] : Int.min
        let upper = index < positions.count ? positions[index] : Int.max
        elements.insert(element, at: index)
        if Int128(upper) - Int128(lower) > 1 {
            positions.insert(Int.random(in: (lower + 1)...(upper - 1), using: &generator), at: index)
            writes += 1
            return
        }
        // No integer left between the neighbours: respace every element, the new one included.
        positions.insert(0, at: index)
        let step = UInt64.max / UInt64(positions.count + 1)
        for i in positions.indices {
            positions[i] = Int(bitPattern: UInt(UInt64(i + 1) &* step)) &+ Int.min
        }
        writes += positions.count
        rewrites += 1
    }

    mutating func move(_ element: Int, to index: Int) {
        let from = elements.firstIndex(of: element)!
        positions.remove(at: from)
        elements.remove(at: from)
        insert(element, at: min(index, positions.count))
    }
}

/// SplitMix64, for reproducible benchmark plans.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
