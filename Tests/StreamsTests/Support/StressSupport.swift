import Dispatch
import Foundation
import Streams
import Synchronization
import Testing

// Helpers for the stress tests in `Tests/StreamsTests/Stress`: threads released together, a source
// that several threads send through, a subscriber that checks the rules of delivery as deliveries
// arrive, a dispatch scheduler that knows when it no longer holds anything, and a probe for leaks.
//
// Waits and shared state go through `NSLock`/`NSCondition` (pthread mutexes), whose hand-overs the
// thread sanitizer sees. The subscriber is the exception: it records deliveries without a lock, so
// that the sanitizer checks the publisher's ordering of them (see `StressSink`).

/// The stress tests, one suite per operator family. They run one at a time: each starts several
/// threads, and running them side by side on a small machine would only make each slower.
@Suite(.timeLimit(.minutes(3)), .serialized) struct StressTests {}

/// The schedulers the real-queue stress tests run on.
enum StressQueueKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case serial
    case concurrent

    var testDescription: String { rawValue }

    /// A scheduler on a new queue of this kind.
    func makeScheduler(_ label: String) -> StressScheduler {
        StressScheduler("stress.\(label).\(rawValue)", concurrent: self == .concurrent)
    }
}

// MARK: Values, deadlines, threads

/// A value a stress sender sends: who sent it, and its place among that sender's values.
struct StressValue: Hashable, Sendable, CustomStringConvertible {
    let sender: Int
    let sequence: Int

    var description: String { "\(sender).\(sequence)" }
}

/// The error the stress tests fail streams with.
struct StressError: Error, Equatable {
    var code = 0
}

/// How long a stress test waits for something that must happen: far longer than it ever takes, even
/// under the thread sanitizer on a loaded machine, so reaching it means the event is missing.
let stressTimeoutSeconds = 20

/// A value that no sender sends, for a test to send once the senders are done.
let stressSentinel = StressValue(sender: -1, sequence: 0)

/// The dispatch deadline for a wait that starts now.
func stressDeadline() -> DispatchTime {
    .now() + .seconds(stressTimeoutSeconds)
}

/// Runs `body(0)`, …, `body(count - 1)`, each on a thread of its own, released together once all have
/// started, and waits until every one has returned, so that what they did happens before it returns.
/// Returns false, and fails the running test (at the caller's line), if one did not return before the
/// deadline: a thread that never returns is a deadlock or a lost wake-up, never a pass.
///
/// Threads rather than `DispatchQueue.concurrentPerform`: the bodies block (a sender waits for demand
/// that a requester thread gives), and `concurrentPerform` runs no more bodies at once than there are
/// processors, so a sender could wait forever for a requester that never starts.
@discardableResult
func runOnThreads(
    _ count: Int, sourceLocation: SourceLocation = #_sourceLocation, _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
    // The threads reach `body` through `work`, which lets go of it before `runOnThreads` returns: a
    // thread object may outlive the call, and what `body` captures must not.
    let work = SchedulerTestBox<(@Sendable (Int) -> Void)?>(body)
    defer { work.withValue { $0 = nil } }
    let started = DispatchGroup()
    let go = DispatchSemaphore(value: 0)
    let finished = StressCountdown()
    for index in 0..<count {
        started.enter()
        finished.enter()
        let thread = Thread {
            started.leave()
            go.wait()
            do {
                let body = work.value
                body?(index)
            }
            finished.leave()
        }
        thread.name = "stress-\(index)"
        thread.start()
    }
    started.wait()
    for _ in 0..<count { go.signal() }
    guard finished.waitUntilZero() else {
        Issue.record(
            "runOnThreads: not every one of the \(count) threads returned within \(stressTimeoutSeconds) seconds",
            sourceLocation: sourceLocation)
        return false
    }
    return true
}

/// Keeps a thread busy for a few steps without touching memory, to widen the window in which two
/// overlapping calls would show.
@inline(never)
func stressSpin(_ steps: Int) -> Int {
    var total = 0
    for step in 0..<steps { total &+= step &* 31 }
    return total
}

// MARK: Ordering

/// Whether each sender's values come in the order it sent them: its sequence numbers increase, so
/// none comes twice or out of order.
func stressInSendersOrder(_ values: [StressValue]) -> Bool {
    var last: [Int: Int] = [:]
    for value in values {
        if let previous = last[value.sender], previous >= value.sequence { return false }
        last[value.sender] = value.sequence
    }
    return true
}

/// Whether `delivered` is `sent` with some values left out: the same order, none twice, none made up.
func stressIsSubsequence<Value: Equatable>(_ delivered: [Value], of sent: [Value]) -> Bool {
    var next = sent.startIndex
    for value in delivered {
        guard let found = sent[next...].firstIndex(of: value) else { return false }
        next = found + 1
    }
    return true
}

/// Whether `delivered` is the beginning of `sent`.
func stressIsPrefix<Value: Equatable>(_ delivered: [Value], of sent: [Value]) -> Bool {
    delivered.count <= sent.count && delivered == Array(sent.prefix(delivered.count))
}

// MARK: Source

/// Counts how many of something are live at once, and the most there ever were.
// @unchecked Sendable: the counters are guarded by `lock`.
final class StressGauge: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var peak = 0

    func enter() {
        lock.withLock {
            current += 1
            peak = Swift.max(peak, current)
        }
    }

    func leave() {
        lock.withLock { current -= 1 }
    }

    /// The most that were live at once.
    var maximum: Int { lock.withLock { peak } }
}

/// A publisher that any number of threads send through, as they would through a subject.
///
/// Each ``send(_:)`` waits until the subscriber has demand and no other send is under way, so the
/// subscriber is never called concurrently nor beyond its demand, whatever the senders do. The
/// source records the order in which values went out, the demand it was given, and its
/// cancellations; it holds its subscriber until it completes or is cancelled, and signals
/// ``deinitSignal`` when it is deinitialized.
// @unchecked Sendable: mutable state is guarded by `condition`; `sending` serializes the calls out.
final class StressSource<Output: Sendable, Failure: Error>: Publisher, Subscription, @unchecked Sendable {
    /// What became of a value given to ``send(_:)``.
    enum SendResult: Equatable {
        /// It went to the subscriber.
        case sent
        /// The source completed, was cancelled or closed: it went nowhere.
        case ended
        /// No demand came before the deadline.
        case timedOut
    }

    private let sending = NSLock()
    private let condition = NSCondition()
    private let gauge: StressGauge?
    private var subscriber: AnySubscriber<Output, Failure>?
    private var subscribeCount = 0
    private var ended = false
    private var finished = false
    private var cancels = 0
    private var demand = Subscribers.Demand.none
    private var requested = Subscribers.Demand.none
    private var order: [Output] = []
    private var callsInside = 0
    private var overlaps = 0

    /// Signalled when the source is deinitialized.
    let deinitSignal = DispatchSemaphore(value: 0)

    /// Creates a source; `gauge`, if given, counts the source as live from the moment it is subscribed
    /// to until it starts to complete.
    init(gauge: StressGauge? = nil) {
        self.gauge = gauge
    }

    deinit {
        deinitSignal.signal()
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        condition.withLock {
            subscribeCount += 1
            precondition(subscribeCount == 1, "A stress source takes one subscriber")
            if !ended { self.subscriber = AnySubscriber(subscriber) }
            condition.broadcast()
        }
        gauge?.enter()
        subscriber.receive(subscription: self)
    }

    /// Sends `value` once the subscriber has demand for it and no other send is under way.
    @discardableResult
    func send(_ value: Output) -> SendResult {
        sending.lock()
        defer { sending.unlock() }
        condition.lock()
        let deadline = Date(timeIntervalSinceNow: TimeInterval(stressTimeoutSeconds))
        while !ended, subscriber == nil || demand == .none {
            guard condition.wait(until: deadline) else {
                condition.unlock()
                return .timedOut
            }
        }
        guard !ended, let target = subscriber else {
            condition.unlock()
            return .ended
        }
        demand -= 1
        order.append(value)
        condition.broadcast()
        condition.unlock()
        let more = target.receive(value)
        if more > 0 {
            condition.withLock {
                guard !ended else { return }
                demand += more
                requested += more
                condition.broadcast()
            }
        }
        return .sent
    }

    /// Completes the subscriber, once no send is under way, unless the source already ended.
    func finish(_ completion: Subscribers.Completion<Failure> = .finished) {
        sending.lock()
        defer { sending.unlock() }
        let target = condition.withLock { () -> AnySubscriber<Output, Failure>? in
            guard !ended else { return nil }
            ended = true
            finished = true
            condition.broadcast()
            return subscriber.take()
        }
        guard let target else { return }
        gauge?.leave()
        target.receive(completion: completion)
    }

    /// Ends the source without telling the subscriber, if it has one: senders waiting for demand or
    /// for a subscriber give up.
    func close() {
        let released = condition.withLock { () -> AnySubscriber<Output, Failure>? in
            ended = true
            condition.broadcast()
            return subscriber.take()
        }
        withExtendedLifetime(released) {}
    }

    func request(_ demand: Subscribers.Demand) {
        enterCall()
        condition.withLock {
            guard !ended else { return }
            self.demand += demand
            requested += demand
            condition.broadcast()
        }
        leaveCall()
    }

    func cancel() {
        enterCall()
        let released = condition.withLock { () -> AnySubscriber<Output, Failure>? in
            cancels += 1
            ended = true
            condition.broadcast()
            return subscriber.take()
        }
        // The subscriber is released here, outside the lock.
        withExtendedLifetime(released) {}
        leaveCall()
    }

    /// Counts a request or cancel that begins while another is still running.
    private func enterCall() {
        condition.withLock {
            callsInside += 1
            if callsInside > 1 { overlaps += 1 }
        }
        _ = stressSpin(200)
    }

    private func leaveCall() {
        condition.withLock { callsInside -= 1 }
    }

    /// Waits until `count` values went out or the source ended; false if neither came in time.
    func waitUntilSent(_ count: Int) -> Bool {
        let deadline = Date(timeIntervalSinceNow: TimeInterval(stressTimeoutSeconds))
        return condition.withLock {
            while order.count < count, !ended {
                guard condition.wait(until: deadline) else { return false }
            }
            return true
        }
    }

    /// Every value that went to the subscriber, in the order it went.
    var sent: [Output] { condition.withLock { order } }

    /// The sum of the demand the subscriber asked for, by request or in answer to a value, until the
    /// source ended.
    var totalRequested: Subscribers.Demand { condition.withLock { requested } }

    /// Whether the source sent its completion.
    var didFinish: Bool { condition.withLock { finished } }

    /// How many times the subscription was cancelled.
    var cancelCount: Int { condition.withLock { cancels } }

    /// How many requests or cancels began while another was still running.
    var overlappingCalls: Int { condition.withLock { overlaps } }
}

/// Sends sender `sender`'s values `0..<count` through `source`, stopping when it ends. Returns false
/// if a value waited for demand until the deadline.
func stressSend<Failure: Error>(_ source: StressSource<StressValue, Failure>, sender: Int, count: Int) -> Bool {
    for sequence in 0..<count {
        switch source.send(StressValue(sender: sender, sequence: sequence)) {
        case .sent: continue
        case .ended: return true
        case .timedOut: return false
        }
    }
    return true
}

// MARK: Subscriber

/// A subscriber that checks, as deliveries arrive, the rules a publisher owes it, and keeps what it
/// received for the test to compare with what was sent:
/// - it is never entered by two deliveries at once: an atomic flag is set on entry and must not be
///   set already;
/// - it never receives more values than it asked for: it adds to what it asked for before asking;
/// - nothing comes after its completion, and it is given one subscription;
/// - deliveries that begin after ``cancel()`` returned are counted as late.
///
/// Like a plain subscriber, it records deliveries in storage of its own without a lock, relying on
/// the publisher to order its deliveries: the thread sanitizer reports two deliveries that the
/// publisher failed to order, even if they did not overlap in time. (A delivery that does overlap
/// another is only counted, not recorded, so that it cannot corrupt that storage.) The flag, and
/// the demand it keeps for the requester threads, are relaxed atomics, which order nothing.
///
/// It releases its subscription on completion or cancel, as `sink` does, and signals
/// ``deinitSignal`` when it is deinitialized.
// @unchecked Sendable: `condition` guards the subscription; the delivery state is touched only
// inside deliveries, which the publisher must not overlap (the overlap flag keeps overlapping ones
// out of it); the rest is atomic.
final class StressSink<Input: Sendable, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    /// What the subscriber saw.
    struct Report {
        var values: [Input] = []
        var completions: [Subscribers.Completion<Failure>] = []
        /// How many values, arrays included, arrived.
        var received = 0
        /// The sum of what it asked for: initially, in requests and in answer to values.
        var requested = Subscribers.Demand.none
        /// Deliveries that began while another was under way.
        var overlaps = 0
        /// Values that arrived beyond what had been asked for.
        var demandViolations = 0
        /// Deliveries, completions included, that began after `cancel()` returned.
        var lateDeliveries = 0
        /// Deliveries that began after the completion.
        var afterCompletion = 0
        /// Deliveries that began while the subscriber was still in `receive(subscription:)`, which
        /// some operators promise never to make (it asks for its first values from there). Not part of
        /// ``expectWellBehaved(maxLate:sourceLocation:)``.
        var duringSubscription = 0
        /// Subscriptions beyond the first.
        var extraSubscriptions = 0

        /// Checks the rules every run keeps: no overlapping delivery, no value beyond demand, nothing
        /// after the completion, at most one completion and one subscription, and at most
        /// `maxLate` deliveries that began after `cancel()` returned.
        func expectWellBehaved(maxLate: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(overlaps == 0, "deliveries overlapped", sourceLocation: sourceLocation)
            #expect(demandViolations == 0, "values beyond demand", sourceLocation: sourceLocation)
            #expect(afterCompletion == 0, "deliveries after the completion", sourceLocation: sourceLocation)
            #expect(completions.count <= 1, "more than one completion", sourceLocation: sourceLocation)
            #expect(extraSubscriptions == 0, "more than one subscription", sourceLocation: sourceLocation)
            #expect(lateDeliveries <= maxLate, "deliveries after cancel() returned", sourceLocation: sourceLocation)
        }
    }

    /// What ``requested`` holds for unlimited demand.
    private static var unlimited: Int { .max }

    let combineIdentifier = CombineIdentifier()

    // Delivery state: no lock (see above).
    private var delivered = Report()
    private var completed = false

    // Shared with the other threads.
    private let inside = Atomic<Bool>(false)
    private let overlaps = Atomic<Int>(0)
    private let requested = Atomic<Int>(0)
    private let cancelReturned = Atomic<Bool>(false)
    private let subscribing = Atomic<Bool>(false)
    private let initialDemand: Subscribers.Demand
    private let demandPerValue: Subscribers.Demand
    private let spin: Int
    private let onValue: (@Sendable (_ sink: StressSink, _ value: Input, _ received: Int) -> Void)?
    private let onSubscription: (@Sendable () -> Void)?

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var subscription: (any Subscription)?
    private weak var subscriptionObject: AnyObject?
    private var subscribed = false
    private var extraSubscriptions = 0
    private var finished = false

    /// Signalled when the subscriber is deinitialized.
    let deinitSignal = DispatchSemaphore(value: 0)

    /// Creates a subscriber that asks for `initialDemand` when it gets its subscription and for
    /// `demandPerValue` more with each value, and spins `spin` steps inside each delivery to widen the
    /// window for overlaps. `onValue` runs inside each value's delivery, with the subscriber, the value
    /// and the number of values received so far, this one included; `onSubscription` runs at the end of
    /// `receive(subscription:)`, once the initial demand is asked for.
    init(
        initialDemand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none, spin: Int = 300,
        onValue: (@Sendable (_ sink: StressSink, _ value: Input, _ received: Int) -> Void)? = nil,
        onSubscription: (@Sendable () -> Void)? = nil
    ) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
        self.spin = spin
        self.onValue = onValue
        self.onSubscription = onSubscription
    }

    deinit {
        deinitSignal.signal()
    }

    /// Adds to the demand asked for, before it is asked for.
    private func addRequested(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        let amount = demand.max ?? Self.unlimited
        var current = requested.load(ordering: .relaxed)
        while current != Self.unlimited {
            let next = amount == Self.unlimited || current > Self.unlimited - amount ? Self.unlimited : current + amount
            let (exchanged, original) = requested.compareExchange(
                expected: current, desired: next, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// Marks the start of a delivery: false, and counted, if another is under way.
    private func enter() -> Bool {
        guard !inside.exchange(true, ordering: .relaxed) else {
            overlaps.add(1, ordering: .relaxed)
            return false
        }
        return true
    }

    private func leave() {
        inside.store(false, ordering: .relaxed)
    }

    /// Records a delivery's bookkeeping that every kind shares.
    private func recordDelivery() {
        if cancelReturned.load(ordering: .acquiring) { delivered.lateDeliveries += 1 }
        if completed { delivered.afterCompletion += 1 }
        if subscribing.load(ordering: .relaxed) { delivered.duringSubscription += 1 }
    }

    func receive(subscription: any Subscription) {
        let accepted = condition.withLock { () -> Bool in
            guard !subscribed else {
                extraSubscriptions += 1
                return false
            }
            subscribed = true
            self.subscription = subscription
            subscriptionObject = subscription as AnyObject
            condition.broadcast()
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        subscribing.store(true, ordering: .relaxed)
        addRequested(initialDemand)
        if initialDemand > 0 { subscription.request(initialDemand) }
        onSubscription?()
        subscribing.store(false, ordering: .relaxed)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard enter() else { return demandPerValue }
        let steps = stressSpin(spin)
        recordDelivery()
        delivered.received += 1
        let requestedSoFar = requested.load(ordering: .relaxed)
        if requestedSoFar != Self.unlimited, delivered.received > requestedSoFar { delivered.demandViolations += 1 }
        delivered.values.append(input)
        // Counted before it is returned, so that a value it lets through never looks unasked for.
        addRequested(demandPerValue)
        onValue?(self, input, delivered.received)
        withExtendedLifetime(steps) {}
        leave()
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        guard enter() else { return }
        recordDelivery()
        delivered.completions.append(completion)
        completed = true
        leave()
        // What this delivery and those before it recorded happens before the end of a wait for it.
        let released = condition.withLock { () -> (any Subscription)? in
            finished = true
            condition.broadcast()
            return subscription.take()
        }
        withExtendedLifetime(released) {}
    }

    /// Asks for `demand` more, counting it first, unless the stream is over.
    func request(_ demand: Subscribers.Demand) {
        condition.lock()
        let live = subscription
        condition.unlock()
        guard let live, !cancelReturned.load(ordering: .acquiring) else { return }
        addRequested(demand)
        live.request(demand)
    }

    /// Cancels the subscription; deliveries that begin after this returns are late.
    func cancel() {
        condition.lock()
        let live = subscription
        condition.unlock()
        live?.cancel()
        cancelReturned.store(true, ordering: .releasing)
        let released = condition.withLock { () -> (any Subscription)? in
            condition.broadcast()
            return subscription.take()
        }
        withExtendedLifetime(released) {}
    }

    /// Waits for the subscription; false if it did not come in time.
    func waitUntilSubscribed() -> Bool {
        wait { $0.subscribed }
    }

    /// Waits for the completion; false if it did not come in time. Once it returns true, the report
    /// holds every delivery.
    func waitForCompletion() -> Bool {
        wait { $0.finished }
    }

    private func wait(until done: (StressSink) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: TimeInterval(stressTimeoutSeconds))
        return condition.withLock {
            while !done(self) {
                guard condition.wait(until: deadline) else { return false }
            }
            return true
        }
    }

    /// What the subscriber saw. Read it once the deliveries are over, and ordered before the read: after
    /// ``waitForCompletion()``, after the threads that delivered were joined, or after the scheduler
    /// that delivered went idle.
    var report: Report {
        var report = delivered
        report.overlaps = overlaps.load(ordering: .relaxed)
        let total = requested.load(ordering: .relaxed)
        report.requested = total == Self.unlimited ? .unlimited : .max(total)
        report.extraSubscriptions = condition.withLock { extraSubscriptions }
        return report
    }

    /// The subscription it was given, while it is alive.
    var subscriptionReference: AnyObject? { condition.withLock { subscriptionObject } }

    /// Whether a subscription came, and the subscription if it is still alive. A subscription that
    /// came and is already gone (a timer that failed the chain before the test looked, say) was
    /// freed, which is what a leak check wants to know.
    var subscriptionSeen: (subscribed: Bool, object: AnyObject?) {
        condition.withLock { (subscribed, subscriptionObject) }
    }
}

/// A one-time event that threads wait for. It is a pthread condition, so the thread sanitizer sees
/// what happened before ``signal()`` as happening before ``wait()`` returns.
// @unchecked Sendable: `signalled` is guarded by `condition`.
final class StressSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var signalled = false

    func signal() {
        condition.withLock {
            signalled = true
            condition.broadcast()
        }
    }

    /// Waits for the signal; false if it did not come in time.
    func wait() -> Bool {
        let deadline = Date(timeIntervalSinceNow: TimeInterval(stressTimeoutSeconds))
        return condition.withLock {
            while !signalled {
                guard condition.wait(until: deadline) else { return false }
            }
            return true
        }
    }
}

/// Counts work under way, and lets a thread wait until none is. It is a pthread condition, so the
/// thread sanitizer sees what each piece of work did as happening before ``waitUntilZero()`` returns.
// @unchecked Sendable: `count` is guarded by `condition`.
final class StressCountdown: @unchecked Sendable {
    private let condition = NSCondition()
    private var count = 0

    func enter() {
        condition.withLock { count += 1 }
    }

    func leave() {
        condition.withLock {
            count -= 1
            if count == 0 { condition.broadcast() }
        }
    }

    /// Waits until nothing is under way; false if that did not happen in time.
    func waitUntilZero() -> Bool {
        let deadline = Date(timeIntervalSinceNow: TimeInterval(stressTimeoutSeconds))
        return condition.withLock {
            while count > 0 {
                guard condition.wait(until: deadline) else { return false }
            }
            return true
        }
    }
}

// MARK: A plan for one source

/// Who does what in a stress run on one ``StressSource`` and one ``StressSink``: each role runs on
/// threads of its own, all released together.
struct StressPlan: Sendable {
    /// Threads sending through the source; each sends `perSender` values, fewer if the source ends.
    var senders = 4
    var perSender = 250
    /// Threads asking the sink for more, each `requests` times `.max(1)`.
    var requesters = 0
    var requests = 0
    /// If set, a thread cancels the sink once the source has sent this many values.
    var cancelAfterSent: Int?
    /// Whether the source finishes once the threads are done.
    var finishes = true
}

/// Runs `plan`, with `alongside` more threads running `extra(0)`, …, `extra(alongside - 1)`, then, if
/// the plan says so, finishes the source. Returns false if a thread did not return, or a sender
/// waited for demand, until the deadline.
func runStress<Output: Sendable, Failure: Error>(
    _ plan: StressPlan, source: StressSource<StressValue, Failure>, sink: StressSink<Output, Failure>,
    alongside: Int = 0, _ extra: (@Sendable (Int) -> Void)? = nil
) -> Bool {
    let stuck = Atomic<Int>(0)
    let canceller = plan.cancelAfterSent
    let roles = plan.senders + plan.requesters + (canceller == nil ? 0 : 1)
    let joined = runOnThreads(roles + alongside) { index in
        if index >= roles {
            extra?(index - roles)
        } else if index < plan.senders {
            if !stressSend(source, sender: index, count: plan.perSender) {
                stuck.add(1, ordering: .relaxed)
            }
        } else if index < plan.senders + plan.requesters {
            for _ in 0..<plan.requests { sink.request(.max(1)) }
        } else if let canceller {
            _ = source.waitUntilSent(canceller)
            sink.cancel()
        }
    }
    if plan.finishes { source.finish() }
    return joined && stuck.load(ordering: .relaxed) == 0
}

/// Runs `senders` threads that send `perSender` values each through `source`, then races the
/// source's `finish()`, on one thread, against the sink's `cancel()`, on another: both start as the
/// last value goes out. Returns false if a thread did not return, or a sender waited for demand,
/// until the deadline.
func runCancelRacingFinish<Output: Sendable, Failure: Error>(
    senders: Int, perSender: Int, source: StressSource<StressValue, Failure>, sink: StressSink<Output, Failure>
) -> Bool {
    let total = senders * perSender
    let plan = StressPlan(senders: senders, perSender: perSender, cancelAfterSent: total, finishes: false)
    return runStress(plan, source: source, sink: sink, alongside: 1) { _ in
        _ = source.waitUntilSent(total)
        source.finish()
    }
}

// MARK: Scheduler

/// A scheduler that runs everything on a real dispatch queue, serial or concurrent, and counts what it
/// was given and is not done with: actions not yet run, repeating actions not yet cancelled.
///
/// Each action is released as soon as it has run, or been cancelled, before the count drops: once
/// ``waitUntilIdle()`` returns, nothing the scheduler was given holds on to an operator any more, no
/// scheduled delivery is still to come, and what the actions did happens before the return.
// @unchecked Sendable: the queue and the countdown are thread-safe; each action's box has a lock of its own.
final class StressScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    typealias SchedulerOptions = DispatchQueue.SchedulerOptions

    let queue: DispatchQueue
    private let outstanding = StressCountdown()

    init(_ label: String, concurrent: Bool) {
        queue = DispatchQueue(label: label, attributes: concurrent ? .concurrent : [])
    }

    var now: SchedulerTimeType { queue.now }

    var minimumTolerance: SchedulerTimeType.Stride { queue.minimumTolerance }

    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let box = StressActionBox(action)
        outstanding.enter()
        queue.schedule(options: options) { [outstanding] in
            box.runOnce()
            outstanding.leave()
        }
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let box = StressActionBox(action)
        outstanding.enter()
        queue.schedule(after: date, tolerance: tolerance, options: options) { [outstanding] in
            box.runOnce()
            outstanding.leave()
        }
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let repeating = StressRepeatingAction(action, outstanding: outstanding)
        outstanding.enter()
        let timer = queue.schedule(after: date, interval: interval, tolerance: tolerance, options: options) {
            repeating.fire()
        }
        return StressTimer(action: repeating, timer: timer)
    }

    /// Waits until every action given has run and every repeating one has been cancelled, or
    /// released; false if that did not happen in time.
    func waitUntilIdle() -> Bool {
        outstanding.waitUntilZero()
    }
}

/// One action for ``StressScheduler``, run once and released before the scheduler counts it done.
// @unchecked Sendable: `action` is guarded by `lock`.
final class StressActionBox: @unchecked Sendable {
    private let lock = NSLock()
    private var action: (() -> Void)?

    init(_ action: @escaping () -> Void) {
        self.action = action
    }

    func runOnce() {
        var taken = lock.withLock { action.take() }
        taken?()
        // The operator's closure goes before the scheduler counts the action done.
        taken = nil
    }
}

/// A repeating action for ``StressScheduler``: done once cancelled and no longer running, and then
/// released.
// @unchecked Sendable: every mutable property is guarded by `lock`.
final class StressRepeatingAction: @unchecked Sendable {
    private let lock = NSLock()
    private var action: (() -> Void)?
    private var running = 0
    private var done = false
    private let outstanding: StressCountdown

    init(_ action: @escaping () -> Void, outstanding: StressCountdown) {
        self.action = action
        self.outstanding = outstanding
    }

    func fire() {
        var taken = lock.withLock { () -> (() -> Void)? in
            guard let action else { return nil }
            running += 1
            return action
        }
        guard taken != nil else { return }
        taken?()
        taken = nil
        if lock.withLock({ () -> Bool in
            running -= 1
            return settle()
        }) {
            outstanding.leave()
        }
    }

    func cancel() {
        let (released, finished) = lock.withLock { () -> ((() -> Void)?, Bool) in
            let released = action.take()
            return (released, settle())
        }
        withExtendedLifetime(released) {}
        if finished { outstanding.leave() }
    }

    /// Called with `lock` held: whether the action has just become done.
    private func settle() -> Bool {
        guard action == nil, running == 0, !done else { return false }
        done = true
        return true
    }
}

/// What ``StressScheduler`` hands back for a repeating action: cancelling it, or releasing it, stops
/// the timer, as the dispatch queue's own cancellable does.
final class StressTimer: Cancellable {
    private let action: StressRepeatingAction
    private let timer: any Cancellable

    init(action: StressRepeatingAction, timer: any Cancellable) {
        self.action = action
        self.timer = timer
    }

    func cancel() {
        action.cancel()
        timer.cancel()
    }

    deinit {
        cancel()
    }
}

// MARK: Leaks

/// Collects what a stress test expects to be freed once its chain is done, and says what was not.
// @unchecked Sendable: `entries` is guarded by `lock`.
final class StressLeakProbe: @unchecked Sendable {
    private final class WeakReference {
        weak var object: AnyObject?

        init(_ object: AnyObject?) {
            self.object = object
        }
    }

    private enum Entry {
        case deinitSignal(String, DispatchSemaphore)
        case weak(String, WeakReference)
        /// An object to watch that was already gone, or never there, when the test named it.
        case missing(String)
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    /// Expects a source to be deinitialized.
    func watch<Output, Failure>(_ name: String, _ source: StressSource<Output, Failure>) {
        lock.withLock { entries.append(.deinitSignal(name, source.deinitSignal)) }
    }

    /// Expects a subscriber to be deinitialized.
    func watch<Input, Failure>(_ name: String, _ sink: StressSink<Input, Failure>) {
        lock.withLock { entries.append(.deinitSignal(name, sink.deinitSignal)) }
    }

    /// Expects a source, the subscriber, and the subscription the subscriber was given (the operator's
    /// object) to be freed. Call it once the subscriber has its subscription.
    func watchChain<Output, Input, Failure>(
        source: StressSource<Output, Failure>, sink: StressSink<Input, Failure>, operatorName: String
    ) {
        watch("source", source)
        watch("subscriber", sink)
        watchSubscription(operatorName, of: sink)
    }

    /// Expects the subscription `sink` was given (the operator's object) to be freed. One that came
    /// and is already gone counts as freed; one that never came is reported, since the test could
    /// not watch it.
    func watchSubscription<Input, Failure>(_ name: String, of sink: StressSink<Input, Failure>) {
        let seen = sink.subscriptionSeen
        lock.withLock { entries.append(seen.subscribed ? .weak(name, WeakReference(seen.object)) : .missing(name)) }
    }

    /// Expects an object of the operator's to be freed. Name it while it is alive: `nil` is reported,
    /// since the test could not watch it.
    func watch(_ name: String, object: AnyObject?) {
        lock.withLock { entries.append(object == nil ? .missing(name) : .weak(name, WeakReference(object))) }
    }

    /// The names of what is still alive. Each object of the tests' own gets until the deadline to be
    /// deinitialized (a thread that just ran may still be letting go of it); the operator's objects,
    /// checked after those, must be gone by then. Call it once: it consumes the deinit signals.
    func survivors() -> [String] {
        let entries = lock.withLock { self.entries }
        var alive: [String] = []
        for entry in entries {
            if case .deinitSignal(let name, let signal) = entry, signal.wait(timeout: stressDeadline()) != .success {
                alive.append(name)
            }
        }
        for entry in entries {
            switch entry {
            case .deinitSignal: continue
            case .weak(let name, let reference): if reference.object != nil { alive.append(name) }
            case .missing(let name): alive.append("\(name) (never seen)")
            }
        }
        return alive
    }
}

/// Checks that an exit test's process stopped with a message naming the rule broken (`rule`), not
/// merely that it stopped: a crash for any other reason, a test helper's own precondition say,
/// fails the check.
func expectTrapMessage(
    _ result: ExitTest.Result?, contains rule: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains(rule), "the process stopped with: \(message)", sourceLocation: sourceLocation)
}
