import Dispatch
import Foundation
import Streams
import StreamsTesting
import Synchronization
import Testing

// Helpers for the tests of the time-based operators and timers: debounce, throttle, collect by time,
// autoconnect, Timer.publish and SchedulerTimer.

/// The error the pacing tests send upstream.
enum PacingError: Error, Equatable {
    case oops
}

/// What a ``PacingSubscription`` was asked to do.
enum PacingUpstreamEvent: Equatable {
    case requested(Subscribers.Demand)
    case cancelled
}

/// A subscription that records every request and cancel, in order.
final class PacingSubscription: Subscription, Sendable {
    private let recorded = Mutex<[PacingUpstreamEvent]>([])

    /// Everything asked of the subscription so far.
    var events: [PacingUpstreamEvent] {
        recorded.withLock { $0 }
    }

    /// The sum of every request so far.
    var totalDemand: Subscribers.Demand {
        events.reduce(.none) { total, event in
            if case .requested(let demand) = event { return total + demand }
            return total
        }
    }

    func request(_ demand: Subscribers.Demand) {
        recorded.withLock { $0.append(.requested(demand)) }
    }

    func cancel() {
        recorded.withLock { $0.append(.cancelled) }
    }
}

/// A publisher the test drives by hand: it hands its subscriber ``subscription``, then sends what
/// the test tells it to, and returns the demand the subscriber answers with.
final class PacingUpstream<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // @unchecked: `subscriber` is guarded by `lock`.
    private let lock = NSLock()
    private var subscriber: AnySubscriber<Output, Failure>?

    /// The subscription handed to the subscriber.
    let subscription = PacingSubscription()

    /// What the subscriber asked of ``subscription``.
    var events: [PacingUpstreamEvent] { subscription.events }

    func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        lock.withLock { self.subscriber = AnySubscriber(subscriber) }
        subscriber.receive(subscription: subscription)
    }

    private var current: AnySubscriber<Output, Failure> {
        guard let subscriber = lock.withLock({ self.subscriber }) else {
            preconditionFailure("Nothing subscribed to the pacing upstream")
        }
        return subscriber
    }

    /// Sends a value and returns the demand the subscriber answered with.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        current.receive(value)
    }

    /// Sends a completion.
    func send(completion: Subscribers.Completion<Failure>) {
        current.receive(completion: completion)
    }

    /// Hands the subscriber another subscription, as a misbehaving upstream would.
    func send(subscription: any Subscription) {
        current.receive(subscription: subscription)
    }
}

/// A connectable publisher that records its connections and lets the test send to whoever is
/// subscribed.
final class PacingConnectable<Output, Failure: Error>: ConnectablePublisher, @unchecked Sendable {
    // @unchecked: `log` is guarded by `lock`; the subject is thread-safe.

    /// What happened to the connection.
    enum ConnectionEvent: Equatable {
        case connected
        case disconnected
    }

    private let lock = NSLock()
    private var log: [ConnectionEvent] = []
    private var subscriberDescriptions: [String] = []
    private let subject = PassthroughSubject<Output, Failure>()

    /// Every connect and cancelled connection, in order.
    var connections: [ConnectionEvent] {
        lock.withLock { log }
    }

    /// How each subscriber described itself when it attached.
    var subscribers: [String] {
        lock.withLock { subscriberDescriptions }
    }

    func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        lock.withLock { subscriberDescriptions.append(String(describing: subscriber)) }
        subject.receive(subscriber: subscriber)
    }

    func connect() -> any Cancellable {
        lock.withLock { log.append(.connected) }
        return AnyCancellable { [self] in
            lock.withLock { log.append(.disconnected) }
        }
    }

    func send(_ value: Output) {
        subject.send(value)
    }

    func send(completion: Subscribers.Completion<Failure>) {
        subject.send(completion: completion)
    }
}

/// A scheduler that forwards to a test scheduler and records each call that schedules work, so
/// tests can check how an operator uses its scheduler (dates, intervals, tolerances, options).
final class PacingRecordingScheduler: Scheduler, @unchecked Sendable {
    // @unchecked: `log` is guarded by `lock`; the test scheduler is thread-safe.
    typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    typealias SchedulerOptions = String

    /// One call that scheduled work, with dates as offsets from the scheduler's start.
    enum Call: Equatable {
        case now(options: String?)
        case after(Int, tolerance: Int, options: String?)
        case every(Int, interval: Int, tolerance: Int, options: String?)
    }

    let base = DispatchQueue.test
    let start: SchedulerTimeType
    private let lock = NSLock()
    private var log: [Call] = []

    init() {
        start = base.now
    }

    /// Every call so far, in order.
    var calls: [Call] {
        lock.withLock { log }
    }

    var now: SchedulerTimeType { base.now }

    var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(7) }

    private func offset(_ date: SchedulerTimeType) -> Int {
        start.distance(to: date).magnitude
    }

    func schedule(options: String?, _ action: @escaping () -> Void) {
        lock.withLock { log.append(.now(options: options)) }
        base.schedule(action)
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: String?,
        _ action: @escaping () -> Void
    ) {
        lock.withLock { log.append(.after(offset(date), tolerance: tolerance.magnitude, options: options)) }
        base.schedule(after: date, tolerance: tolerance, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: String?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        lock.withLock {
            log.append(
                .every(offset(date), interval: interval.magnitude, tolerance: tolerance.magnitude, options: options))
        }
        return base.schedule(after: date, interval: interval, tolerance: tolerance, action)
    }
}

/// Counts events from any thread and lets a test wait until enough have happened.
final class PacingCounter<Value>: @unchecked Sendable {
    // @unchecked: `storage` and `waiters` are guarded by `lock`.
    private let lock = NSLock()
    private var storage: [Value] = []
    private var waiters: [(count: Int, semaphore: DispatchSemaphore)] = []

    /// Everything recorded so far.
    var values: [Value] {
        lock.withLock { storage }
    }

    func append(_ value: Value) {
        let ready = lock.withLock { () -> [DispatchSemaphore] in
            storage.append(value)
            let ready = waiters.filter { $0.count <= storage.count }.map(\.semaphore)
            waiters.removeAll { $0.count <= storage.count }
            return ready
        }
        for semaphore in ready { semaphore.signal() }
    }

    /// Waits until at least `count` values have been recorded; false on time-out.
    func wait(forCount count: Int, timeout: DispatchTimeInterval = pacingTimeout) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        let isDone = lock.withLock { () -> Bool in
            guard storage.count < count else { return true }
            waiters.append((count, semaphore))
            return false
        }
        return isDone || semaphore.wait(timeout: .now() + timeout) == .success
    }
}

/// How long the pacing tests wait for something that should happen; reaching it means the event is
/// missing.
let pacingTimeout: DispatchTimeInterval = .seconds(10)

extension DispatchQueue.SchedulerTimeType {
    /// The distance from `start`, in milliseconds, for readable assertions on virtual times.
    func milliseconds(since start: Self) -> Int {
        start.distance(to: self).magnitude / 1_000_000
    }
}

/// Records the virtual time, in milliseconds since `start`, at which `subscriber` receives each
/// value (it takes the subscriber's `onReceiveValue` hook).
func pacingArrivals<Input, Failure>(
    of subscriber: TestSubscriber<Input, Failure>,
    on scheduler: TestSchedulerOf<DispatchQueue>,
    since start: DispatchQueue.SchedulerTimeType
) -> PacingCounter<Int> {
    let arrivals = PacingCounter<Int>()
    subscriber.onReceiveValue { _ in arrivals.append(scheduler.now.milliseconds(since: start)) }
    return arrivals
}
