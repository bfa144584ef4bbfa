import Streams

/// `flatMap(maxPublishers:)` over a subject the senders send into: each outer value makes an inner
/// publisher that sends 1 to 6 values and finishes, at once, from a dispatch queue or from a task, so
/// inner publishers are created and finish all the time while subscribers come and go.
///
/// Every subscriber checks that each inner publisher's values arrive in order with none missing, that
/// no more inner publishers run at once than its `maxPublishers`, and, when the subject completes,
/// that flatMap finished only after every inner publisher it started. A resident whose inner
/// publishers all send at once must receive exactly the values of every outer value sent.
struct FlatMapWorkload: Workload {
    var name: String { "flatMap" }

    var summary: String {
        "flatMap(maxPublishers:) over a subject: inner publishers (immediate, on a queue, from a task) "
            + "start and finish all the time while subscribers come and go"
    }

    func run(for duration: Duration, settings: SoakSettings, ledger: WorkloadLedger) {
        var released = ReleaseRing(capacity: 1)
        exercise(for: duration, settings: settings, ledger: ledger, released: &released)
        ledger.expectFreed(released, name)
    }

    private func exercise(
        for duration: Duration, settings: SoakSettings, ledger: WorkloadLedger, released: inout ReleaseRing
    ) {
        let subject = PassthroughSubject<Stamp, Never>()
        released.note(subject)
        // One resident whose inner publishers all send at once (so it never runs out of room for an
        // outer value and receives them all), one with every kind.
        let immediate = attach(
            to: subject, "flatMap resident (immediate inner publishers)", maxPublishers: 2, pacing: .unlimited,
            mixed: false, ledger: ledger)
        let mixed = attach(
            to: subject, "flatMap resident", maxPublishers: 3, pacing: .unlimited, mixed: true, ledger: ledger)

        let deadline = ContinuousClock.now + duration
        let churn = ChurnCrew(count: settings.churners, seed: settings.seed, until: deadline, ledger: ledger) {
            random in
            let subscriber = attach(
                to: subject, "flatMap churn", maxPublishers: Int.random(in: 1...4, using: &random),
                pacing: Pacing.random(using: &random), mixed: true, ledger: ledger)
            return Attachment([subscriber], ending: .completion)
        }
        let sent = SenderCrew(count: settings.senders, until: deadline) { subject.send($0) }.join()
        churn.waitUntilStopped()
        subject.send(completion: .finished)
        churn.finish()

        _ = waitUntil(seconds: 10) { immediate.hasEnded && mixed.hasEnded }
        for resident in [immediate, mixed] { resident.checkEnded(expectingCompletion: true) }
        var expectedItems = 0
        for (sender, count) in sent.enumerated() {
            for sequence in 0..<count {
                expectedItems += InnerItem.length(for: Stamp(sender: sender, sequence: sequence))
            }
        }
        let (items, inners) = immediate.inspect { ($0.items, $0.completedInners) }
        let requests = sent.reduce(0, +)
        if items != expectedItems || inners != requests {
            immediate.report(
                "\(items) values from \(inners) inner publishers, expected \(expectedItems) from \(requests)")
        }
    }

    /// Subscribes a checked subscriber to `subject.flatMap(maxPublishers: .max(maxPublishers))`, with
    /// inner publishers of every kind if `mixed`, or all immediate.
    private func attach(
        to subject: PassthroughSubject<Stamp, Never>, _ role: String, maxPublishers: Int, pacing: Pacing, mixed: Bool,
        ledger: WorkloadLedger
    ) -> CheckedSubscriber<InnerSequenceCheck> {
        let gauge = InnerPublisherGauge(limit: maxPublishers, ledger: ledger)
        let subscriber = CheckedSubscriber(role, pacing: pacing, check: InnerSequenceCheck(), ledger: ledger)
        subject
            .flatMap(maxPublishers: .max(maxPublishers)) { request in
                InnerPublishers.make(
                    for: request, kind: mixed ? .mixed(for: request) : .immediate, gauge: gauge)
            }
            .subscribe(subscriber)
        return subscriber
    }
}
