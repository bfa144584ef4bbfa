import Streams

/// How the values a subscriber received from one upstream relate to the values that upstream sent.
enum Delivered: String {
    /// All of them, in order.
    case all
    /// The first few, in order: the stream ended, or was cancelled, before the rest.
    case prefix
    /// The last few, in order: those sent before a gate opened were dropped.
    case suffix
    /// A run of consecutive values, in order.
    case contiguous
    /// Some of them, in order, none twice: values sent without demand may be dropped.
    case subsequence

    /// Whether `delivered` stands in this relation to `sent`.
    func holds(_ delivered: [StressValue], of sent: [StressValue]) -> Bool {
        switch self {
        case .all: delivered == sent
        case .prefix: stressIsPrefix(delivered, of: sent)
        case .suffix: delivered.count <= sent.count && delivered == Array(sent.suffix(delivered.count))
        case .contiguous:
            delivered.first.flatMap { sent.firstIndex(of: $0) }.map {
                sent.count - $0 >= delivered.count && Array(sent[$0..<($0 + delivered.count)]) == delivered
            } ?? delivered.isEmpty
        case .subsequence: stressIsSubsequence(delivered, of: sent)
        }
    }
}

/// The invariants a case broke, described; each check adds what it found.
struct ScheduleProblems {
    /// The invariants broken, described.
    private(set) var found: [String] = []
    /// What the run produced, to print along with the problems.
    private(set) var context: [String] = []

    /// Everything to report: the problems, then the context, or nothing if there is no problem.
    var report: [String] { found.isEmpty ? [] : found + context.map { "(\($0))" } }

    /// Keeps `line` to print along with the problems, if there are any.
    mutating func note(_ line: @autoclosure () -> String) {
        context.append(line())
    }

    /// Keeps what a subscriber received, to print along with the problems.
    mutating func noteReceived<Input, Failure>(
        _ report: StressSink<Input, Failure>.Report, subscriber: String = "the subscriber"
    ) {
        note("\(subscriber) received \(report.values) then \(report.completions), \(report.lateDeliveries) late")
    }

    /// Adds `message` unless `condition` holds.
    mutating func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { found.append(message()) }
    }

    /// Adds every one of `problems`.
    mutating func add(_ problems: [String]) {
        found += problems
    }

    /// Checks the rules the subscriber checked as deliveries arrived: never two at once, never a
    /// value beyond the demand it had asked for by then, nothing after its completion (but
    /// `maxAfterCompletion`), at most `maxCompletions` completions and one subscription; and what
    /// may follow its cancel, if `cancel` cancelled it.
    ///
    /// What may follow a cancel, as in Combine: nothing on the thread where `cancel()` returned
    /// (``DeliveryWatch``); on another thread, an event that the operator had decided on, under its
    /// lock, before the cancel took that lock, and that was waiting for its turn to go down. Since
    /// these operators deliver one event at a time, at most one can be so in flight: so at most one
    /// delivery may begin after a cancel from the driver thread returned (the sink's flag is a
    /// release/acquire pair, so "after" is a happens-before). A cancel from inside a delivery allows
    /// `lateInside`: none for the operators that drop what waits once cancelled, one for those that,
    /// as Combine, still deliver what another thread decided before.
    mutating func checkDelivery<Input, Failure>(
        _ report: StressSink<Input, Failure>.Report, _ cancel: CancelPlan, _ watch: DeliveryWatch,
        lateInside: Int = 0, maxCompletions: Int = 1, maxAfterCompletion: Int = 0,
        subscriber: String = "the subscriber"
    ) {
        expect(report.overlaps == 0, "\(subscriber): \(report.overlaps) deliveries overlapped")
        expect(report.demandViolations == 0, "\(subscriber): \(report.demandViolations) values beyond demand")
        expect(
            report.afterCompletion <= maxAfterCompletion,
            "\(subscriber): \(report.afterCompletion) deliveries after the completion")
        expect(report.completions.count <= maxCompletions, "\(subscriber): \(report.completions.count) completions")
        expect(report.extraSubscriptions == 0, "\(subscriber): more than one subscription")
        expect(
            watch.deliveriesBeforeSubscription == 0,
            "\(subscriber): \(watch.deliveriesBeforeSubscription) deliveries before its subscription")
        expect(
            watch.lateOnCancellingThread == 0,
            "\(subscriber): \(watch.lateOnCancellingThread) deliveries on the thread where cancel() had returned")
        let maxLate: Int
        switch cancel {
        case .none: maxLate = 0
        case .fromDriver: maxLate = 1
        case .withinDelivery(let at):
            maxLate = lateInside
            if report.received >= at {
                expect(
                    report.received <= at + lateInside,
                    "\(subscriber): cancelled inside value \(at), received \(report.received)")
            }
        }
        expect(
            report.lateDeliveries <= maxLate,
            "\(subscriber): \(report.lateDeliveries) deliveries after cancel() returned (at most \(maxLate) allowed)")
    }

    /// Checks that `values` hold no value twice and none that `upstreams` did not send, and that
    /// what came from each upstream stands to its script's values as `relation` says.
    mutating func checkValues(
        _ values: [StressValue], from upstreams: [ScheduleUpstream], subscriber: String = "the subscriber",
        _ relation: (ScheduleUpstream) -> Delivered
    ) {
        let byIndex = Dictionary(uniqueKeysWithValues: upstreams.map { ($0.script.index, $0) })
        checkValues(values, sentBy: upstreams.map(\.script), subscriber: subscriber) { script in
            relation(byIndex[script.index]!)
        }
    }

    /// Checks that `values` hold no value twice and none that the senders of `scripts` did not send,
    /// and that what came from each sender stands to its script's values as `relation` says.
    mutating func checkValues(
        _ values: [StressValue], sentBy scripts: [UpstreamScript], subscriber: String = "the subscriber",
        _ relation: (UpstreamScript) -> Delivered
    ) {
        expect(Set(values).count == values.count, "\(subscriber): a value arrived twice: \(values)")
        let senders = Set(scripts.map(\.index))
        expect(values.allSatisfy { senders.contains($0.sender) }, "\(subscriber): a value nobody sent: \(values)")
        for script in scripts {
            let delivered = values.filter { $0.sender == script.index }
            let expected = relation(script)
            expect(
                expected.holds(delivered, of: script.values),
                "\(subscriber): from sender \(script.index), expected \(expected.rawValue) of its \(script.count) values, "
                    + "received \(delivered.map(\.sequence))")
        }
    }

    /// Checks the completions: each one of `allowed`; and one at least if `required`.
    mutating func checkCompletion<Failure>(
        _ completions: [Subscribers.Completion<Failure>], allowed: [Subscribers.Completion<Failure>],
        required: Bool, subscriber: String = "the subscriber"
    ) where Failure: Equatable {
        for completion in completions {
            expect(allowed.contains(completion), "\(subscriber): completion \(completion), expected one of \(allowed)")
        }
        expect(!required || !completions.isEmpty, "\(subscriber): no completion, expected one of \(allowed)")
    }

    /// Checks that each waiting source among `upstreams` was cancelled at most once.
    mutating func checkCancelledAtMostOnce(_ upstreams: [ScheduleUpstream]) {
        for upstream in upstreams {
            let count = upstream.cancelCount ?? 0
            expect(count <= 1, "\(upstream.name) was cancelled \(count) times")
        }
    }

    /// Checks that everything `probe` watches was freed.
    mutating func checkFreed(_ probe: StressLeakProbe) {
        let survivors = probe.survivors()
        expect(survivors.isEmpty, "still alive after the run: \(survivors)")
    }
}
