import Synchronization

/// M3: `churners` threads each subscribe `map` + `sink` to one subject and cancel, again and again,
/// while one more thread sends 0, 1, 2, ... into that subject until the last churner has finished.
/// The rig is the same for every implementation, which supplies the subject's `send` and one
/// subscribe-then-cancel (`churn`).
///
/// The checks, per subscription: its values arrive in the order they were sent, none skipped (from
/// the first it receives); and nothing arrives after its `cancel()` returned except a value whose
/// `send` had begun before — the one a subject may have been handing over at that very moment. The
/// sender notes each value before it sends it; right after `churn` returns (so after the cancel
/// returned) the churner reads that note and leaves it in its ``ChurnRecorder``: a later value
/// delivered to that subscription was sent after the cancel had returned.
public enum ChurnRig {
    /// What the map of M3 does to a value: adds 1 (as scenario 3's map does).
    @inlinable
    public static func transform(_ value: Int) -> Int { value &+ 1 }

    /// Runs the churners and the sender. Each churner calls `churn` `pairsPerChurner` times with its
    /// recorder and the subscription's number (0 up); `churn` subscribes `map { ChurnRig.transform($0) }`
    /// + a sink that calls `recorder.receive(_:subscription:)`, then cancels. Timed from the moment the
    /// threads are let go until the last churner finished; the sender's values and time are in the
    /// outcome too.
    public static func run(
        churners: Int, pairsPerChurner: Int, send: @escaping (Int) -> Void,
        churn: @escaping (ChurnRecorder, Int) -> Void
    ) -> ScalingOutcome {
        let progress = SenderProgress(churners: churners)
        let (timing, results) = ThreadCrew.run(count: churners + 1) { thread, gate -> ThreadResult in
            if thread == churners {
                gate.arriveAndWait()
                var value = 0
                while !progress.stop.load(ordering: .relaxed) {
                    progress.started.store(value, ordering: .releasing)
                    send(value)
                    value += 1
                }
                return .sender(values: value, end: Probe.now())
            }
            // Made by the churning thread, so that it is allocated where that thread allocates.
            let recorder = ChurnRecorder()
            gate.arriveAndWait()
            for serial in 0..<pairsPerChurner {
                churn(recorder, serial)
                recorder.cancelled(serial, lastSendBegun: progress.started.load(ordering: .acquiring))
            }
            gate.finish(thread)
            if progress.churning.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                progress.stop.store(true, ordering: .relaxed)
            }
            return .churner(recorder)
        }
        var problems: [String] = []
        var senderValues = 0
        var senderNanoseconds: UInt64 = 0
        for (thread, result) in results.enumerated() {
            switch result {
            case .sender(let values, let end):
                senderValues = values
                senderNanoseconds = end > timing.start ? end - timing.start : 0
            case .churner(let recorder):
                problems += recorder.problems().map { "churning thread \(thread): \($0)" }
            }
        }
        return ScalingOutcome(
            nanoseconds: timing.nanoseconds, operations: churners * pairsPerChurner, problems: problems,
            senderValues: senderValues, senderNanoseconds: senderNanoseconds)
    }

    /// What a thread of the rig returns.
    private enum ThreadResult {
        case churner(ChurnRecorder)
        case sender(values: Int, end: UInt64)
    }

    /// What the sender and the churners share, on cache lines of its own.
    private final class SenderProgress: Sendable {
        /// The last value whose `send` has begun (-1: none yet).
        let started = Atomic<Int>(-1)
        /// Set once the last churner has finished: the sender stops.
        let stop = Atomic<Bool>(false)
        /// Churners still churning.
        let churning: Atomic<Int>
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

        init(churners: Int) {
            churning = Atomic(churners)
        }
    }
}

/// What the subscriptions of one M3 churning thread received, one subscription after another. The
/// churning thread notes each cancel; the deliveries come from the sending thread. Its counters are
/// atomics on cache lines of their own.
public final class ChurnRecorder: @unchecked Sendable {
    // @unchecked: `slots` points to atomics. The churning thread writes the cancel slots; the thread
    // delivering to the subscription writes the others (one at a time: a subscriber receives one
    // value at a time).

    /// 0: the last subscription whose cancel returned (-1: none); 1: the last value whose send had
    /// begun when it returned; 2: the subscription that received the previous value; 3: that value
    /// (as sent); 4: deliveries after a cancel returned; 5: deliveries out of order; 6: deliveries.
    @usableFromInline
    let slots: UnsafeMutablePointer<Atomic<Int>>

    private static let slotCount = 7

    /// A recorder whose subscriptions have received nothing.
    init() {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 128)
        slots = memory.bindMemory(to: Atomic<Int>.self, capacity: Self.slotCount)
        for slot in 0..<Self.slotCount { (slots + slot).initialize(to: Atomic(slot < 3 ? -1 : 0)) }
    }

    deinit {
        slots.deinitialize(count: Self.slotCount)
        UnsafeMutableRawPointer(slots).deallocate()
    }

    /// Notes that subscription `serial`'s cancel has returned, when the last value whose `send` had
    /// begun was `lastSendBegun`.
    func cancelled(_ serial: Int, lastSendBegun: Int) {
        slots[1].store(lastSendBegun, ordering: .relaxed)
        slots[0].store(serial, ordering: .releasing)
    }

    /// Records a value (mapped by ``ChurnRig/transform(_:)``) delivered to subscription `serial`.
    @inlinable
    public func receive(_ value: Int, subscription serial: Int) {
        let sent = value &- 1
        // Once subscription `serial` (or a later one) has been cancelled, the note left then (or a later,
        // larger one) bounds what may still arrive: a value sent after that came after the cancel.
        if slots[0].load(ordering: .acquiring) >= serial, sent > slots[1].load(ordering: .relaxed) {
            increment(4)
        }
        if slots[2].load(ordering: .relaxed) == serial {
            if sent != slots[3].load(ordering: .relaxed) &+ 1 { increment(5) }
        } else {
            slots[2].store(serial, ordering: .relaxed)
        }
        slots[3].store(sent, ordering: .relaxed)
        increment(6)
    }

    /// Adds 1 to a counter only the delivering thread writes: a plain load and store, no atomic
    /// read-modify-write.
    @inlinable
    func increment(_ slot: Int) {
        slots[slot].store(slots[slot].load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    }

    /// Values delivered in all.
    public var deliveries: Int { slots[6].load(ordering: .acquiring) }

    /// What went wrong: deliveries after a cancel returned, deliveries out of order.
    func problems() -> [String] {
        var problems: [String] = []
        let late = slots[4].load(ordering: .acquiring)
        if late > 0 {
            problems.append(
                "\(grouped(late)) deliveries of a value whose send began after the subscription's cancel() "
                    + "had returned")
        }
        let outOfOrder = slots[5].load(ordering: .acquiring)
        if outOfOrder > 0 {
            problems.append(
                "\(grouped(outOfOrder)) deliveries were not the value sent after the subscription's previous one "
                    + "(repeated, skipped or out of order)")
        }
        return problems
    }
}
