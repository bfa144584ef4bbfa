/// A small, fast, seeded random number generator (SplitMix64), one per thread, so that a run can be
/// repeated with the same choices (`--seed`) and choosing costs no system call.
struct SoakRandom: RandomNumberGenerator {
    private var state: UInt64

    /// A generator for one thread: the run's seed mixed with a number that tells the threads apart.
    init(seed: UInt64, stream: UInt64) {
        state = seed ^ (stream &* 0x9E37_79B9_7F4A_7C15)
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// True once in `times` calls, on average.
    mutating func oneIn(_ times: Int) -> Bool {
        Int.random(in: 0..<times, using: &self) == 0
    }
}
