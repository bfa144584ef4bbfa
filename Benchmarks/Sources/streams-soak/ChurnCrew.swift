import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The threads that make subscribers come and go. Each keeps a pool of attachments and, until the
/// deadline, replaces a random one at a time: it cancels the old one from its own thread, while the
/// senders keep sending, and attaches a new one; now and then it asks a subscriber paced in bursts for
/// more instead. Subscribers also leave on their own (those that cancel themselves after a few
/// values).
///
/// When the deadline passes, the threads stop churning and wait (``waitUntilStopped()``) while the
/// workload ends its publishers (``finish()``); then each thread cancels the attachments whose
/// publishers never complete, checks that the others received their completion, lets go of
/// everything, and checks that the subscriptions and objects it let go of were freed.
final class ChurnCrew: Sendable {
    /// Attachments each thread keeps at once.
    static let slots = 24
    /// The pause between two replacements, in microseconds: long enough for a subscriber to receive
    /// some values before it is replaced.
    static let pauseMicroseconds: UInt32 = 100
    /// How many released objects each thread checks at the end.
    static let releasesChecked = 256

    private let stopped = DispatchGroup()
    private let gate = DispatchSemaphore(value: 0)
    private let count: Int
    private let threads: ThreadGroup

    /// Starts `count` churn threads that attach with `attach` until `deadline`.
    init(
        count: Int, seed: UInt64, until deadline: ContinuousClock.Instant, ledger: WorkloadLedger,
        attach: @escaping @Sendable (inout SoakRandom) -> Attachment
    ) {
        self.count = count
        for _ in 0..<count { stopped.enter() }
        threads = ThreadGroup(count: count, name: "soak churn") { [stopped, gate] index in
            var random = SoakRandom(seed: seed, stream: 1_000 + UInt64(index))
            var ring = ReleaseRing(capacity: Self.releasesChecked)
            var pool = Self.churn(until: deadline, random: &random, ring: &ring, ledger: ledger, attach: attach)
            stopped.leave()
            gate.wait()
            Self.end(&pool, ring: &ring, ledger: ledger)
        }
    }

    /// Waits until every churn thread has stopped churning.
    func waitUntilStopped() {
        stopped.wait()
    }

    /// Lets the churn threads check and release what they still hold, and waits for them.
    func finish() {
        for _ in 0..<count { gate.signal() }
        threads.join()
    }

    /// Replaces attachments until the deadline; returns those attached then.
    private static func churn(
        until deadline: ContinuousClock.Instant, random: inout SoakRandom, ring: inout ReleaseRing,
        ledger: WorkloadLedger, attach: (inout SoakRandom) -> Attachment
    ) -> [Attachment] {
        var pool: [Attachment?] = Array(repeating: nil, count: slots)
        while ContinuousClock.now < deadline {
            let slot = Int.random(in: 0..<slots, using: &random)
            if let attachment = pool[slot] {
                if random.oneIn(4) {
                    attachment.poke(using: &random)
                } else {
                    attachment.detach()
                    for participant in attachment.participants { participant.checkEnded(expectingCompletion: false) }
                    attachment.release(into: &ring)
                    pool[slot] = nil
                }
            }
            if pool[slot] == nil {
                let start = ContinuousClock.now
                pool[slot] = attach(&random)
                ledger.noteAttach(taking: ContinuousClock.now - start)
            }
            usleep(pauseMicroseconds)
        }
        return pool.compactMap { $0 }
    }

    /// Ends what is still attached, checks it, releases it and checks that what was released was freed.
    private static func end(_ pool: inout [Attachment], ring: inout ReleaseRing, ledger: WorkloadLedger) {
        // First the attachments that never complete: they may keep alive what the others wait for (a
        // wrapper holding a model whose deallocation finishes the model's publishers).
        for attachment in pool where attachment.ending == .cancellation {
            attachment.detach()
            attachment.release(into: &ring)
        }
        let completing = pool.filter { $0.ending == .completion }
        pool.removeAll()
        let participants = completing.flatMap(\.participants)
        for participant in participants { participant.openUpDemand() }
        _ = waitUntil(seconds: 10) { participants.allSatisfy(\.hasEnded) }
        for participant in participants { participant.checkEnded(expectingCompletion: true) }
        for attachment in completing { attachment.release(into: &ring) }
        let released = ring
        if !waitUntil(seconds: 5, { released.aliveCount == 0 }) {
            ledger.violation(
                "\(released.aliveCount) of the last \(releasesChecked) objects a churn thread released were never "
                    + "freed (first: \(released.firstAlive ?? "?"))")
        }
    }
}
