import Dispatch
import Foundation
import Streams
import Synchronization

/// The error the async bridge tests fail with.
struct BridgeError: Error, Equatable {
    let code: Int

    init(_ code: Int = 1) {
        self.code = code
    }
}

/// What a ``BridgePublisher``'s subscription was asked.
enum BridgeCall: Hashable, Sendable {
    case requested(Subscribers.Demand)
    case cancelled
}

/// A publisher for one subscriber at a time, driven by the test, whose subscription records every
/// request and cancel.
///
/// It can answer requests by itself from a script: each request sends the next scripted values, on
/// the requesting thread or on a queue, and a request that finds the script used up sends the
/// scripted completion. Async tests wait for calls with ``waitForCalls(_:)``, which never sleeps: it
/// wakes on each recorded call.
final class BridgePublisher<Output, Failure: Error>: Publisher, Subscription, @unchecked Sendable {
    // @unchecked: `lock` guards every mutable property.

    private let lock = Lock()
    private var subscriber: AnySubscriber<Output, Failure>?
    private weak var subscriberObject: AnyObject?
    private var recorded: [BridgeCall] = []
    private var script: [Output]?
    private var scriptCompletion: Subscribers.Completion<Failure>?
    private var scriptQueue: DispatchQueue?
    private var batches: [Batch] = []

    /// Scripted values and completion answering one request.
    private struct Batch {
        var values: [Output]
        var completion: Subscribers.Completion<Failure>?
    }
    private let subscribesAtOnce: Bool
    private let calls: AsyncStream<Void>
    private let callsContinuation: AsyncStream<Void>.Continuation

    /// - Parameter subscribesAtOnce: Whether a subscriber receives the subscription as it attaches;
    ///   if not, the test sends it with ``sendSubscription()``.
    init(subscribesAtOnce: Bool = true) {
        self.subscribesAtOnce = subscribesAtOnce
        (calls, callsContinuation) = AsyncStream.makeStream()
    }

    /// Everything the subscription was asked, in order.
    var history: [BridgeCall] { lock.withLock { recorded } }

    /// Whether the latest subscriber, if it is an object, is still alive.
    var subscriberIsAlive: Bool { lock.withLock { subscriberObject != nil } }

    /// Answers requests from now on with `values`, then `completion` once they are used up; on
    /// `queue` if given, else on the requesting thread from within `request(_:)`.
    func script(
        _ values: [Output], then completion: Subscribers.Completion<Failure>? = .finished,
        on queue: DispatchQueue? = nil
    ) {
        lock.withLock {
            script = values
            scriptCompletion = completion
            scriptQueue = queue
        }
    }

    /// Waits until the subscription has recorded at least `count` calls, and returns them.
    @discardableResult
    func waitForCalls(_ count: Int) async -> [BridgeCall] {
        if history.count >= count { return history }
        for await _ in calls where history.count >= count { break }
        return history
    }

    func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        lock.withLock {
            self.subscriber = AnySubscriber(subscriber)
            subscriberObject = type(of: subscriber) is AnyClass ? subscriber as AnyObject : nil
        }
        if subscribesAtOnce { subscriber.receive(subscription: self) }
    }

    /// Sends this publisher's subscription, or another one, to the subscriber.
    func sendSubscription(_ subscription: (any Subscription)? = nil) {
        lock.withLock { subscriber }?.receive(subscription: subscription ?? self)
    }

    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        guard let subscriber = lock.withLock({ subscriber }) else { return .none }
        return subscriber.receive(value)
    }

    func send(completion: Subscribers.Completion<Failure>) {
        lock.withLock { subscriber }?.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        let (scripted, queue) = lock.withLock { () -> (Bool, DispatchQueue?) in
            recorded.append(.requested(demand))
            guard let remaining = script else { return (false, nil) }
            if remaining.isEmpty {
                script = nil
                batches.append(Batch(values: [], completion: scriptCompletion))
            } else {
                let count = Swift.min(demand.max ?? remaining.count, remaining.count)
                script = Array(remaining.dropFirst(count))
                batches.append(Batch(values: Array(remaining.prefix(count)), completion: nil))
            }
            return (true, scriptQueue)
        }
        callsContinuation.yield()
        guard scripted else { return }
        if let queue { queue.async { self.deliverBatch() } } else { deliverBatch() }
    }

    /// Delivers the oldest scripted batch of values and completion.
    private func deliverBatch() {
        let batch = lock.withLock { batches.removeFirst() }
        guard let subscriber = lock.withLock({ subscriber }) else { return }
        for value in batch.values { _ = subscriber.receive(value) }
        if let completion = batch.completion { subscriber.receive(completion: completion) }
    }

    func cancel() {
        let released = lock.withLock { () -> AnySubscriber<Output, Failure>? in
            recorded.append(.cancelled)
            return subscriber.take()
        }
        callsContinuation.yield()
        withExtendedLifetime(released) {}
    }
}

/// A publisher fed by several producer threads at once, each sending only when the subscriber has
/// demand: every unit of demand releases one waiting producer.
final class PermitSource: Publisher, Subscription, @unchecked Sendable {
    // @unchecked: `lock` guards the mutable properties; `permits` and `sending` are thread-safe.
    typealias Output = Int
    typealias Failure = Never

    private let lock = Lock()
    private var subscriber: AnySubscriber<Int, Never>?
    private var recorded: [BridgeCall] = []
    private let permits = DispatchSemaphore(value: 0)
    /// Serializes deliveries, as a publisher must.
    private let sending = DispatchSemaphore(value: 1)

    var history: [BridgeCall] { lock.withLock { recorded } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        lock.withLock { self.subscriber = AnySubscriber(subscriber) }
        subscriber.receive(subscription: self)
    }

    /// Starts `producers` threads of their own (not the dispatch pool's: they block), each sending
    /// `valuesEach` distinct values, `0..<producers * valuesEach` in all; the last one to finish
    /// finishes the stream.
    func start(producers: Int, valuesEach: Int) {
        let running = Atomic<Int>(producers)
        for producer in 0..<producers {
            let thread = Thread {
                self.produce((producer * valuesEach)..<((producer + 1) * valuesEach))
                if running.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { self.finish() }
            }
            thread.start()
        }
    }

    /// Sends each value, waiting for a unit of demand before each.
    private func produce(_ values: Range<Int>) {
        for value in values {
            permits.wait()
            sending.wait()
            _ = lock.withLock { subscriber }?.receive(value)
            sending.signal()
        }
    }

    private func finish() {
        sending.wait()
        lock.withLock { subscriber }?.receive(completion: .finished)
        sending.signal()
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { recorded.append(.requested(demand)) }
        for _ in 0..<(demand.max ?? 0) { permits.signal() }
    }

    func cancel() {
        let released = lock.withLock { () -> AnySubscriber<Int, Never>? in
            recorded.append(.cancelled)
            return subscriber.take()
        }
        withExtendedLifetime(released) {}
    }
}

/// A task executor that runs nothing until the test tells it to, so that a test decides exactly how far
/// each task has got: start tasks with `Task(executorPreference:)`, then ``runUntilIdle()``.
final class ManualTaskExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `lock` guards `jobs`.

    private let lock = Lock()
    private var jobs: [UnownedJob] = []

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lock.withLock { jobs.append(job) }
    }

    /// Runs every job enqueued, including those enqueued meanwhile, until none is left: each task has
    /// then run until it waits for something outside this executor, or ended.
    func runUntilIdle() {
        while let job = lock.withLock({ jobs.isEmpty ? nil : jobs.removeFirst() }) {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Holds a future's promise so that a test can settle the future later, from any thread.
final class BridgePromise<Output, Failure: Error>: @unchecked Sendable {
    // @unchecked: `stored` is guarded by `lock`.

    private let lock = Lock()
    private var stored: Future<Output, Failure>.Promise?

    func keep(_ promise: @escaping Future<Output, Failure>.Promise) {
        lock.withLock { stored = promise }
    }

    func callAsFunction(_ result: Result<Output, Failure>) {
        lock.withLock { stored }?(result)
    }
}
