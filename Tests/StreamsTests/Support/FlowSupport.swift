import Dispatch
import Streams
import Synchronization

/// The error the flow-control operator tests fail with.
struct FlowError: Error, Equatable, CustomStringConvertible {
    let code: Int

    init(_ code: Int = 1) {
        self.code = code
    }

    var description: String { "FlowError(\(code))" }
}

/// A subscription that records what it is asked, for assertions on demand and cancellation.
final class FlowSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
    // @unchecked: `lock` guards every mutable property.

    enum Event: Equatable {
        case requested(Subscribers.Demand)
        case cancelled
    }

    private let lock = Mutex<Void>(())
    private var recorded: [Event] = []
    private var requestHook: ((Subscribers.Demand) -> Void)?
    private var cancelHook: (() -> Void)?

    var history: [Event] { lock.withLock { _ in recorded } }

    /// Runs `body` after each request is recorded.
    func onRequest(_ body: @escaping (Subscribers.Demand) -> Void) {
        lock.withLock { _ in requestHook = body }
    }

    /// Runs `body` after each cancel is recorded.
    func onCancel(_ body: @escaping () -> Void) {
        lock.withLock { _ in cancelHook = body }
    }

    func request(_ demand: Subscribers.Demand) {
        let hook = lock.withLock { _ in
            recorded.append(.requested(demand))
            return requestHook
        }
        hook?(demand)
    }

    func cancel() {
        let hook = lock.withLock { _ in
            recorded.append(.cancelled)
            return cancelHook
        }
        hook?()
    }

    var description: String { "FlowSubscription" }
}

/// A publisher driven by the test: it hands each subscriber a fresh ``FlowSubscription`` and lets the
/// test send values and completions to the latest subscriber, returning the demand it answered.
final class FlowPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // @unchecked: `lock` guards every mutable property.

    private let lock = Mutex<Void>(())
    private var subscriber: AnySubscriber<Output, Failure>?
    private var latestDescription: String?
    private var handedOut: [FlowSubscription] = []
    private var subscribeHook: (() -> Void)?

    init() {}

    /// How many times something subscribed.
    var subscribeCount: Int { lock.withLock { _ in handedOut.count } }

    /// The latest subscription handed out.
    var subscription: FlowSubscription? { lock.withLock { _ in handedOut.last } }

    /// Every subscription handed out, oldest first.
    var subscriptions: [FlowSubscription] { lock.withLock { _ in handedOut } }

    /// How the latest subscriber describes itself.
    var subscriberDescription: String? { lock.withLock { _ in latestDescription } }

    /// Runs `body` when a subscriber attaches, before it receives its subscription.
    func onSubscribe(_ body: @escaping () -> Void) {
        lock.withLock { _ in subscribeHook = body }
    }

    func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        let subscription = FlowSubscription()
        let hook = lock.withLock { _ in
            self.subscriber = AnySubscriber(subscriber)
            latestDescription = String(describing: subscriber)
            handedOut.append(subscription)
            return subscribeHook
        }
        hook?()
        subscriber.receive(subscription: subscription)
    }

    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        guard let subscriber = lock.withLock({ _ in subscriber }) else { return .none }
        return subscriber.receive(value)
    }

    func send(completion: Subscribers.Completion<Failure>) {
        lock.withLock { _ in subscriber }?.receive(completion: completion)
    }
}

/// A publisher that runs a closure for each subscriber.
struct FlowClosurePublisher<Output, Failure: Error>: Publisher {
    let body: (AnySubscriber<Output, Failure>) -> Void

    func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        body(AnySubscriber(subscriber))
    }
}

/// A publisher meant to be driven from its own thread: ``run(_:)`` sends each value only once the
/// subscriber has demand for it, blocking until then, and then finishes.
final class ThreadedSource: Publisher, Subscription, @unchecked Sendable {
    // @unchecked: `lock` guards the mutable properties; `permits` is thread-safe.
    typealias Output = Int
    typealias Failure = Never

    private let lock = Mutex<Void>(())
    private var subscriber: AnySubscriber<Int, Never>?
    private var unlimited = false
    private var cancelled = false
    private let permits = DispatchSemaphore(value: 0)

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        lock.withLock { _ in self.subscriber = AnySubscriber(subscriber) }
        subscriber.receive(subscription: self)
    }

    func request(_ demand: Subscribers.Demand) {
        grant(demand)
    }

    func cancel() {
        lock.withLock { _ in cancelled = true }
        permits.signal()
    }

    private func grant(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        guard let count = demand.max else {
            lock.withLock { _ in unlimited = true }
            permits.signal()
            return
        }
        for _ in 0..<count { permits.signal() }
    }

    /// Sends `values` one by one as demand allows, then finishes. Call it after subscribing.
    func run(_ values: [Int]) {
        for value in values {
            if !lock.withLock({ _ in unlimited }) { permits.wait() }
            guard let target = lock.withLock({ _ in cancelled ? nil : subscriber }) else { return }
            grant(target.receive(value))
        }
        lock.withLock { _ in subscriber }?.receive(completion: .finished)
    }
}

/// A text stream that records every write, for the `print` operator.
final class FlowTextStream: TextOutputStream, @unchecked Sendable {
    // @unchecked: `state` guards the recorded writes.
    private let state = Mutex<[String]>([])

    func write(_ string: String) {
        state.withLock { $0.append(string) }
    }

    /// Every write, in order.
    var writes: [String] { state.withLock { $0 } }

    /// The text written, split into lines.
    var lines: [String] {
        writes.joined().split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

/// Watches that a subscriber is never entered by two deliveries at once.
final class ReentryDetector: @unchecked Sendable {
    // @unchecked: `state` guards the counters.
    private let state = Mutex((inside: 0, overlaps: 0, checksum: 0))

    /// Runs `body` as one delivery, counting any overlap with another. `spin` keeps the delivery busy
    /// for that many steps, to widen the window in which an overlap would show.
    func enter(spin: Int = 0, _ body: () -> Void) {
        state.withLock { state in
            state.inside += 1
            if state.inside > 1 { state.overlaps += 1 }
        }
        var total = 0
        for step in 0..<spin { total &+= step &* 31 }
        body()
        state.withLock { state in
            state.inside -= 1
            state.checksum &+= total
        }
    }

    /// How many deliveries started while another was in progress.
    var overlaps: Int { state.withLock { $0.overlaps } }
}

/// An object to hold weakly, to check that an operator releases what it captured.
final class FlowToken: Sendable {}
