import Dispatch
import Streams

/// The Observation bridge: an `Observable` model whose counters the senders write, one counter each,
/// while churn threads attach and cancel `publisher(for:scheduler:)` subscribers on two serial
/// queues, `Deduplicated` wrappers of the model and `ObservedPublisher`s over the bridge.
///
/// The bridge reads a counter on the queue after each change, so a subscriber may skip values and
/// may read the same one twice, but never goes back: each subscriber's values must not decrease.
/// Residents, one per counter and queue (and one paced in bursts), must hold the final value once a
/// last write made while both queues wait has been read. Then the workload lets go of the model: every
/// bridge subscriber still attached must receive its completion, as the bridge finishes when the
/// model is deallocated.
struct ObservationBridgeWorkload: Workload {
    /// The snapshot of the `Deduplicated` wrappers: `counter2` in steps of this size.
    static let snapshotStep = 64

    var name: String { "observation-bridge" }

    var summary: String {
        "Observation bridge: an Observable model written from every thread; publisher(for:) subscribers "
            + "on two queues, Deduplicated and ObservedPublisher come and go"
    }

    func run(for duration: Duration, settings: SoakSettings, ledger: WorkloadLedger) {
        var released = ReleaseRing(capacity: 1)
        exercise(for: duration, settings: settings, ledger: ledger, released: &released)
        ledger.expectFreed(released, name)
    }

    private func exercise(
        for duration: Duration, settings: SoakSettings, ledger: WorkloadLedger, released: inout ReleaseRing
    ) {
        let queues = (0..<2).map { DispatchQueue(label: "soak observation \($0)") }
        var model: ObservableCounters? = ObservableCounters()
        released.note(model!)
        // One resident per counter and queue, and one paced in bursts: (counter, subscriber).
        let residents =
            (0..<ObservableCounters.count).flatMap { index in
                queues.map { queue in
                    (
                        index,
                        attachResident(to: model!, counter: index, queue: queue, pacing: .unlimited, ledger: ledger)
                    )
                }
            } + [(0, attachResident(to: model!, counter: 0, queue: queues[0], pacing: .bursts(4), ledger: ledger))]

        let deadline = ContinuousClock.now + duration
        let churn = ChurnCrew(count: settings.churners, seed: settings.seed, until: deadline, ledger: ledger) {
            [weak model] random in
            guard let model else { return Attachment([], ending: .cancellation) }
            return attach(to: model, queues: queues, using: &random, ledger: ledger)
        }
        let written = SenderCrew(count: ObservableCounters.count, until: deadline) { [weak model] stamp in
            model?.write(stamp.sequence + 1, to: stamp.sender)
        }
        .join()
        churn.waitUntilStopped()

        // A last write of each counter while both queues wait, so that no read runs during it; once the
        // queues have run the reads it schedules, every resident holds the final value.
        drain(queues)
        let final = written.map { $0 + 1 }
        queues[0].sync {
            queues[1].sync {
                for index in final.indices { model!.write(final[index], to: index) }
            }
        }
        drain(queues)
        for (_, resident) in residents { resident.openUpDemand() }
        drain(queues)
        for (index, resident) in residents {
            let last = resident.inspect { $0.last[index] }
            if last != final[index] {
                resident.report("holds \(last) after the last write, expected \(final[index])")
            }
        }

        // Letting go of the model finishes its publishers.
        model = nil
        churn.finish()
        _ = waitUntil(seconds: 10) { residents.allSatisfy { $0.1.hasEnded } }
        for (_, resident) in residents { resident.checkEnded(expectingCompletion: true) }
    }

    /// Runs everything queued on `queues` so far.
    private func drain(_ queues: [DispatchQueue]) {
        for queue in queues { queue.sync {} }
    }

    private func attachResident(
        to model: ObservableCounters, counter index: Int, queue: DispatchQueue, pacing: Pacing, ledger: WorkloadLedger
    ) -> CheckedSubscriber<SenderOrderCheck> {
        let subscriber = CheckedSubscriber(
            "publisher(for: \\.counter\(index)) resident", pacing: pacing,
            check: SenderOrderCheck(senders: ObservableCounters.count, order: .nondecreasing), ledger: ledger)
        model.stamps(of: index, scheduler: queue).subscribe(subscriber)
        return subscriber
    }

    /// A new churn attachment: one of the ways to observe the model, picked at random.
    private func attach(
        to model: ObservableCounters, queues: [DispatchQueue], using random: inout SoakRandom, ledger: WorkloadLedger
    ) -> Attachment {
        let pacing = Pacing.random(using: &random)
        let queue = queues.randomElement(using: &random)!
        let order = SenderOrderCheck(senders: ObservableCounters.count, order: .nondecreasing)
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<6:
            let index = Int.random(in: 0..<ObservableCounters.count, using: &random)
            let options: ObservationOptions = random.oneIn(4) ? .new : [.initial, .new]
            let subscriber = CheckedSubscriber(
                "publisher(for: \\.counter\(index)) churn", pacing: pacing, check: order, ledger: ledger)
            model.stamps(of: index, options: options, scheduler: queue).subscribe(subscriber)
            return Attachment([subscriber], ending: .completion)
        case 6..<8:
            let wrapper = model.deduplicated(on: queue) { $0.counter2 / Self.snapshotStep }
            let subscriber = CheckedSubscriber(
                "Deduplicated(on:) churn", pacing: pacing, check: SignalCheck(), enforcesDemand: false, ledger: ledger)
            wrapper.objectWillChange.subscribe(subscriber)
            return Attachment([subscriber], keeping: [wrapper], ending: .cancellation)
        default:
            let observed = ObservedPublisher(publisher: model.publisher(for: \.counter3, scheduler: queue))
            let subscriber = CheckedSubscriber("ObservedPublisher churn", pacing: pacing, check: order, ledger: ledger)
            observed.map { Stamp(sender: 3, sequence: $0) }.subscribe(subscriber)
            return Attachment([subscriber], keeping: [observed], ending: .cancellation)
        }
    }
}
