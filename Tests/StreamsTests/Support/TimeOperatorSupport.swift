import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

/// The error the time-operator tests (receive(on:), subscribe(on:), delay, measureInterval, timeout)
/// fail with.
struct TimeTestError: Error, Equatable {
    var code = 0
}

/// What a ``TimeTestSubscription`` was asked to do.
enum TimeUpstreamEvent: Equatable {
    case request(Subscribers.Demand)
    case cancel
}

/// A subscription that records every request and cancel, thread-safely, and whether one of them was
/// made from within another.
// @unchecked Sendable: every mutable property is guarded by `lock`.
final class TimeTestSubscription: Subscription, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [TimeUpstreamEvent] = []
    private var depth = 0
    private var nested = false
    private var requestHook: ((Subscribers.Demand) -> Void)?
    private var queues: [String?] = []

    /// Everything asked, in order.
    var events: [TimeUpstreamEvent] { lock.withLock { recorded } }

    /// Whether a request or cancel arrived while another was still running.
    var sawNestedCall: Bool { lock.withLock { nested } }

    /// The label of the marked queue each call ran on (see ``TimeMarkedQueue``), `nil` elsewhere.
    var callQueues: [String?] { lock.withLock { queues } }

    /// Runs `body` inside each request, after recording it.
    func onRequest(_ body: @escaping (Subscribers.Demand) -> Void) {
        lock.withLock { requestHook = body }
    }

    func request(_ demand: Subscribers.Demand) {
        let hook = lock.withLock {
            recorded.append(.request(demand))
            queues.append(TimeMarkedQueue.currentLabel)
            depth += 1
            if depth > 1 { nested = true }
            return requestHook
        }
        hook?(demand)
        lock.withLock { depth -= 1 }
    }

    func cancel() {
        lock.withLock {
            recorded.append(.cancel)
            queues.append(TimeMarkedQueue.currentLabel)
            if depth > 0 { nested = true }
        }
    }
}

/// A publisher driven by the test: it hands its subscriber a ``TimeTestSubscription`` and sends
/// values, completions and extra subscriptions straight into that subscriber, returning the demand it
/// answers. It keeps sending after a cancel when told to, so that tests can check that the operator
/// itself drops what comes late.
// @unchecked Sendable: every mutable property is guarded by `lock`.
final class TimeTestPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private let lock = NSLock()
    private var downstream: AnySubscriber<Output, Failure>?
    private var subscriberObject: AnyObject?
    private var subscribeCount = 0
    private var subscribeQueues: [String?] = []

    /// The subscription handed to the subscriber.
    let subscription = TimeTestSubscription()

    /// How many times something subscribed.
    var subscriptions: Int { lock.withLock { subscribeCount } }

    /// The label of the marked queue each subscription was made on, `nil` elsewhere.
    var subscribedOn: [String?] { lock.withLock { subscribeQueues } }

    /// The operator's subscriber, as an object, for weak references.
    var subscriber: AnyObject? { lock.withLock { subscriberObject } }

    func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        lock.withLock {
            downstream = AnySubscriber(subscriber)
            subscriberObject = subscriber as AnyObject
            subscribeCount += 1
            subscribeQueues.append(TimeMarkedQueue.currentLabel)
        }
        subscriber.receive(subscription: subscription)
    }

    private var target: AnySubscriber<Output, Failure>? { lock.withLock { downstream } }

    /// Sends a value and returns the demand the subscriber answered with.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        target?.receive(value) ?? .none
    }

    func send(completion: Subscribers.Completion<Failure>) {
        target?.receive(completion: completion)
    }

    /// Sends another subscription, as a misbehaving publisher would.
    func send(subscription: any Subscription) {
        target?.receive(subscription: subscription)
    }

    /// Lets go of the subscriber.
    func detach() {
        let released = lock.withLock {
            subscriberObject = nil
            return downstream.take()
        }
        withExtendedLifetime(released) {}
    }
}

/// A scheduler that counts what it is asked to schedule and forwards everything to `base`.
// @unchecked Sendable: the counters are guarded by `lock`; `base` is only used through its own API.
final class CountingScheduler<Base: Scheduler>: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = Base.SchedulerTimeType
    typealias SchedulerOptions = Base.SchedulerOptions

    let base: Base
    private let lock = NSLock()
    private var counts = (immediate: 0, delayed: 0, repeating: 0, now: 0)

    init(_ base: Base) {
        self.base = base
    }

    /// How many actions were scheduled to run as soon as possible.
    var immediateCount: Int { lock.withLock { counts.immediate } }
    /// How many actions were scheduled for a date.
    var delayedCount: Int { lock.withLock { counts.delayed } }
    /// How many repeating actions were scheduled.
    var repeatingCount: Int { lock.withLock { counts.repeating } }
    /// How many times the clock was read.
    var nowCount: Int { lock.withLock { counts.now } }

    var now: SchedulerTimeType {
        lock.withLock { counts.now += 1 }
        return base.now
    }
    var minimumTolerance: SchedulerTimeType.Stride { base.minimumTolerance }

    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        lock.withLock { counts.immediate += 1 }
        base.schedule(options: options, action)
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        lock.withLock { counts.delayed += 1 }
        base.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        lock.withLock { counts.repeating += 1 }
        return base.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
    }
}

/// A scheduler with dispatch time that keeps every action until ``runNewestFirst()`` runs them in the
/// reverse of the order they were scheduled in: the worst order a scheduler could choose.
// @unchecked Sendable: `actions` is guarded by `lock`.
final class ReversingScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    typealias SchedulerOptions = Never

    private let lock = NSLock()
    private var actions: [() -> Void] = []
    let now = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1))
    var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// How many actions wait.
    var waiting: Int { lock.withLock { actions.count } }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        lock.withLock { actions.append(action) }
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {
        lock.withLock { actions.append(action) }
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        lock.withLock { actions.append(action) }
        return AnyCancellable {}
    }

    /// Runs the waiting actions, the most recently scheduled first.
    func runNewestFirst() {
        let taken = lock.withLock {
            defer { actions.removeAll() }
            return actions
        }
        for action in taken.reversed() { action() }
    }
}

/// A dispatch queue that tells whether code runs on it, through `setSpecific`/`getSpecific`.
final class TimeMarkedQueue: Sendable {
    let queue: DispatchQueue
    let label: String
    private static let key = DispatchSpecificKey<String>()

    init(_ label: String, attributes: DispatchQueue.Attributes = []) {
        self.label = label
        queue = DispatchQueue(label: label, attributes: attributes)
        queue.setSpecific(key: Self.key, value: label)
    }

    /// Whether the current code runs on this queue.
    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: Self.key) == label
    }

    /// The label of the marked queue the current code runs on, if any.
    static var currentLabel: String? {
        DispatchQueue.getSpecific(key: key)
    }
}

/// A value the real-queue tests share between threads, guarded by an `NSLock`.
// @unchecked Sendable: `storage` is only touched with `lock` held.
final class TimeTestBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value

    init(_ value: Value) {
        storage = value
    }

    var value: Value { lock.withLock { storage } }

    @discardableResult
    func withValue<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&storage) }
    }
}

/// Counts deliveries that overlap: a subscriber must never be entered by two at once.
// @unchecked Sendable: the counters are guarded by `lock`.
final class TimeOverlapDetector: @unchecked Sendable {
    private let lock = NSLock()
    private var inside = 0
    private var overlapCount = 0

    /// Runs `body` as one delivery, counting any overlap with another.
    func enter(_ body: () -> Void) {
        lock.withLock {
            inside += 1
            if inside > 1 { overlapCount += 1 }
        }
        body()
        lock.withLock { inside -= 1 }
    }

    var overlaps: Int { lock.withLock { overlapCount } }
}

/// The deadline for a real-queue test's wait, far enough never to be reached on a loaded machine.
func timeTestDeadline() -> DispatchTime {
    .now() + .seconds(20)
}

/// Milliseconds of virtual time between `start` and the scheduler's clock.
func elapsedMilliseconds(_ scheduler: TestSchedulerOf<DispatchQueue>, since start: DispatchQueue.SchedulerTimeType)
    -> Int
{
    start.distance(to: scheduler.now).magnitude / 1_000_000
}

/// A test scheduler whose clock starts at one nanosecond of uptime, and that start.
func makeTimeTestScheduler() -> (TestSchedulerOf<DispatchQueue>, DispatchQueue.SchedulerTimeType) {
    let scheduler = DispatchQueue.test
    return (scheduler, scheduler.now)
}

/// Subscribes to `publisher` with a subscriber that requests everything from within
/// `receive(subscription:)`, and returns what happened in order: when that call began and ended, each
/// value, and the completion.
func subscriptionOrderLog<P: Publisher>(_ publisher: P) -> [String] {
    let log = TimeTestBox<[String]>([])
    let subscriber = AnySubscriber<P.Output, P.Failure>(
        receiveSubscription: { subscription in
            log.withValue { $0.append("subscription begins") }
            subscription.request(.unlimited)
            log.withValue { $0.append("subscription ends") }
        },
        receiveValue: { value in
            log.withValue { $0.append("value \(value)") }
            return .none
        },
        receiveCompletion: { _ in log.withValue { $0.append("completion") } })
    publisher.subscribe(subscriber)
    return log.value
}

/// Subscribes to what `makePublisher` builds on `marked`'s queue with a subscriber that, from within
/// `receive(subscription:)`, requests everything and then waits until the queue has run everything
/// scheduled on it so far. Returns how many values had arrived by the end of that call, how many
/// arrived in all (`nil` if the completion never came), and how many arrived off the queue.
func valuesDuringSubscription<P: Publisher>(
    on marked: TimeMarkedQueue, _ makePublisher: (DispatchQueue) -> P
) -> (during: Int, total: Int?, offQueue: Int) {
    let received = TimeTestBox(0)
    let offQueue = TimeTestBox(0)
    let during = TimeTestBox(-1)
    let done = DispatchSemaphore(value: 0)
    let subscriber = AnySubscriber<P.Output, P.Failure>(
        receiveSubscription: { subscription in
            subscription.request(.unlimited)
            let marker = DispatchSemaphore(value: 0)
            marked.queue.async { marker.signal() }
            _ = marker.wait(timeout: timeTestDeadline())
            during.withValue { $0 = received.value }
        },
        receiveValue: { _ in
            received.withValue { $0 += 1 }
            if !marked.isCurrent { offQueue.withValue { $0 += 1 } }
            return .none
        },
        receiveCompletion: { _ in
            if !marked.isCurrent { offQueue.withValue { $0 += 1 } }
            done.signal()
        })
    makePublisher(marked.queue).subscribe(subscriber)
    let completed = done.wait(timeout: timeTestDeadline()) == .success
    return (during.value, completed ? received.value : nil, offQueue.value)
}
