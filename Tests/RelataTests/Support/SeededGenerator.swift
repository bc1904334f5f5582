import Foundation

/// A deterministic random generator (SplitMix64): property and fuzz tests draw from a fixed seed,
/// so a failure repeats; `RELATA_LONG_RUN=1` makes them run many more rounds.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// How many rounds a property or fuzz test runs: `normal`, or `long` under `RELATA_LONG_RUN=1`.
    static func rounds(normal: Int, long: Int) -> Int {
        ProcessInfo.processInfo.environment["RELATA_LONG_RUN"] == "1" ? long : normal
    }
}
