/// A pseudo-random generator (SplitMix64) whose output depends only on its seed, so a randomized test
/// can be replayed exactly from the seed it prints.
///
/// Its helpers draw numbers with their own arithmetic rather than the standard library's
/// `random(in:using:)`, whose algorithm is not guaranteed to stay the same across toolchains.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// A generator for the `index`-th of several independent streams drawn from one seed: case `index`
    /// of a run replays the same whatever the other cases drew.
    init(seed: UInt64, stream index: Int) {
        var mixer = SeededRandom(seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
        state = mixer.next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`. (The slight modulo bias does not matter for test generation.)
    mutating func int(in range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % width)
    }

    /// True with the given probability, in percent.
    mutating func chance(_ percent: Int) -> Bool {
        int(in: 0...99) < percent
    }

    /// One of `elements`, all equally likely.
    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[int(in: 0...(elements.count - 1))]
    }

    /// One of `choices`, each as likely as its weight.
    mutating func pick<Element>(weighted choices: [(weight: Int, element: Element)]) -> Element {
        var draw = int(in: 0...(choices.reduce(0) { $0 + $1.weight } - 1))
        for choice in choices {
            if draw < choice.weight { return choice.element }
            draw -= choice.weight
        }
        return choices[choices.count - 1].element
    }
}
