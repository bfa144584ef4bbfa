import Streams
import Synchronization

/// `share()` and `multicast(_:)` with `connect()` over a subject that the senders send into.
///
/// Subscribers join and leave one long-lived share, whose two residents must each receive every value
/// of every sender exactly once, in order. Meanwhile the churn threads make short-lived shares (two
/// subscribers, which connect it and, when both leave, disconnect it) and multicasts (two subscribers,
/// connected, then the connection cancelled). Every subscription to the subject that either made must
/// end, cancelled or completed, and every subscriber still attached when the subject completes must
/// receive the completion.
struct ShareWorkload: Workload {
    var name: String { "share" }

    var summary: String {
        "share() and multicast + connect() over a subject: subscribers join and leave, short-lived shares "
            + "and multicasts connect and disconnect"
    }

    func run(for duration: Duration, settings: SoakSettings, ledger: WorkloadLedger) {
        var released = ReleaseRing(capacity: 2)
        exercise(for: duration, settings: settings, ledger: ledger, released: &released)
        ledger.expectFreed(released, name)
    }

    private func exercise(
        for duration: Duration, settings: SoakSettings, ledger: WorkloadLedger, released: inout ReleaseRing
    ) {
        let subject = PassthroughSubject<Stamp, Never>()
        let counts = UpstreamCounts()
        let upstream = CountedUpstream(subject: subject, counts: counts)
        let shared = upstream.share()
        released.note(subject)
        released.note(shared)
        let residents = [Pacing.unlimited, .oneAtATime].map { pacing in
            let subscriber = CheckedSubscriber(
                "share resident", pacing: pacing,
                check: SenderOrderCheck(senders: settings.senders, order: .contiguous),
                ledger: ledger)
            shared.subscribe(subscriber)
            return subscriber
        }

        let deadline = ContinuousClock.now + duration
        let churn = ChurnCrew(count: settings.churners, seed: settings.seed, until: deadline, ledger: ledger) {
            random in
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6:
                let subscriber = makeSubscriber(
                    "share churn", senders: settings.senders, using: &random, ledger: ledger)
                shared.subscribe(subscriber)
                return Attachment([subscriber], ending: .completion)
            case 6..<8:
                let shortLived = upstream.share()
                let subscribers = (0..<2).map { _ in
                    makeSubscriber("short-lived share", senders: settings.senders, using: &random, ledger: ledger)
                }
                for subscriber in subscribers { shortLived.subscribe(subscriber) }
                return Attachment(subscribers, keeping: [shortLived], ending: .completion)
            default:
                let multicast = upstream.multicast { PassthroughSubject<Stamp, Never>() }
                let subscribers = (0..<2).map { _ in
                    makeSubscriber("multicast", senders: settings.senders, using: &random, ledger: ledger)
                }
                for subscriber in subscribers { multicast.subscribe(subscriber) }
                let connection = multicast.connect()
                return Attachment(
                    subscribers, keeping: [multicast], ending: .completion, beforeCancelling: { connection.cancel() })
            }
        }
        let sent = SenderCrew(count: settings.senders, until: deadline) { subject.send($0) }.join()
        churn.waitUntilStopped()
        subject.send(completion: .finished)
        churn.finish()

        let expected: [ClosedRange<Int>?] = sent.map { $0 > 0 ? 0...($0 - 1) : nil }
        for resident in residents {
            resident.checkEnded(expectingCompletion: true)
            if let problem = resident.inspect({ $0.mismatch(expecting: expected) }) { resident.report(problem) }
        }
        if counts.open != 0 {
            let subscribed = counts.subscribed.load(ordering: .acquiring)
            ledger.violation(
                "share: \(counts.open) of \(subscribed) subscriptions to the subject neither cancelled nor completed")
        }
    }

    /// A churn subscriber of a random pacing, checking the order its pacing guarantees.
    private func makeSubscriber(
        _ role: String, senders: Int, using random: inout SoakRandom, ledger: WorkloadLedger
    ) -> CheckedSubscriber<SenderOrderCheck> {
        let pacing = Pacing.random(using: &random)
        return CheckedSubscriber(
            role, pacing: pacing,
            check: SenderOrderCheck(senders: senders, order: pacing.keepsDemand ? .contiguous : .increasing),
            ledger: ledger)
    }
}
