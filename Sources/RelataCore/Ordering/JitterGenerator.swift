/// The fast random number generator (SplitMix64) that jitters position keys.
///
/// Each context storage owns one, seeded from the system generator whenever the storage is
/// created or copied, so two copies of one snapshot do not draw the same keys.
@usableFromInline
struct JitterGenerator: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    @usableFromInline
    init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    @inlinable
    init(seed: UInt64) { state = seed }

    @inlinable
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
