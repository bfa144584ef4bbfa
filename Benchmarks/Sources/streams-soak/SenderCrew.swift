import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sender threads: each sends ``Stamp``s numbered 0, 1, 2, ... until the deadline, and the crew tells,
/// once joined, how many each sent. A `send` is synchronous, so when the crew is joined every value
/// has been delivered.
///
/// Each sender sends bursts of ``burst`` values as fast as it can, with a pause of ``pauseMicroseconds``
/// between two bursts. Without the pauses, four threads that never stop sending keep the delivery
/// turn busy all the time, and a thread that must wait for it (a subscriber of a current-value
/// subject, owed the current value) spends each of its attempts behind whole scheduler time slices:
/// subscribers would hardly come and go at all.
final class SenderCrew: Sendable {
    /// Values a sender sends between two pauses.
    static let burst = 256
    /// The pause between two bursts, in microseconds.
    static let pauseMicroseconds: UInt32 = 20

    /// How many values each sender sent, written by each sender when it stops.
    private final class Counts: Sendable {
        let sent: Mutex<[Int]>

        init(senders: Int) {
            sent = Mutex(Array(repeating: 0, count: senders))
        }
    }

    private let threads: ThreadGroup
    private let counts: Counts

    /// Starts `count` sender threads that call `send` until `deadline`.
    init(count: Int, until deadline: ContinuousClock.Instant, send: @escaping @Sendable (Stamp) -> Void) {
        let counts = Counts(senders: count)
        self.counts = counts
        threads = ThreadGroup(count: count, name: "soak sender") { sender in
            var sequence = 0
            while ContinuousClock.now < deadline {
                for _ in 0..<Self.burst {
                    send(Stamp(sender: sender, sequence: sequence))
                    sequence += 1
                }
                usleep(Self.pauseMicroseconds)
            }
            counts.sent.withLock { $0[sender] = sequence }
        }
    }

    /// Waits for every sender to stop and returns how many values each sent.
    func join() -> [Int] {
        threads.join()
        return counts.sent.withLock { $0 }
    }
}
