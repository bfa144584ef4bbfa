import Testing

@testable import Streams

/// The striped table the observation registries use: a key always reaches the same stripe, and
/// threads working on many keys at once lose no update.
@Suite(.timeLimit(.minutes(1))) struct LockStripesTests {
    @Test func aKeyAlwaysReachesTheSameStripe() {
        let table = LockStripes(count: 8, initial: [Int: String]())
        for key in 0..<100 {
            table.withStripe(for: key) { $0[key] = "value \(key)" }
        }
        for key in 0..<100 {
            #expect(table.withStripe(for: key) { $0[key] } == "value \(key)")
        }
        // Keys that share a stripe share its table: the stripe of key 0 holds more than key 0 when
        // 100 keys fall into 8 stripes.
        #expect(table.withStripe(for: 0) { $0.count } > 1)
    }

    @Test func threadsUpdatingManyKeysLoseNothing() {
        let table = LockStripes(initial: [Int: Int]())
        let threads = 8
        let keys = 256
        let rounds = 200
        runOnThreads(threads) { _ in
            for _ in 0..<rounds {
                for key in 0..<keys { table.withStripe(for: key) { $0[key, default: 0] += 1 } }
            }
        }
        for key in 0..<keys {
            #expect(table.withStripe(for: key) { $0[key] } == threads * rounds)
        }
    }
}
