import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// The thread-safety contract of the subjects, and of what is built on them, under many threads:
/// a send from another thread returns after its value reached every subscriber with demand;
/// re-entrant sends are queued, not nested; subscribing, requesting and cancelling may happen on any
/// thread at any time; and everything is freed afterwards.
@Suite(.timeLimit(.minutes(3))) struct SubjectStressTests {
    static let senders = 4
    static let sendsPerThread = 2_000

    @Test func passthroughSendReturnsOnlyAfterEverySubscriberReceivedTheValue() {
        let subject = PassthroughSubject<StressValue, Never>()
        let probes = (0..<3).map { _ in ContractProbe(senders: Self.senders) }
        for probe in probes { subject.subscribe(probe) }
        let early = Atomic<Int>(0)
        runOnThreads(Self.senders) { sender in
            for sequence in 0..<Self.sendsPerThread {
                subject.send(StressValue(sender: sender, sequence: sequence))
                for probe in probes where probe.lastSequence(from: sender) != sequence {
                    early.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(early.load(ordering: .relaxed) == 0, "send returned before a subscriber received the value")
        for probe in probes {
            #expect(probe.received == Self.senders * Self.sendsPerThread)
            #expect(probe.violations == [])
        }
    }

    @Test func currentValueSubjectWithSubscribersComingAndGoingOnOtherThreads() {
        let subject = CurrentValueSubject<StressValue, Never>(StressValue(sender: -1, sequence: 0))
        let steady = ContractProbe(senders: 2)
        subject.subscribe(steady)
        let tracked = WeakReferences()
        let lateValues = Atomic<Int>(0)
        let breaches = Atomic<Int>(0)
        runOnThreads(6) { thread in
            if thread < 2 {
                for sequence in 0..<Self.sendsPerThread {
                    subject.send(StressValue(sender: thread, sequence: sequence))
                    if steady.lastSequence(from: thread) != sequence { breaches.add(1, ordering: .relaxed) }
                }
            } else {
                for round in 0..<100 {
                    let probe = ContractProbe(senders: 2, initialDemand: round % 2 == 0 ? .unlimited : .max(3))
                    tracked.track(probe)
                    subject.subscribe(probe)
                    // A subscriber of a current-value subject has its current value by the time its
                    // request returns (and perhaps values sent since).
                    if probe.received < 1 { breaches.add(1, ordering: .relaxed) }
                    probe.cancel()
                    if probe.valuesAfterCancel > 1 { lateValues.add(1, ordering: .relaxed) }
                    if !probe.violations.isEmpty { breaches.add(1, ordering: .relaxed) }
                }
            }
        }
        #expect(breaches.load(ordering: .relaxed) == 0)
        #expect(lateValues.load(ordering: .relaxed) == 0)
        #expect(steady.received == 1 + 2 * Self.sendsPerThread)
        #expect(steady.violations == [])
        #expect(tracked.count == 400)
        #expect(tracked.alive == 0, "cancelled subscribers are released")
        #expect(subject.value.sequence == Self.sendsPerThread - 1)
    }

    @Test func boundedDemandRequestedFromOtherThreadsIsNeverExceeded() {
        let subject = PassthroughSubject<StressValue, Never>()
        let probes = (0..<2).map { _ in ContractProbe(senders: 2, initialDemand: .max(1)) }
        for probe in probes { subject.subscribe(probe) }
        runOnThreads(4) { thread in
            if thread < 2 {
                for sequence in 0..<Self.sendsPerThread {
                    subject.send(StressValue(sender: thread, sequence: sequence))
                }
            } else {
                for _ in 0..<Self.sendsPerThread / 2 { probes[thread - 2].request(.max(1)) }
            }
        }
        for probe in probes {
            // The probe checks each value against what it had requested by then.
            #expect(probe.violations == [])
            #expect(probe.received <= 1 + Self.sendsPerThread / 2)
            #expect(probe.received >= 1)
        }
    }

    @Test func currentValueOwedOnRequestIsDeliveredWhileOtherThreadsSend() {
        let subject = CurrentValueSubject<StressValue, Never>(StressValue(sender: -1, sequence: 0))
        let probe = ContractProbe(senders: 2, initialDemand: .none)
        subject.subscribe(probe)
        let requests = 200
        runOnThreads(3) { thread in
            if thread < 2 {
                for sequence in 0..<Self.sendsPerThread {
                    subject.send(StressValue(sender: thread, sequence: sequence))
                }
            } else {
                for _ in 0..<requests { probe.request(.max(1)) }
            }
        }
        // Never more than requested; and a subscriber left with demand has missed nothing: it holds
        // the subject's final value (a value it missed for lack of demand is owed to it, as the
        // current value, when it next requests).
        #expect((1...requests).contains(probe.received))
        if probe.received < requests {
            #expect(probe.lastValue == subject.value)
        }
        #expect(probe.violations == [])
    }

    @Test func reentrantSendsAreDeliveredRightAfterTheValueThatCausedThemWhileOthersWait() {
        let subject = PassthroughSubject<StressValue, Never>()
        let echoes = StressValue(sender: -1, sequence: 0)
        let logs = (0..<3).map { _ in TestSubscriber<StressValue, Never>() }
        // The first subscriber answers each tenth value with an echo sent into the same subject.
        logs[0].onReceiveValue { value in
            if value.sender >= 0 && value.sequence % 10 == 0 {
                subject.send(StressValue(sender: -1 - value.sender, sequence: value.sequence))
            }
        }
        for log in logs { subject.subscribe(log) }
        runOnThreads(Self.senders) { sender in
            for sequence in 0..<Self.sendsPerThread {
                subject.send(StressValue(sender: sender, sequence: sequence))
            }
        }
        let expectedCount = Self.senders * Self.sendsPerThread * 11 / 10
        for log in logs {
            let values = log.values
            #expect(values.count == expectedCount)
            // Every echo comes right after its cause, for every subscriber: the thread delivering
            // delivers what it queued before any other thread's value.
            var misplaced = 0
            for (index, value) in values.enumerated() where value.sender < 0 {
                let cause = index > 0 ? values[index - 1] : echoes
                if cause.sender != -1 - value.sender || cause.sequence != value.sequence { misplaced += 1 }
            }
            #expect(misplaced == 0)
        }
        #expect(logs[0].values == logs[1].values)
        #expect(logs[1].values == logs[2].values)
    }

    @Test func feedbackThroughAnotherSubjectOnTheSameThreadDoesNotWait() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let firstValues = TestSubscriber<Int, Never>()
        let secondValues = TestSubscriber<Int, Never>()
        // first → second → first again, on the delivering thread, for positive values only.
        let forward = first.filter { $0 > 0 }.sink { second.send($0) }
        let back = second.sink { first.send(-$0) }
        first.subscribe(firstValues)
        second.subscribe(secondValues)
        runOnThreads(3) { thread in
            for index in 1...Self.sendsPerThread {
                first.send(thread * 10_000 + index)
            }
        }
        let sent = 3 * Self.sendsPerThread
        #expect(firstValues.values.count == 2 * sent)
        #expect(secondValues.values.count == sent)
        #expect(Set(firstValues.values.filter { $0 < 0 }.map { -$0 }) == Set(secondValues.values))
        _ = (forward, back)
    }

    @Test func subscribersCancellingThemselvesAndOthersDuringDelivery() {
        let subject = PassthroughSubject<StressValue, Never>()
        let tracked = WeakReferences()
        let steady = ContractProbe(senders: 2)
        subject.subscribe(steady)
        let lateValues = Atomic<Int>(0)
        let delivered = Atomic<Int>(0)
        runOnThreads(3) { thread in
            if thread < 2 {
                for sequence in 0..<Self.sendsPerThread {
                    subject.send(StressValue(sender: thread, sequence: sequence))
                }
            } else {
                for _ in 0..<150 {
                    // A pair in which the first cancels itself and the second on its first value.
                    let victim = ContractProbe(senders: 2)
                    let killer = ContractProbe(senders: 2)
                    tracked.track(victim)
                    tracked.track(killer)
                    // Weak: a delivery already under way may still reach the killer after this
                    // iteration has let go of both.
                    killer.onReceive { [weak killer, weak victim] _ in
                        delivered.add(1, ordering: .relaxed)
                        killer?.cancel()
                        victim?.cancel()
                    }
                    subject.subscribe(killer)
                    subject.subscribe(victim)
                    // Nothing may stay subscribed: cancel from this thread too, racing the delivery.
                    victim.cancel()
                    killer.cancel()
                    if killer.valuesAfterCancel > 1 || victim.valuesAfterCancel > 1 {
                        lateValues.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        #expect(lateValues.load(ordering: .relaxed) == 0)
        #expect(steady.received == 2 * Self.sendsPerThread)
        #expect(steady.violations == [])
        #expect(tracked.alive == 0, "cancelled subscribers are released")
    }

    @Test func completionFromAnotherThreadEndsDeliveryForEveryone() {
        let subject = PassthroughSubject<StressValue, Never>()
        let probes = (0..<3).map { _ in ContractProbe(senders: 2) }
        for probe in probes { subject.subscribe(probe) }
        let completedEarly = Atomic<Int>(0)
        runOnThreads(3) { thread in
            if thread < 2 {
                for sequence in 0..<Self.sendsPerThread {
                    subject.send(StressValue(sender: thread, sequence: sequence))
                }
            } else {
                for _ in 0..<Self.sendsPerThread / 2 { _ = probes[0].received }
                subject.send(completion: .finished)
                // send(completion:) has returned: every subscriber has its completion.
                for probe in probes where probe.completions != 1 { completedEarly.add(1, ordering: .relaxed) }
            }
        }
        #expect(completedEarly.load(ordering: .relaxed) == 0)
        let counts = probes.map(\.received)
        #expect(counts.allSatisfy { $0 == counts[0] }, "every subscriber saw the same values before the end")
        for probe in probes {
            #expect(probe.completions == 1)
            #expect(probe.violations == [])
        }
    }

    @Test func slowSubscribersMakeSendersParkAndEverySendIsServed() {
        let subject = PassthroughSubject<StressValue, Never>()
        let probe = ContractProbe(senders: 6)
        // Long enough per value that waiting senders stop spinning and park.
        probe.onReceive { _ in
            let counter = Atomic<Int>(0)
            for _ in 0..<20_000 { counter.add(1, ordering: .relaxed) }
        }
        subject.subscribe(probe)
        let early = Atomic<Int>(0)
        runOnThreads(6) { sender in
            for sequence in 0..<40 {
                subject.send(StressValue(sender: sender, sequence: sequence))
                if probe.lastSequence(from: sender) != sequence { early.add(1, ordering: .relaxed) }
            }
        }
        #expect(early.load(ordering: .relaxed) == 0)
        #expect(probe.received == 6 * 40)
        #expect(probe.violations == [])
    }

    @Test func storeUpdatesFromManyThreadsArePublishedBeforeUpdateReturns() {
        struct Counters: Equatable, Sendable {
            var perThread = [0, 0, 0, 0]
            var total = 0
        }
        let store = Store(Counters())
        let seen = SchedulerTestBox(Counters())
        let history = TestSubscriber<Counters, Never>()
        store.subject.subscribe(history)
        let recorder = store.subject.sink { state in seen.withValue { $0 = state } }
        let totals = TestSubscriber<Int, Never>()
        store.slice(\.total).subscribe(totals)
        let unpublished = Atomic<Int>(0)
        runOnThreads(4) { thread in
            for done in 1...250 {
                store.update {
                    $0.perThread[thread] += 1
                    $0.total += 1
                }
                // This update's state, or a later one, has been published.
                if seen.value.perThread[thread] < done { unpublished.add(1, ordering: .relaxed) }
            }
        }
        #expect(unpublished.load(ordering: .relaxed) == 0)
        #expect(store.state.perThread == [250, 250, 250, 250])
        #expect(history.values.map(\.total) == Array(0...1000), "every update published, in order")
        #expect(totals.values == Array(0...1000))
        _ = recorder
    }

    @Test func publishedPropertyWrittenFromManyThreads() {
        final class Model: ObservableObject, @unchecked Sendable {
            // @unchecked: @Published storage is thread-safe.
            @Published var value = StressValue(sender: -1, sequence: 0)
        }
        let model = Model()
        let willChange = TestSubscriber<Void, Never>()
        model.objectWillChange.subscribe(willChange)
        let values = ContractProbe(senders: Self.senders)
        model.$value.subscribe(values)
        let early = Atomic<Int>(0)
        runOnThreads(Self.senders) { sender in
            for sequence in 0..<200 {
                model.value = StressValue(sender: sender, sequence: sequence)
                if values.lastSequence(from: sender) != sequence { early.add(1, ordering: .relaxed) }
            }
        }
        #expect(early.load(ordering: .relaxed) == 0)
        #expect(willChange.values.count == Self.senders * 200)
        #expect(values.received == 1 + Self.senders * 200)
        #expect(values.violations == [])
    }

    @Test func chainsAreFreedAfterConcurrentUse() {
        let tracked = WeakReferences()
        do {
            let subject = PassthroughSubject<StressValue, Never>()
            tracked.track(subject)
            let probes = (0..<4).map { _ in ContractProbe(senders: 2) }
            for probe in probes {
                tracked.track(probe)
                subject.map { $0 }.filter { _ in true }.subscribe(probe)
            }
            runOnThreads(4) { thread in
                if thread < 2 {
                    for sequence in 0..<Self.sendsPerThread {
                        subject.send(StressValue(sender: thread, sequence: sequence))
                    }
                } else {
                    for (index, probe) in probes.enumerated() where index % 2 == thread - 2 {
                        probe.cancel()
                    }
                }
            }
            subject.send(completion: .finished)
            #expect(probes.allSatisfy { $0.violations.isEmpty })
        }
        #expect(tracked.alive == 0)
    }
}
