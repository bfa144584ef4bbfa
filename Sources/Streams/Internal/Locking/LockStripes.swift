/// A table that objects unrelated to one another share, split into stripes, each with a lock of
/// its own: a key's hash picks its stripe, so work on different objects rarely meets on a lock, and
/// never on one every object shares.
///
/// Each stripe is an object of its own, padded to more than a cache line, so that threads working
/// in neighbouring stripes do not slow each other down through the memory they touch.
// @unchecked Sendable: each stripe's `value` is guarded by that stripe's `lock`.
final class LockStripes<Value>: @unchecked Sendable {
    /// One stripe: its part of the table and the lock that guards it.
    final class Stripe {
        let lock = Lock()

        /// Guarded by `lock`.
        @exclusivity(unchecked)
        var value: Value

        /// Keeps the next stripe's lock off this one's cache line.
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

        init(_ value: Value) {
            self.value = value
        }
    }

    private let stripes: [Stripe]

    /// A table of `count` stripes (a power of two), each starting as `initial`.
    init(count: Int = 64, initial: Value) {
        precondition(count > 0 && count & (count - 1) == 0, "a power of two stripes, got \(count)")
        stripes = (0..<count).map { _ in Stripe(initial) }
    }

    /// Runs `body` on the stripe of `key`, with that stripe's lock held.
    func withStripe<Key: Hashable, Result>(for key: Key, _ body: (inout Value) -> Result) -> Result {
        let stripe = stripes[key.hashValue & (stripes.count - 1)]
        return stripe.lock.withLock { body(&stripe.value) }
    }
}
