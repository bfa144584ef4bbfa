import Streams
import Synchronization
import Testing

/// flatMap's new publishers sending from threads of their own: each value has gone downstream by the
/// time its `send` returns, one at a time and in each sender's order.
@Suite(.timeLimit(.minutes(3))) struct FlatMapTurnStressTests {
    @Test(arguments: [Subscribers.Demand.unlimited, .max(1_000_000)])
    func innerSendsFromManyThreadsReturnAfterDelivery(demand: Subscribers.Demand) {
        let senders = 4
        let sends = 1_000
        let inners = (0..<senders).map { _ in PassthroughSubject<StressValue, Never>() }
        let outer = PassthroughSubject<PassthroughSubject<StressValue, Never>, Never>()
        let probe = ContractProbe(senders: senders, initialDemand: demand)
        outer.flatMap { $0 }.subscribe(probe)
        for inner in inners { outer.send(inner) }
        let early = Atomic<Int>(0)
        runOnThreads(senders) { sender in
            for sequence in 0..<sends {
                inners[sender].send(StressValue(sender: sender, sequence: sequence))
                if probe.lastSequence(from: sender) != sequence { early.add(1, ordering: .relaxed) }
            }
        }
        #expect(early.load(ordering: .relaxed) == 0, "an inner send returned before its value went downstream")
        #expect(probe.received == senders * sends)
        #expect(probe.violations == [])
    }

    @Test func innerSendsWaitingForTheTurnSeeCancellationAndAreReleased() {
        let tracked = WeakReferences()
        do {
            let inners = (0..<4).map { _ in PassthroughSubject<StressValue, Never>() }
            let outer = PassthroughSubject<PassthroughSubject<StressValue, Never>, Never>()
            let probe = ContractProbe(senders: 4)
            tracked.track(probe)
            outer.flatMap { $0 }.subscribe(probe)
            for inner in inners { outer.send(inner) }
            runOnThreads(5) { thread in
                if thread < 4 {
                    for sequence in 0..<1_000 {
                        inners[thread].send(StressValue(sender: thread, sequence: sequence))
                    }
                } else {
                    for _ in 0..<100 { _ = probe.received }
                    probe.cancel()
                }
            }
            #expect(probe.valuesAfterCancel <= 1)
            #expect(probe.violations == [])
        }
        #expect(tracked.alive == 0)
    }
}
