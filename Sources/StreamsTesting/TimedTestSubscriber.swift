public import Streams

/// A subscriber that records everything it receives together with the virtual time it arrived, for
/// tests of time-based publishers on a ``TestScheduler``.
///
/// Each event is a ``Recorded`` ``TestEvent`` whose time is the stride of virtual time since the
/// scheduler's ``TestScheduler/startTime``, so a test can state a whole timeline in one `==`. The
/// usual way to make one is ``TestScheduler/record(_:initialDemand:demandPerValue:)``, which
/// subscribes it at once.
///
/// For example, suppose a countdown emits the remaining seconds, one per second, on a scheduler it
/// is given:
///
/// ```swift
/// func countdown<S: Scheduler>(from start: Int, on scheduler: S) -> AnyPublisher<Int, Never> {
///     (0...start).reversed().publisher
///         .flatMap(maxPublishers: .max(1)) { Just($0).delay(for: .seconds(1), scheduler: scheduler) }
///         .eraseToAnyPublisher()
/// }
/// ```
///
/// In production it runs on `DispatchQueue.main`. A test hands it a test scheduler instead, records
/// it, moves virtual time forward and checks when each value arrived — without waiting four real
/// seconds:
///
/// ```swift
/// @Test func countsDownOncePerSecond() {
///     let scheduler = DispatchQueue.test
///     let recorder = scheduler.record(countdown(from: 3, on: scheduler))
///
///     scheduler.advance(by: .milliseconds(2500))
///     #expect(recorder.values == [3, 2])
///
///     scheduler.advance(by: .seconds(10))
///     #expect(recorder.events == [
///         .subscription(at: .zero),
///         .value(3, at: .seconds(1)),
///         .value(2, at: .seconds(2)),
///         .value(1, at: .seconds(3)),
///         .value(0, at: .seconds(4)),
///         .finished(at: .seconds(4)),
///     ])
/// }
/// ```
///
/// Demand is under the test's control: the subscriber asks for `initialDemand` when the subscription
/// arrives and for `demandPerValue` (or what `demandForValue` decides) after each value, and the test
/// can ask for more or cancel at any point, either now or at a virtual time:
///
/// ```swift
/// @Test func valuesWaitForDemand() {
///     let scheduler = DispatchQueue.test
///     let recorder = scheduler.record([1, 2, 3].publisher, initialDemand: .max(1))
///     recorder.request(.max(2), at: .seconds(1))
///
///     scheduler.advance(by: .seconds(1))
///     #expect(recorder.events == [
///         .subscription(at: .zero),
///         .value(1, at: .zero),
///         .value(2, at: .seconds(1)),
///         .value(3, at: .seconds(1)),
///         .finished(at: .seconds(1)),
///     ])
/// }
/// ```
///
/// With XCTest the same lists compare with `XCTAssertEqual(recorder.events, [...])`.
///
/// It is thread-safe: a publisher may deliver on any thread while the test reads what was recorded.
/// The time of an event is the scheduler's virtual time when the event arrived, whatever thread it
/// arrived on.
public final class TimedTestSubscriber<Input, Failure: Error, SchedulerTimeType: Strideable>: Subscriber, Cancellable,
    // @unchecked: every mutable stored property below is guarded by `lock`; `clock` and the demand
    // settings are immutable.
    @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {

    /// A stride of the scheduler's time: the type of every recorded time.
    public typealias Stride = SchedulerTimeType.Stride

    /// Something the subscriber received, with the virtual time it arrived.
    public typealias Event = Recorded<Stride, TestEvent<Input, Failure>>

    private let lock = Lock()
    private var recorded: [Event] = []
    private var upstream: (any Subscription)?
    private var onValue: ((Input) -> Void)?
    private let clock: VirtualClock<SchedulerTimeType>
    private let initialDemand: Subscribers.Demand
    private let demandForValue: (Input) -> Subscribers.Demand

    /// Creates a subscriber that records times on `scheduler`, requests `initialDemand` on
    /// subscription and `demandPerValue` after each value.
    ///
    /// It does not subscribe to anything: pass it to `subscribe(_:)`, now or from an action
    /// scheduled for later.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let subscriber = TimedTestSubscriber<Int, Never, DispatchQueue.SchedulerTimeType>(scheduler: scheduler)
    /// scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {
    ///     Just(7).subscribe(subscriber)
    /// }
    /// scheduler.advance(by: .seconds(1))
    /// #expect(subscriber.events == [
    ///     .subscription(at: .seconds(1)), .value(7, at: .seconds(1)), .finished(at: .seconds(1)),
    /// ])
    /// ```
    ///
    /// - Parameters:
    ///   - scheduler: The test scheduler whose virtual time stamps the events.
    ///   - initialDemand: What to request when the subscription arrives; `.none` requests nothing.
    ///   - demandPerValue: What to return from each `receive(_:)`.
    public init<Options>(
        scheduler: TestScheduler<SchedulerTimeType, Options>,
        initialDemand: Subscribers.Demand = .unlimited,
        demandPerValue: Subscribers.Demand = .none
    ) {
        clock = VirtualClock(scheduler)
        self.initialDemand = initialDemand
        demandForValue = { _ in demandPerValue }
    }

    /// Creates a subscriber that records times on `scheduler`, requests `initialDemand` on
    /// subscription and decides after each value how many more to ask for.
    ///
    /// ```swift
    /// // Asks for one more value after each even one.
    /// let subscriber = TimedTestSubscriber<Int, Never, DispatchQueue.SchedulerTimeType>(
    ///     scheduler: scheduler, initialDemand: .max(1)
    /// ) { $0.isMultiple(of: 2) ? .max(1) : .none }
    /// ```
    ///
    /// - Parameters:
    ///   - scheduler: The test scheduler whose virtual time stamps the events.
    ///   - initialDemand: What to request when the subscription arrives; `.none` requests nothing.
    ///   - demandForValue: Called with each value; returns the additional demand.
    public init<Options>(
        scheduler: TestScheduler<SchedulerTimeType, Options>,
        initialDemand: Subscribers.Demand,
        demandForValue: @escaping (Input) -> Subscribers.Demand
    ) {
        clock = VirtualClock(scheduler)
        self.initialDemand = initialDemand
        self.demandForValue = demandForValue
    }

    // MARK: What was recorded

    /// Everything received so far, in order, each with the virtual time since the scheduler's start
    /// at which it arrived.
    public var events: [Event] {
        lock.withLock { recorded }
    }

    /// Everything received so far, in order, without the times.
    public var untimedEvents: [TestEvent<Input, Failure>] {
        events.map(\.value)
    }

    /// The values received so far, in order.
    public var values: [Input] {
        events.compactMap(\.value.input)
    }

    /// The values received so far, in order, each with the time it arrived.
    ///
    /// ```swift
    /// #expect(recorder.valuesWithTimes == [.value(3, at: .seconds(1)), .value(2, at: .seconds(2))])
    /// ```
    public var valuesWithTimes: [Recorded<Stride, Input>] {
        events.compactMap { event in event.value.input.map { Recorded($0, at: event.time) } }
    }

    /// The completion, if it has arrived.
    public var completion: Subscribers.Completion<Failure>? {
        events.lazy.compactMap(\.value.completion).first
    }

    /// When the completion arrived, if it has.
    public var completionTime: Stride? {
        events.first { $0.value.completion != nil }?.time
    }

    /// When the (first) subscription arrived, if it has.
    public var subscriptionTime: Stride? {
        events.first { $0.value.isSubscription }?.time
    }

    /// How many subscriptions arrived (a well-behaved publisher sends exactly one).
    public var subscriptionCount: Int {
        events.count { $0.value.isSubscription }
    }

    /// The subscription, until the subscriber completes or cancels.
    public var subscription: (any Subscription)? {
        lock.withLock { upstream }
    }

    // MARK: Acting

    /// Runs `body` inside each `receive(_:)`, after recording the value: to cancel, request or send
    /// re-entrantly from within delivery.
    public func onReceiveValue(_ body: @escaping (Input) -> Void) {
        lock.withLock { onValue = body }
    }

    /// Requests more values from the subscription, now.
    ///
    /// - Parameter demand: How many more values to ask for.
    public func request(_ demand: Subscribers.Demand) {
        subscription?.request(demand)
    }

    /// Requests more values from the subscription when virtual time reaches `time`.
    ///
    /// The request runs as an action on the test scheduler, in order with the other work due at
    /// that instant; a time already reached runs at the next advance.
    ///
    /// - Parameters:
    ///   - demand: How many more values to ask for.
    ///   - time: When to ask, as a stride since the scheduler's start.
    public func request(_ demand: Subscribers.Demand, at time: Stride) {
        clock.schedule(atElapsed: time) { [weak self] in self?.request(demand) }
    }

    /// Cancels the subscription and lets go of it, now.
    public func cancel() {
        let subscription = lock.withLock { upstream.take() }
        subscription?.cancel()
    }

    /// Cancels the subscription when virtual time reaches `time`.
    ///
    /// The cancellation runs as an action on the test scheduler, in order with the other work due at
    /// that instant; a time already reached runs at the next advance.
    ///
    /// - Parameter time: When to cancel, as a stride since the scheduler's start.
    public func cancel(at time: Stride) {
        clock.schedule(atElapsed: time) { [weak self] in self?.cancel() }
    }

    // MARK: Subscriber

    /// Records the subscription with its time and requests the initial demand.
    public func receive(subscription: any Subscription) {
        let time = clock.elapsed
        lock.withLock {
            recorded.append(Recorded(.subscription, at: time))
            upstream = subscription
        }
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    /// Records the value with its time and returns the configured demand.
    public func receive(_ input: Input) -> Subscribers.Demand {
        let time = clock.elapsed
        let hook = lock.withLock {
            recorded.append(Recorded(.value(input), at: time))
            return onValue
        }
        hook?(input)
        return demandForValue(input)
    }

    /// Records the completion with its time and lets go of the subscription.
    public func receive(completion: Subscribers.Completion<Failure>) {
        let time = clock.elapsed
        lock.withLock {
            recorded.append(Recorded(.completion(completion), at: time))
            upstream = nil
        }
    }
}

extension TestScheduler {
    /// Subscribes a new ``TimedTestSubscriber`` to `publisher` now, and returns it.
    ///
    /// The subscriber records every event with the virtual time since ``startTime`` at which it
    /// arrived. It asks for `initialDemand` when the subscription arrives and for `demandPerValue`
    /// more after each value.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let recorder = scheduler.record(
    ///     Just(1).delay(for: .seconds(2), scheduler: scheduler)
    /// )
    /// scheduler.advance(by: .seconds(2))
    /// #expect(recorder.events == [
    ///     .subscription(at: .zero), .value(1, at: .seconds(2)), .finished(at: .seconds(2)),
    /// ])
    /// ```
    ///
    /// - Parameters:
    ///   - publisher: The publisher to subscribe to.
    ///   - initialDemand: What to request when the subscription arrives; `.none` requests nothing.
    ///   - demandPerValue: What to request after each value.
    /// - Returns: The subscriber, already subscribed.
    public func record<P: Publisher>(
        _ publisher: P,
        initialDemand: Subscribers.Demand = .unlimited,
        demandPerValue: Subscribers.Demand = .none
    ) -> TimedTestSubscriber<P.Output, P.Failure, SchedulerTimeType> {
        let subscriber = TimedTestSubscriber<P.Output, P.Failure, SchedulerTimeType>(
            scheduler: self, initialDemand: initialDemand, demandPerValue: demandPerValue)
        publisher.subscribe(subscriber)
        return subscriber
    }

    /// Subscribes a new ``TimedTestSubscriber`` to `publisher` now, and returns it; after each value
    /// it asks for what `demandForValue` returns.
    ///
    /// ```swift
    /// // Stops asking once a negative value arrives.
    /// let recorder = scheduler.record(readings, initialDemand: .max(1)) { $0 < 0 ? .none : .max(1) }
    /// ```
    ///
    /// - Parameters:
    ///   - publisher: The publisher to subscribe to.
    ///   - initialDemand: What to request when the subscription arrives; `.none` requests nothing.
    ///   - demandForValue: Called with each value; returns the additional demand.
    /// - Returns: The subscriber, already subscribed.
    public func record<P: Publisher>(
        _ publisher: P,
        initialDemand: Subscribers.Demand,
        demandForValue: @escaping (P.Output) -> Subscribers.Demand
    ) -> TimedTestSubscriber<P.Output, P.Failure, SchedulerTimeType> {
        let subscriber = TimedTestSubscriber<P.Output, P.Failure, SchedulerTimeType>(
            scheduler: self, initialDemand: initialDemand, demandForValue: demandForValue)
        publisher.subscribe(subscriber)
        return subscriber
    }
}
