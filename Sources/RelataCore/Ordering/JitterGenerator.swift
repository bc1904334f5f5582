import Synchronization

/// The fast random number generator (SplitMix64) that jitters position keys.
///
/// Each context storage owns one, seeded whenever the storage is created or copied, so two
/// copies of one snapshot do not draw the same keys: from a seed the system generator draws once
/// per process and a counter, mixed (a system call per context was a tenth of making one).
@usableFromInline
struct JitterGenerator: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    @usableFromInline
    init() {
        state = Self.mixed(Self.processSeed &+ Self.made.add(1, ordering: .relaxed).newValue)
    }

    /// Drawn from the system generator once per process.
    private static let processSeed: UInt64 = {
        var system = SystemRandomNumberGenerator()
        return system.next()
    }()

    /// How many generators this process seeded.
    private static let made = Atomic<UInt64>(0)

    /// SplitMix64's finalizer: each draw's output, and the start of a new generator (consecutive
    /// inputs give unrelated states, not states one step apart, whose draws would repeat).
    @inlinable
    static func mixed(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    @inlinable
    init(seed: UInt64) { state = seed }

    @inlinable
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mixed(state)
    }
}
