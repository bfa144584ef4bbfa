import Streams

/// The subscription a scripted test publisher gives each subscriber.
///
/// It records what the subscriber asks (into a ``RecordedSubscription``), keeps its demand, and
/// delivers the script's events: a hot publisher's values are dropped while the subscriber has no
/// demand, a cold publisher's values wait in a buffer until it has. Either way a completion comes
/// after every value delivered before it, and nothing is delivered after the subscriber cancels.
///
/// Until the stream ends it keeps its publisher alive (the publisher's scheduled script holds it only
/// weakly), so a subscriber keeps receiving even when the test let go of the publisher itself.
final class ScriptedSubscription<Output, Failure: Error, Time: Strideable>: Subscription, CustomStringConvertible,
    // @unchecked: every mutable stored property below is guarded by `lock`.
    @unchecked Sendable
where Time.Stride: SchedulerTimeIntervalConvertible {

    /// What a value does while the subscriber has no demand.
    enum Backlog {
        /// The value is lost, as with a subject.
        case drop
        /// The value waits, with everything after it, until demand arrives.
        case buffer
    }

    /// What `drain()` does next, decided under the lock.
    private enum Step {
        case deliver(Output, AnySubscriber<Output, Failure>)
        case complete(Subscribers.Completion<Failure>, AnySubscriber<Output, Failure>)
        case stop
    }

    let description: String
    private let clock: VirtualClock<Time>
    private let backlog: Backlog
    private let lock = Lock()
    private var downstream: AnySubscriber<Output, Failure>?
    private var publisher: AnyObject?
    private var record: RecordedSubscription<Time.Stride>
    private var demand = Subscribers.Demand.none
    private var pendingValues: [Output] = []
    private var pendingCompletion: Subscribers.Completion<Failure>?
    private var isDraining = false

    init(
        name: String, publisher: AnyObject, subscriber: AnySubscriber<Output, Failure>,
        clock: VirtualClock<Time>, backlog: Backlog
    ) {
        description = name
        self.publisher = publisher
        downstream = subscriber
        self.clock = clock
        self.backlog = backlog
        record = RecordedSubscription(subscribed: clock.elapsed)
    }

    /// What the subscriber has asked so far.
    var recorded: RecordedSubscription<Time.Stride> {
        lock.withLock { record }
    }

    /// Hands the subscription to the subscriber.
    func start() {
        let subscriber = lock.withLock { downstream }
        subscriber?.receive(subscription: self)
    }

    // MARK: Subscription

    func request(_ additional: Subscribers.Demand) {
        let time = clock.elapsed
        lock.withLock {
            record.demands.append(Recorded(additional, at: time))
            if downstream != nil { demand += additional }
        }
        drain()
    }

    func cancel() {
        let time = clock.elapsed
        lock.withLock {
            if record.cancelled == nil { record.cancelled = time }
            downstream = nil
            publisher = nil
            pendingValues = []
            pendingCompletion = nil
        }
    }

    // MARK: Events from the script

    /// Sends `value` if the subscriber has demand; otherwise drops or buffers it.
    func send(_ value: Output) {
        let buffered: Bool = lock.withLock {
            guard downstream != nil else { return false }
            switch backlog {
            case .drop:
                // Values already accepted but not yet delivered have used their share of demand.
                guard demand > pendingValues.count else { return false }
                pendingValues.append(value)
            case .buffer:
                pendingValues.append(value)
            }
            return true
        }
        if buffered { drain() }
    }

    /// Sends `completion` once every value before it has been delivered.
    func send(completion: Subscribers.Completion<Failure>) {
        lock.withLock {
            guard downstream != nil, pendingCompletion == nil else { return }
            pendingCompletion = completion
        }
        drain()
    }

    /// Delivers what is pending, as far as demand allows. Only one call delivers at a time: a call
    /// made from inside delivery (a re-entrant request) only adds its demand, and the outer call
    /// goes on with it.
    private func drain() {
        let canStart = lock.withLock {
            guard !isDraining else { return false }
            isDraining = true
            return true
        }
        guard canStart else { return }
        while true {
            switch nextStep() {
            case .deliver(let value, let subscriber):
                let more = subscriber.receive(value)
                if more > 0 {
                    let time = clock.elapsed
                    lock.withLock {
                        record.demands.append(Recorded(more, at: time))
                        if downstream != nil { demand += more }
                    }
                }
            case .complete(let completion, let subscriber):
                subscriber.receive(completion: completion)
                return
            case .stop:
                return
            }
        }
    }

    /// Takes the next thing to deliver, or ends the drain; under the lock.
    private func nextStep() -> Step {
        lock.withLock {
            guard let subscriber = downstream else {
                isDraining = false
                return .stop
            }
            if !pendingValues.isEmpty {
                guard demand > 0 else {
                    isDraining = false
                    return .stop
                }
                demand -= 1
                return .deliver(pendingValues.removeFirst(), subscriber)
            }
            if let completion = pendingCompletion {
                pendingCompletion = nil
                downstream = nil
                publisher = nil
                isDraining = false
                return .complete(completion, subscriber)
            }
            isDraining = false
            return .stop
        }
    }
}

/// The part of `script` that can be played: all of it, or, when an event breaks a rule (a
/// subscription event, a negative time, a second completion, an event after the completion), the
/// events before that one, after failing the running test, at `caller` (the test's call that was
/// given the script), with a message that says which rule.
func playableScript<Time: Comparable & SignedNumeric, Output, Failure>(
    _ script: [Recorded<Time, TestEvent<Output, Failure>>], publisher: String, at caller: CallSite
) -> [Recorded<Time, TestEvent<Output, Failure>>] {
    var problems: [(index: Int, problem: String)] = []
    var completionIndex: Int?
    for (index, event) in script.enumerated() {
        if event.value.isSubscription {
            problems.append(
                (
                    index,
                    "is .subscription: subscriptions are recorded when subscribers subscribe, a script holds only values and a completion"
                ))
        } else if event.time < .zero {
            problems.append((index, "has a negative time; times count from zero"))
        } else if event.value.completion != nil {
            if completionIndex != nil {
                problems.append((index, "is a second completion; a script has at most one"))
            } else {
                completionIndex = index
            }
        }
    }
    if let completionIndex {
        let end = script[completionIndex].time
        for (index, event) in script.enumerated() where index != completionIndex {
            if event.time > end || (event.time == end && index > completionIndex) {
                problems.append((index, "comes after the completion: nothing can follow a completion"))
            }
        }
    }
    guard let first = problems.min(by: { $0.index < $1.index }) else { return script }
    TestIssueReporter.report("\(publisher) script event \(first.index) \(first.problem).", at: caller)
    return Array(script[..<first.index])
}
