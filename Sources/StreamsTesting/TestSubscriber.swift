public import Streams

/// A subscriber that records everything it receives, for assertions in tests.
///
/// It records the subscription, each value and the completion as a list of ``TestEvent``s, in the
/// order they arrived, which a test compares with `==` (from Swift Testing's `#expect` or XCTest's
/// `XCTAssertEqual`). It asks for `initialDemand` values when the subscription arrives and for
/// `demandPerValue` more after each value (or what a `demandForValue` closure decides), and the test
/// can request more or cancel at any point, so it can check how a publisher honours back-pressure.
///
/// For example, a test that a subject drops what a subscriber has not asked for, and delivers what
/// it has:
///
/// ```swift
/// @Test func aSubjectDeliversOnlyWhatWasAskedFor() {
///     let subject = PassthroughSubject<String, Never>()
///     let subscriber = TestSubscriber<String, Never>(initialDemand: .max(1))
///     subject.subscribe(subscriber)
///
///     subject.send("first")
///     subject.send("dropped: no demand")
///     subscriber.request(.max(1))
///     subject.send("second")
///     subject.send(completion: .finished)
///
///     #expect(subscriber.events == [.subscription, .value("first"), .value("second"), .finished])
///     #expect(subscriber.values == ["first", "second"])
///     #expect(subscriber.completion == .finished)
/// }
/// ```
///
/// It records no times; for time-based publishers use ``TimedTestSubscriber``, through
/// ``TestScheduler/record(_:initialDemand:demandPerValue:)``.
///
/// It is thread-safe: a publisher may deliver on any thread while the test reads what was recorded.
public final class TestSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    // @unchecked: every stored property below is guarded by `lock`.

    /// Something the subscriber received: the subscription, a value, or the completion.
    public typealias Event = TestEvent<Input, Failure>

    private let lock = Lock()
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
        lock.withLock { recorded }
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
        lock.withLock { upstream }
    }

    /// Runs `body` inside each `receive(_:)`, after recording the value: to cancel, request or send
    /// re-entrantly from within delivery.
    public func onReceiveValue(_ body: @escaping (Input) -> Void) {
        lock.withLock { onValue = body }
    }

    /// Requests more values from the subscription.
    public func request(_ demand: Subscribers.Demand) {
        subscription?.request(demand)
    }

    /// Cancels the subscription and lets go of it.
    public func cancel() {
        let subscription = lock.withLock { upstream.take() }
        subscription?.cancel()
    }

    /// Records the subscription and requests the initial demand.
    public func receive(subscription: any Subscription) {
        lock.withLock {
            recorded.append(.subscription)
            upstream = subscription
        }
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    /// Records the value and returns the configured demand.
    public func receive(_ input: Input) -> Subscribers.Demand {
        let hook = lock.withLock {
            recorded.append(.value(input))
            return onValue
        }
        hook?(input)
        return demandForValue(input)
    }

    /// Records the completion and lets go of the subscription.
    public func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock {
            recorded.append(.completion(completion))
            upstream = nil
        }
    }
}
