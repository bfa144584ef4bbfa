public import Streams
import Synchronization

/// A subscriber that records everything it receives, for assertions in tests.
///
/// It asks for `initialDemand` values on subscription and for `demandPerValue` more after each value,
/// and can request or cancel at any point. It is thread-safe: a publisher may deliver on any thread
/// while the test reads what was recorded.
///
/// ```swift
/// let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
/// [1, 2, 3].publisher.subscribe(subscriber)
/// #expect(subscriber.values == [1, 2])
/// subscriber.request(.max(1))
/// #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
/// ```
public final class TestSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    // @unchecked: every stored property below is guarded by `lock`.

    /// Something the subscriber received.
    public enum Event {
        /// The subscription arrived.
        case subscription
        /// A value arrived.
        case value(Input)
        /// The completion arrived.
        case completion(Subscribers.Completion<Failure>)
    }

    private let lock = Mutex<Void>(())
    private var recorded: [Event] = []
    private var upstream: (any Subscription)?
    private let initialDemand: Subscribers.Demand
    private let demandForValue: (Input) -> Subscribers.Demand
    private var onValue: ((Input) -> Void)?

    /// Creates a subscriber that requests `initialDemand` on subscription and `demandPerValue` after
    /// each value.
    ///
    /// - Parameters:
    ///   - initialDemand: What to request when the subscription arrives; `.none` requests nothing.
    ///   - demandPerValue: What to return from each `receive(_:)`.
    public init(initialDemand: Subscribers.Demand = .unlimited, demandPerValue: Subscribers.Demand = .none) {
        self.initialDemand = initialDemand
        demandForValue = { _ in demandPerValue }
    }

    /// Creates a subscriber that requests `initialDemand` on subscription and decides after each value
    /// how many more to ask for.
    ///
    /// - Parameters:
    ///   - initialDemand: What to request when the subscription arrives; `.none` requests nothing.
    ///   - demandForValue: Called with each value; returns the additional demand.
    public init(
        initialDemand: Subscribers.Demand, demandForValue: @escaping (Input) -> Subscribers.Demand
    ) {
        self.initialDemand = initialDemand
        self.demandForValue = demandForValue
    }

    /// Everything received so far, in order.
    public var events: [Event] {
        lock.withLock { _ in recorded }
    }

    /// The values received so far, in order.
    public var values: [Input] {
        events.compactMap { event in
            if case .value(let value) = event { return value }
            return nil
        }
    }

    /// The completion, if it has arrived.
    public var completion: Subscribers.Completion<Failure>? {
        for case .completion(let completion) in events { return completion }
        return nil
    }

    /// How many subscriptions arrived (a well-behaved publisher sends exactly one).
    public var subscriptionCount: Int {
        events.filter { if case .subscription = $0 { return true } else { return false } }.count
    }

    /// The subscription, until the subscriber completes or cancels.
    public var subscription: (any Subscription)? {
        lock.withLock { _ in upstream }
    }

    /// Runs `body` inside each `receive(_:)`, after recording the value: to cancel, request or send
    /// re-entrantly from within delivery.
    public func onReceiveValue(_ body: @escaping (Input) -> Void) {
        lock.withLock { _ in onValue = body }
    }

    /// Requests more values from the subscription.
    public func request(_ demand: Subscribers.Demand) {
        subscription?.request(demand)
    }

    /// Cancels the subscription and lets go of it.
    public func cancel() {
        let subscription = lock.withLock { _ in upstream.take() }
        subscription?.cancel()
    }

    /// Records the subscription and requests the initial demand.
    public func receive(subscription: any Subscription) {
        lock.withLock { _ in
            recorded.append(.subscription)
            upstream = subscription
        }
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    /// Records the value and returns the configured demand.
    public func receive(_ input: Input) -> Subscribers.Demand {
        let hook = lock.withLock { _ in
            recorded.append(.value(input))
            return onValue
        }
        hook?(input)
        return demandForValue(input)
    }

    /// Records the completion and lets go of the subscription.
    public func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock { _ in
            recorded.append(.completion(completion))
            upstream = nil
        }
    }
}

extension TestSubscriber.Event: Equatable where Input: Equatable, Failure: Equatable {}

extension TestSubscriber.Event: Sendable where Input: Sendable {}
