import Dispatch
import Foundation
import Streams
import Testing

// The runs the scheduler operators' stress suites share: a complete run on a real queue, a cancel
// from another thread, a cancel from within a delivery, a cancel racing upstream's completion, a
// subscription that senders already wait for, and demand that comes both from deliveries and from
// requester threads. Each suite describes its operator once, as a ``StressOperator``, and keeps only
// what is its own: the sizes of its runs, the bounds it promises and why it keeps them.

/// What a run expects the subscriber's values to be, put end to end, next to what upstream sent.
enum StressKept {
    /// Everything upstream sent, once, in its order.
    case everything
    /// The beginning of what upstream sent.
    case prefix
    /// Some of what upstream sent, in its order.
    case subsequence

    func holds(_ delivered: [StressValue], of sent: [StressValue]) -> Bool {
        switch self {
        case .everything: delivered == sent
        case .prefix: stressIsPrefix(delivered, of: sent)
        case .subsequence: stressIsSubsequence(delivered, of: sent)
        }
    }
}

/// An operator under stress: how to put it between a ``StressSource`` and a ``StressSink`` on a
/// ``StressScheduler``, and how to read the subscriber's values as the values upstream sent.
struct StressOperator<Output: Sendable, Failure: Error & Equatable>: Sendable {
    typealias Source = StressSource<StressValue, Failure>
    typealias Sink = StressSink<Output, Failure>

    /// What the leak probe calls the operator's subscription.
    let name: String
    /// The label of the queues the runs make.
    let label: String
    /// Whether the subscriber gets its subscription from the scheduler, later: a run then waits for it.
    let subscribesOnScheduler: Bool
    /// The values upstream sent that the subscriber's values stand for, in order.
    let flatten: @Sendable ([Output]) -> [StressValue]
    private let subscribe: @Sendable (Source, StressScheduler, Sink) -> Void

    /// Describes the operator that `make` puts after a source, on a scheduler.
    init<P: Publisher>(
        _ name: String, label: String, subscribesOnScheduler: Bool = false,
        flatten: @escaping @Sendable ([Output]) -> [StressValue],
        _ make: @escaping @Sendable (Source, StressScheduler) -> P
    ) where P.Output == Output, P.Failure == Failure, P: SendableMetatype {
        self.name = name
        self.label = label
        self.subscribesOnScheduler = subscribesOnScheduler
        self.flatten = flatten
        self.subscribe = { source, scheduler, sink in make(source, scheduler).subscribe(sink) }
    }

    /// Subscribes `sink` to the operator after `source`, waits for the subscription if it comes from
    /// the scheduler, and names the chain to `probe`.
    func attach(
        _ source: Source, _ sink: Sink, on scheduler: StressScheduler, probe: StressLeakProbe,
        sourceLocation: SourceLocation
    ) {
        subscribe(source, scheduler, sink)
        if subscribesOnScheduler { #expect(sink.waitUntilSubscribed(), sourceLocation: sourceLocation) }
        probe.watchChain(source: source, sink: sink, operatorName: name)
    }

    // MARK: Runs

    /// Runs `plan`, which finishes, on a new queue: the values that arrive are what `kept` says, then
    /// the completion. `also` checks what is the operator's own, once the completion came.
    func expectCompleteRun(
        on queue: StressQueueKind, plan: StressPlan, initialDemand: Subscribers.Demand = .none,
        keeping kept: StressKept = .everything,
        also: (Source, Sink.Report) -> Void = { _, _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let scheduler = queue.makeScheduler(label)
        let probe = StressLeakProbe()
        do {
            let source = Source()
            let sink = Sink(initialDemand: initialDemand)
            attach(source, sink, on: scheduler, probe: probe, sourceLocation: sourceLocation)

            #expect(runStress(plan, source: source, sink: sink), sourceLocation: sourceLocation)
            #expect(sink.waitForCompletion(), sourceLocation: sourceLocation)
            // Whatever the scheduler still runs (a late delivery after the completion, say) lands
            // before the report is read, so the checks below see it.
            #expect(scheduler.waitUntilIdle(), sourceLocation: sourceLocation)

            let report = sink.report
            report.expectWellBehaved(sourceLocation: sourceLocation)
            let values = flatten(report.values)
            if kept == .everything {
                #expect(values.count == plan.senders * plan.perSender, sourceLocation: sourceLocation)
            }
            #expect(kept.holds(values, of: source.sent), sourceLocation: sourceLocation)
            #expect(report.completions == [.finished], sourceLocation: sourceLocation)
            also(source, report)
        }
        #expect(scheduler.waitUntilIdle(), sourceLocation: sourceLocation)
        #expect(probe.survivors() == [], sourceLocation: sourceLocation)
    }

    /// Runs `plan`, whose canceller cancels from a thread of its own while the others send and
    /// request, on a new queue: what arrives is what `kept` says, at most `maxLate` deliveries begin
    /// after `cancel()` returned, the completions are ones `completionsAllowed` accepts (none, unless
    /// told otherwise), and upstream is cancelled once. `also` checks what is the operator's own.
    func expectCancellingFromAnotherThread(
        on queue: StressQueueKind, plan: StressPlan, initialDemand: Subscribers.Demand = .none, maxLate: Int,
        keeping kept: StressKept = .prefix,
        completionsAllowed: ([Subscribers.Completion<Failure>]) -> Bool = { $0.isEmpty },
        also: (Source, Sink.Report) -> Void = { _, _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let scheduler = queue.makeScheduler(label)
        let probe = StressLeakProbe()
        do {
            let source = Source()
            let sink = Sink(initialDemand: initialDemand)
            attach(source, sink, on: scheduler, probe: probe, sourceLocation: sourceLocation)

            #expect(runStress(plan, source: source, sink: sink), sourceLocation: sourceLocation)
            #expect(scheduler.waitUntilIdle(), sourceLocation: sourceLocation)

            let report = sink.report
            report.expectWellBehaved(maxLate: maxLate, sourceLocation: sourceLocation)
            #expect(kept.holds(flatten(report.values), of: source.sent), sourceLocation: sourceLocation)
            #expect(completionsAllowed(report.completions), sourceLocation: sourceLocation)
            #expect(source.cancelCount == 1, sourceLocation: sourceLocation)
            also(source, report)
        }
        #expect(scheduler.waitUntilIdle(), sourceLocation: sourceLocation)
        #expect(probe.survivors() == [], sourceLocation: sourceLocation)
    }

    /// Runs `plan` on a new queue with a subscriber that cancels from within the delivery of its
    /// `cancelAt`th value: nothing arrives after it, what arrived is the beginning of what upstream
    /// sent, and upstream is cancelled once.
    func expectCancellingFromWithinADelivery(
        on queue: StressQueueKind, cancelAt: Int,
        plan: StressPlan = StressPlan(senders: 4, perSender: 2_000, finishes: false),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let scheduler = queue.makeScheduler(label)
        let probe = StressLeakProbe()
        do {
            let source = Source()
            let sink = Sink(onValue: { sink, _, received in
                if received == cancelAt { sink.cancel() }
            })
            attach(source, sink, on: scheduler, probe: probe, sourceLocation: sourceLocation)

            #expect(runStress(plan, source: source, sink: sink), sourceLocation: sourceLocation)
            #expect(scheduler.waitUntilIdle(), sourceLocation: sourceLocation)

            let report = sink.report
            report.expectWellBehaved(maxLate: 0, sourceLocation: sourceLocation)
            #expect(report.values.count == cancelAt, sourceLocation: sourceLocation)
            #expect(stressIsPrefix(flatten(report.values), of: source.sent), sourceLocation: sourceLocation)
            #expect(source.cancelCount == 1, sourceLocation: sourceLocation)
        }
        #expect(scheduler.waitUntilIdle(), sourceLocation: sourceLocation)
        #expect(probe.survivors() == [], sourceLocation: sourceLocation)
    }

    /// Races the subscriber's `cancel()` against upstream's `finish()`, both as the last of
    /// `senders` × `perSender` values goes out, `runs` times on new queues, so that the cancel wins
    /// some and the completion others. If the cancel came first, what arrived is the beginning of what
    /// was sent, and at most one delivery began after `cancel()` returned; if the completion came
    /// first, everything sent arrived, then the completion, and at most `maxLateOnceCompleted`
    /// deliveries began after `cancel()` returned.
    func expectCancelRacingTheCompletion(
        on queue: StressQueueKind, maxLateOnceCompleted: Int, runs: Int = 10, senders: Int = 4, perSender: Int = 100,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for _ in 0..<runs {
            let scheduler = queue.makeScheduler(label)
            let probe = StressLeakProbe()
            do {
                let source = Source()
                let sink = Sink()
                attach(source, sink, on: scheduler, probe: probe, sourceLocation: sourceLocation)

                #expect(
                    runCancelRacingFinish(senders: senders, perSender: perSender, source: source, sink: sink),
                    sourceLocation: sourceLocation)
                #expect(scheduler.waitUntilIdle(), sourceLocation: sourceLocation)

                let report = sink.report
                let values = flatten(report.values)
                if report.completions.isEmpty {
                    // The cancel came first: what arrived is the beginning of what was sent.
                    report.expectWellBehaved(maxLate: 1, sourceLocation: sourceLocation)
                    #expect(stressIsPrefix(values, of: source.sent), sourceLocation: sourceLocation)
                } else {
                    report.expectWellBehaved(maxLate: maxLateOnceCompleted, sourceLocation: sourceLocation)
                    #expect(values == source.sent, sourceLocation: sourceLocation)
                    #expect(report.completions == [.finished], sourceLocation: sourceLocation)
                }
            }
            #expect(scheduler.waitUntilIdle(), sourceLocation: sourceLocation)
            #expect(probe.survivors() == [], sourceLocation: sourceLocation)
        }
    }

    /// Starts the senders first, then subscribes, from a thread of its own, a subscriber that stays
    /// in `receive(subscription:)` until 200 of the values it asked for there were sent: none may
    /// arrive before it returns, and then every one arrives, in order, then the completion.
    func expectSubscribingWhileSendersWaitDeliversNothingDuringTheSubscription(
        on queue: StressQueueKind, plan: StressPlan = StressPlan(senders: 4, perSender: 500),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let scheduler = queue.makeScheduler(label)
        let probe = StressLeakProbe()
        do {
            let source = Source()
            // Stays in `receive(subscription:)` until the values it asked for pour in.
            let sink = Sink(onSubscription: { _ = source.waitUntilSent(200) })
            probe.watch("source", source)
            probe.watch("subscriber", sink)

            // The senders already wait when the subscriber attaches, from a thread of its own, and
            // asks for everything from within `receive(subscription:)`: values come at once, and
            // must wait until it returns.
            let subscribe = self.subscribe
            let name = self.name
            #expect(
                runStress(plan, source: source, sink: sink, alongside: 1) { _ in
                    subscribe(source, scheduler, sink)
                    probe.watchSubscription(name, of: sink)
                }, sourceLocation: sourceLocation)
            #expect(sink.waitForCompletion(), sourceLocation: sourceLocation)

            let report = sink.report
            report.expectWellBehaved(sourceLocation: sourceLocation)
            let values = flatten(report.values)
            #expect(report.duringSubscription == 0, sourceLocation: sourceLocation)
            #expect(values.count == plan.senders * plan.perSender, sourceLocation: sourceLocation)
            #expect(values == source.sent, sourceLocation: sourceLocation)
            #expect(report.completions == [.finished], sourceLocation: sourceLocation)
        }
        #expect(scheduler.waitUntilIdle(), sourceLocation: sourceLocation)
        #expect(probe.survivors() == [], sourceLocation: sourceLocation)
    }

    /// Runs `plan`, which does not finish, on a new queue, with a subscriber that asks for one more
    /// value with each value while the requesters ask from their threads: once every value arrived and
    /// the queue is idle, upstream was asked for exactly what the subscriber asked for; then upstream
    /// finishes, and every value arrived once, in order.
    func expectDemandFromDeliveriesAndFromRequesterThreadsAddsUp(
        on queue: StressQueueKind,
        plan: StressPlan = StressPlan(senders: 4, perSender: 1_000, requesters: 2, requests: 500, finishes: false),
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let scheduler = queue.makeScheduler(label)
        let total = plan.senders * plan.perSender
        let probe = StressLeakProbe()
        do {
            let source = Source()
            let allArrived = StressSignal()
            // Each value asks for one more, from the queue, while the requesters ask from theirs.
            let sink = Sink(
                initialDemand: .max(1), demandPerValue: .max(1),
                onValue: { _, _, received in
                    if received == total { allArrived.signal() }
                })
            attach(source, sink, on: scheduler, probe: probe, sourceLocation: sourceLocation)

            #expect(runStress(plan, source: source, sink: sink), sourceLocation: sourceLocation)
            #expect(allArrived.wait(), sourceLocation: sourceLocation)
            // Once the queue is idle, every value's answer has gone upstream: upstream was asked
            // for exactly what the subscriber asked for.
            #expect(scheduler.waitUntilIdle(), sourceLocation: sourceLocation)
            #expect(source.totalRequested == sink.report.requested, sourceLocation: sourceLocation)
            source.finish()
            #expect(sink.waitForCompletion(), sourceLocation: sourceLocation)

            let report = sink.report
            report.expectWellBehaved(sourceLocation: sourceLocation)
            let values = flatten(report.values)
            #expect(values == source.sent, sourceLocation: sourceLocation)
            #expect(values.count == total, sourceLocation: sourceLocation)
            #expect(report.completions == [.finished], sourceLocation: sourceLocation)
        }
        #expect(scheduler.waitUntilIdle(), sourceLocation: sourceLocation)
        #expect(probe.survivors() == [], sourceLocation: sourceLocation)
    }
}

extension StressOperator where Output == StressValue {
    /// Describes the operator that `make` puts after a source, on a scheduler, whose values are
    /// upstream's.
    init<P: Publisher>(
        _ name: String, label: String, subscribesOnScheduler: Bool = false,
        _ make: @escaping @Sendable (Source, StressScheduler) -> P
    ) where P.Output == Output, P.Failure == Failure, P: SendableMetatype {
        self.init(name, label: label, subscribesOnScheduler: subscribesOnScheduler, flatten: { $0 }, make)
    }
}
