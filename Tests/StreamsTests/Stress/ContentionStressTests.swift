import Dispatch
import Streams
import Synchronization
import Testing

/// Many more threads than processors on one subject: senders that wait for the turn sleep and are
/// all served, in each one's order, each `send` returning after its value arrived; subscribers that
/// come and go on many threads never keep a sender from sending, and leave nothing behind.
@Suite(.timeLimit(.minutes(3))) struct ContentionStressTests {
    @Test func manySendersIntoOneSubjectAreAllServedInTheirOrder() {
        let senders = 24
        let sends = 2_000
        let subject = PassthroughSubject<StressValue, Never>()
        let probes = (0..<2).map { _ in ContractProbe(senders: senders) }
        for probe in probes { subject.subscribe(probe) }
        let early = Atomic<Int>(0)
        runOnThreads(senders) { sender in
            for sequence in 0..<sends {
                subject.send(StressValue(sender: sender, sequence: sequence))
                for probe in probes where probe.lastSequence(from: sender) != sequence {
                    early.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(early.load(ordering: .relaxed) == 0, "send returned before a subscriber received the value")
        for probe in probes {
            #expect(probe.received == senders * sends)
            #expect(probe.violations == [])
        }
    }

    @Test func aSlowSubscriberMakesManySendersParkAndWakesEveryOne() {
        let senders = 16
        let subject = PassthroughSubject<StressValue, Never>()
        let probe = ContractProbe(senders: senders)
        // Long enough per value that waiting senders stop spinning and park.
        probe.onReceive { _ in _ = stressSpin(200_000) }
        subject.subscribe(probe)
        runOnThreads(senders) { sender in
            for sequence in 0..<10 {
                subject.send(StressValue(sender: sender, sequence: sequence))
            }
        }
        #expect(probe.received == senders * 10)
        #expect(probe.violations == [])
    }

    /// The subscribe-and-cancel rounds each churning thread makes at least, whenever the sender ends.
    static let leastChurnRounds = 200

    @Test func subscribersChurningOnManyThreadsNeverStarveTheSender() {
        let churners = 12
        let sends = 3_000
        let subject = PassthroughSubject<Int, Never>()
        let steady = Mutex<[Int]>([])
        let steadySubscription = subject.sink { value in steady.withLock { $0.append(value) } }
        let senderDone = Atomic<Bool>(false)
        let secondLateValues = Atomic<Int>(0)
        let rounds = Atomic<Int>(0)
        let tracked = WeakReferences()
        runOnThreads(churners + 1) { thread in
            if thread == 0 {
                for value in 0..<sends { subject.send(value) }
                senderDone.store(true, ordering: .releasing)
                return
            }
            // Subscribe and cancel a number of times, and on for as long as the sender sends: a
            // sender kept busy by the churn would never finish, and the test would reach its
            // deadline.
            var round = 0
            while round < Self.leastChurnRounds || !senderDone.load(ordering: .acquiring) {
                round += 1
                let box = ChurnBox()
                tracked.track(box)
                let cancellable = subject.map { $0 * 2 }.sink { [box] _ in
                    // A value already being handed over when cancel() is called may still arrive
                    // after it returned; a second one may not.
                    if box.cancelled.load(ordering: .acquiring), box.late.add(1, ordering: .relaxed).newValue > 1 {
                        secondLateValues.add(1, ordering: .relaxed)
                    }
                }
                cancellable.cancel()
                box.cancelled.store(true, ordering: .releasing)
                rounds.add(1, ordering: .relaxed)
            }
        }
        steadySubscription.cancel()
        #expect(steady.withLock { $0 } == Array(0..<sends), "the steady subscriber got every value, in order")
        #expect(
            secondLateValues.load(ordering: .relaxed) == 0, "nothing arrives after cancel() but the value on its way")
        #expect(rounds.load(ordering: .relaxed) >= churners * Self.leastChurnRounds)
        #expect(tracked.alive == 0, "every cancelled subscriber is released")
    }
}

/// What a churning subscriber holds: whether it was cancelled and what arrived since, and a way to
/// see that it is released.
private final class ChurnBox: Sendable {
    let cancelled = Atomic<Bool>(false)
    let late = Atomic<Int>(0)
}
