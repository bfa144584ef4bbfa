import Streams

/// An `ObservableObject` whose `@Published` counters the senders write, one counter each, while churn
/// threads attach and cancel what a user would observe it with: `$counter` subscribers,
/// `objectWillChange` and `objectDidChange` subscribers, `Deduplicated` wrappers and
/// `ObservedPublisher`s.
///
/// Residents check the exact counts: a `$counter` subscriber receives 0 and then every value written;
/// `objectWillChange` and `objectDidChange` fire once per write; a `Deduplicated` wrapper over
/// `counter0 / 64` forwards at most one notification per change of that snapshot and ends on the final
/// snapshot; an `ObservedPublisher` of `counter1` ends on the final value after publishing each one.
/// Nothing here completes: the subscribers still attached at the end are cancelled.
struct PublishedWorkload: Workload {
    /// The snapshot of the `Deduplicated` wrappers: `counter0` in steps of this size.
    static let snapshotStep = 64

    var name: String { "published" }

    var summary: String {
        "ObservableObject: @Published counters written from every thread; $counter, objectWillChange, "
            + "objectDidChange, Deduplicated and ObservedPublisher observers come and go"
    }

    func run(for duration: Duration, settings: SoakSettings, ledger: WorkloadLedger) {
        var released = ReleaseRing(capacity: 4)
        do {
            let model = PublishedCounters()
            released.note(model)
            run(model, for: duration, settings: settings, ledger: ledger, released: &released)
        }
        ledger.expectFreed(released, name)
    }

    /// The residents, attached before the writers start.
    private struct Residents {
        let counters: [CheckedSubscriber<SenderOrderCheck>]
        let willChange: CheckedSubscriber<SignalCheck>
        let didChange: CheckedSubscriber<SignalCheck>
        let deduplicated: Deduplicated<PublishedCounters, Int>
        let deduplicatedChanges: CheckedSubscriber<SignalCheck>
        let observed: ObservedPublisher<Int>
        let observedValues: CheckedSubscriber<SenderOrderCheck>
    }

    private func run(
        _ model: PublishedCounters, for duration: Duration, settings: SoakSettings, ledger: WorkloadLedger,
        released: inout ReleaseRing
    ) {
        let residents = attachResidents(to: model, ledger: ledger)
        released.note(residents.deduplicated)
        released.note(residents.observed)
        let deadline = ContinuousClock.now + duration
        let churn = ChurnCrew(count: settings.churners, seed: settings.seed, until: deadline, ledger: ledger) {
            random in
            attach(to: model, using: &random, ledger: ledger)
        }
        let written = SenderCrew(count: PublishedCounters.count, until: deadline) { [weak model] stamp in
            model?.write(stamp.sequence + 1, to: stamp.sender)
        }
        .join()
        churn.waitUntilStopped()
        churn.finish()
        check(residents, model: model, written: written)
        for subscriber in residents.counters { subscriber.cancelFromOutside() }
        for subscriber in [residents.willChange, residents.didChange, residents.deduplicatedChanges] {
            subscriber.cancelFromOutside()
        }
        residents.observedValues.cancelFromOutside()
    }

    private func attachResidents(to model: PublishedCounters, ledger: WorkloadLedger) -> Residents {
        let counters = (0..<PublishedCounters.count).map { index in
            let subscriber = CheckedSubscriber(
                "$counter\(index) resident", pacing: .unlimited,
                check: SenderOrderCheck(senders: PublishedCounters.count, order: .contiguous), ledger: ledger)
            model.stamps(of: index).subscribe(subscriber)
            return subscriber
        }
        let willChange = signalSubscriber("objectWillChange resident", pacing: .unlimited, ledger: ledger)
        model.objectWillChange.subscribe(willChange)
        let didChange = signalSubscriber("objectDidChange resident", pacing: .unlimited, ledger: ledger)
        model.objectDidChange.subscribe(didChange)
        let deduplicated = model.deduplicated { $0.counter0 / Self.snapshotStep }
        let deduplicatedChanges = signalSubscriber("Deduplicated resident", pacing: .unlimited, ledger: ledger)
        deduplicated.objectWillChange.subscribe(deduplicatedChanges)
        let observed = ObservedPublisher(publisher: model.$counter1, initial: -1)
        let observedValues = CheckedSubscriber(
            "ObservedPublisher resident", pacing: .unlimited,
            check: SenderOrderCheck(senders: PublishedCounters.count, order: .contiguous), ledger: ledger)
        observed.map { Stamp(sender: 1, sequence: $0) }.subscribe(observedValues)
        return Residents(
            counters: counters, willChange: willChange, didChange: didChange, deduplicated: deduplicated,
            deduplicatedChanges: deduplicatedChanges, observed: observed, observedValues: observedValues)
    }

    private func check(_ residents: Residents, model: PublishedCounters, written: [Int]) {
        for (index, subscriber) in residents.counters.enumerated() {
            // 0, the value when it subscribed, then every value written: 1 to written[index].
            let expected = written.indices.map { $0 == index ? 0...written[index] : nil }
            if let problem = subscriber.inspect({ $0.mismatch(expecting: expected) }) { subscriber.report(problem) }
        }
        let writes = written.reduce(0, +)
        for subscriber in [residents.willChange, residents.didChange] where subscriber.received != writes {
            subscriber.report("\(subscriber.received) signals for \(writes) writes")
        }
        // At most one notification per change of the snapshot, and the final snapshot.
        let snapshotChanges = written[0] / Self.snapshotStep
        let notifications = residents.deduplicatedChanges.received
        if notifications > snapshotChanges || (snapshotChanges > 0 && notifications == 0) {
            residents.deduplicatedChanges.report(
                "\(notifications) notifications for \(snapshotChanges) snapshot changes")
        }
        if residents.deduplicated.snapshot != snapshotChanges {
            residents.deduplicatedChanges.report(
                "snapshot \(residents.deduplicated.snapshot) at the end, expected \(snapshotChanges)")
        }
        if residents.observed.wrappedValue != written[1] || model.value(of: 1) != written[1] {
            residents.observedValues.report(
                "ObservedPublisher holds \(residents.observed.wrappedValue), the counter "
                    + "\(model.value(of: 1)), expected \(written[1])")
        }
        let expectedObserved = written.indices.map { $0 == 1 ? 0...written[1] : nil }
        if let problem = residents.observedValues.inspect({ $0.mismatch(expecting: expectedObserved) }) {
            residents.observedValues.report(problem)
        }
    }

    /// A new churn attachment: one of the ways to observe the model, picked at random.
    private func attach(
        to model: PublishedCounters, using random: inout SoakRandom, ledger: WorkloadLedger
    ) -> Attachment {
        let pacing = Pacing.random(using: &random)
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<8:
            let index = Int.random(in: 0..<PublishedCounters.count, using: &random)
            let subscriber = CheckedSubscriber(
                "$counter\(index) churn", pacing: pacing,
                check: SenderOrderCheck(
                    senders: PublishedCounters.count, order: pacing.keepsDemand ? .contiguous : .increasing),
                ledger: ledger)
            model.stamps(of: index).subscribe(subscriber)
            return Attachment([subscriber], ending: .cancellation)
        case 8..<12:
            let subscriber = signalSubscriber("objectWillChange churn", pacing: pacing, ledger: ledger)
            model.objectWillChange.subscribe(subscriber)
            return Attachment([subscriber], ending: .cancellation)
        case 12..<14:
            let subscriber = signalSubscriber("objectDidChange churn", pacing: pacing, ledger: ledger)
            model.objectDidChange.subscribe(subscriber)
            return Attachment([subscriber], ending: .cancellation)
        case 14..<17:
            let wrapper = model.deduplicated { $0.counter0 / Self.snapshotStep }
            let subscriber = signalSubscriber("Deduplicated churn", pacing: pacing, ledger: ledger)
            wrapper.objectWillChange.subscribe(subscriber)
            return Attachment([subscriber], keeping: [wrapper], ending: .cancellation)
        default:
            let observed = ObservedPublisher(publisher: model.$counter1, initial: -1)
            let subscriber = CheckedSubscriber(
                "ObservedPublisher churn", pacing: pacing,
                check: SenderOrderCheck(
                    senders: PublishedCounters.count, order: pacing.keepsDemand ? .contiguous : .increasing),
                ledger: ledger)
            observed.map { Stamp(sender: 1, sequence: $0) }.subscribe(subscriber)
            return Attachment([subscriber], keeping: [observed], ending: .cancellation)
        }
    }

    /// A subscriber to an `objectWillChange`-style publisher, which delivers every change whatever the
    /// demand.
    private func signalSubscriber(
        _ role: String, pacing: Pacing, ledger: WorkloadLedger
    ) -> CheckedSubscriber<SignalCheck> {
        CheckedSubscriber(role, pacing: pacing, check: SignalCheck(), enforcesDemand: false, ledger: ledger)
    }
}
