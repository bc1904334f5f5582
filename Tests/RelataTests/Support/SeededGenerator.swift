import Foundation
@testable import RelataCore

/// A deterministic random generator (the library's own SplitMix64, seeded): property and fuzz
/// tests draw from a fixed seed, so a failure repeats; `RELATA_LONG_RUN=1` makes them run many
/// more rounds.
struct SeededGenerator: RandomNumberGenerator {
    private var base: JitterGenerator

    init(seed: UInt64) {
        base = JitterGenerator(seed: seed)
    }

    mutating func next() -> UInt64 {
        base.next()
    }

    /// How many rounds a property or fuzz test runs: `normal`, or `long` under `RELATA_LONG_RUN=1`.
    static func rounds(normal: Int, long: Int) -> Int {
        ProcessInfo.processInfo.environment["RELATA_LONG_RUN"] == "1" ? long : normal
    }
}
