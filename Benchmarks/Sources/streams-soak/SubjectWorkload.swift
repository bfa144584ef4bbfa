import Streams

/// A `PassthroughSubject` or a `CurrentValueSubject` that several threads send into at once, while
/// churn threads attach and cancel subscribers of every pacing.
///
/// Three residents, attached before the senders start and completed after they stop, must each
/// receive every value of every sender exactly once, in order (for the current-value subject, after
/// its initial value). A churn subscriber that always has demand must receive each sender's values as
/// an unbroken run while it is attached; one paced in bursts, an increasing run. Every subscriber
/// still attached at the end must receive the completion.
struct SubjectWorkload: Workload {
    /// Which subject.
    enum Kind {
        case passthrough
        case currentValue
    }

    /// Which subject.
    let kind: Kind

    var name: String {
        switch kind {
        case .passthrough: "passthrough"
        case .currentValue: "current-value"
        }
    }

    var summary: String {
        switch kind {
        case .passthrough: "PassthroughSubject: senders on every thread, subscribers of every pacing come and go"
        case .currentValue:
            "CurrentValueSubject: the same, each new subscriber starting from the current value"
        }
    }

    func run(for duration: Duration, settings: SoakSettings, ledger: WorkloadLedger) {
        var released = ReleaseRing(capacity: 1)
        switch kind {
        case .passthrough:
            let subject = PassthroughSubject<Stamp, Never>()
            released.note(subject)
            run(subject, initial: nil, for: duration, settings: settings, ledger: ledger)
        case .currentValue:
            let initial = Stamp(sender: 0, sequence: -1)
            let subject = CurrentValueSubject<Stamp, Never>(initial)
            released.note(subject)
            run(subject, initial: initial, for: duration, settings: settings, ledger: ledger)
        }
        ledger.expectFreed(released, name)
    }

    private func run<S: Subject & Sendable>(
        _ subject: S, initial: Stamp?, for duration: Duration, settings: SoakSettings, ledger: WorkloadLedger
    ) where S.Output == Stamp, S.Failure == Never {
        let name = name
        let residents = [Pacing.unlimited, .unlimited, .oneAtATime].map {
            CheckedSubscriber(
                "\(name) resident", pacing: $0, check: SenderOrderCheck(senders: settings.senders, order: .contiguous),
                ledger: ledger)
        }
        for resident in residents { subject.subscribe(resident) }

        let deadline = ContinuousClock.now + duration
        let churn = ChurnCrew(
            count: settings.churners, seed: settings.seed, until: deadline, ledger: ledger
        ) { random in
            let pacing = Pacing.random(using: &random)
            let subscriber = CheckedSubscriber(
                "\(name) churn", pacing: pacing,
                check: SenderOrderCheck(
                    senders: settings.senders, order: pacing.keepsDemand ? .contiguous : .increasing),
                ledger: ledger)
            subject.subscribe(subscriber)
            return Attachment([subscriber], ending: .completion)
        }
        let sent = SenderCrew(count: settings.senders, until: deadline) { subject.send($0) }.join()
        churn.waitUntilStopped()
        subject.send(completion: .finished)
        churn.finish()

        // Every value of every sender, and first the initial value (sender 0, sequence -1).
        let expected: [ClosedRange<Int>?] = sent.indices.map { sender in
            let first = sender == initial?.sender ? initial!.sequence : 0
            return sent[sender] > 0 || first < 0 ? first...(sent[sender] - 1) : nil
        }
        for resident in residents {
            resident.checkEnded(expectingCompletion: true)
            if let problem = resident.inspect({ $0.mismatch(expecting: expected) }) { resident.report(problem) }
        }
    }
}
