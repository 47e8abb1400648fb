/// A small, fast seeded random number generator (SplitMix64).
///
/// For numbers that must differ, not be unpredictable: download ids (made unique by checking,
/// thousands at a time by `haul add -i`, where the system generator costs one `getrandom` call
/// per number) and the seeded random cases of the test suite, which a seed replays.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// Seeded from the system generator.
    public init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
