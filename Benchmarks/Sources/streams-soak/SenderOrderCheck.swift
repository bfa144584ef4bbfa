/// Checks the order of the ``Stamp``s a subscriber receives, sender by sender.
///
/// A subject delivers the values one thread sends in the order that thread sent them. A subscriber
/// that always has demand misses none of them while it is attached, so each sender's values reach it
/// as an unbroken run (``Order/contiguous``); one that runs out of demand may miss some
/// (``Order/increasing``); a publisher that reads a changing value and may read the same one twice,
/// as the Observation bridge does, never goes back (``Order/nondecreasing``).
struct SenderOrderCheck: ValueCheck {
    /// How each sender's values must follow one another.
    enum Order {
        /// Each value is the one after the previous: nothing missing, nothing repeated.
        case contiguous
        /// Each value comes after the previous one; some may be missing.
        case increasing
        /// No value comes before the previous one; a value may repeat.
        case nondecreasing
    }

    /// No value from that sender yet.
    static let none = Int.min

    /// How each sender's values must follow one another.
    let order: Order
    /// The first sequence number received from each sender, or ``none``.
    private(set) var first: [Int]
    /// The last sequence number received from each sender, or ``none``.
    private(set) var last: [Int]

    /// A check for values from `senders` sender threads.
    init(senders: Int, order: Order) {
        self.order = order
        first = Array(repeating: Self.none, count: senders)
        last = Array(repeating: Self.none, count: senders)
    }

    /// Checks that the stamp follows the previous one from the same sender as ``order`` requires.
    mutating func check(_ stamp: Stamp) -> String? {
        guard last.indices.contains(stamp.sender) else { return "a value from unknown sender \(stamp.sender)" }
        let previous = last[stamp.sender]
        last[stamp.sender] = stamp.sequence
        guard previous != Self.none else {
            first[stamp.sender] = stamp.sequence
            return nil
        }
        let inOrder =
            switch order {
            case .contiguous: stamp.sequence == previous + 1
            case .increasing: stamp.sequence > previous
            case .nondecreasing: stamp.sequence >= previous
            }
        return inOrder ? nil : "sender \(stamp.sender): \(stamp.sequence) after \(previous) (\(order))"
    }

    /// Nothing more to check at the end: the order was checked value by value.
    func checkFinished() -> String? {
        nil
    }

    /// Checks that the subscriber received exactly the sequence numbers `expected[sender]` (a range
    /// per sender; an empty range: nothing from that sender), for a contiguous subscriber that was
    /// attached for the whole run.
    func mismatch(expecting expected: [ClosedRange<Int>?]) -> String? {
        for sender in expected.indices {
            let received: ClosedRange<Int>? = first[sender] == Self.none ? nil : first[sender]...last[sender]
            if received != expected[sender] {
                return "sender \(sender): received \(describe(received)), expected \(describe(expected[sender]))"
            }
        }
        return nil
    }

    private func describe(_ range: ClosedRange<Int>?) -> String {
        range.map { "\($0.lowerBound)...\($0.upperBound)" } ?? "nothing"
    }
}
