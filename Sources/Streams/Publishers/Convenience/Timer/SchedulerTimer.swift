extension Scheduler {
    /// Returns a publisher that repeatedly emits the scheduler's current time on the given interval.
    ///
    /// It is Foundation's `Timer.publish(every:on:in:)` for any scheduler, and so for a test
    /// scheduler, where time moves only when the test says so:
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// var ticks = 0
    /// let cancellable = scheduler.timerPublisher(every: .seconds(1))
    ///     .autoconnect()
    ///     .sink { _ in ticks += 1 }
    /// scheduler.advance(by: .seconds(1))
    /// print(ticks)  // Prints "1"
    /// scheduler.advance(by: .seconds(1_000))
    /// print(ticks)  // Prints "1001"
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The time interval on which to publish events.
    ///   - tolerance: The allowed timing variance when emitting events. Defaults to `nil`, which
    ///     uses the scheduler's minimum tolerance.
    ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
    /// - Returns: A connectable publisher that repeatedly emits the scheduler's current time on the
    ///   given interval.
    @inlinable
    public func timerPublisher(
        every interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride? = nil,
        options: SchedulerOptions? = nil
    ) -> SchedulerTimer<Self> {
        SchedulerTimer(every: interval, tolerance: tolerance, scheduler: self, options: options)
    }
}

/// A publisher that emits a scheduler's current time on a repeating interval.
///
/// Combine has no such type: it is Streams' own, and so it lives outside Combine's `Publishers`
/// namespace. Create one with ``Scheduler/timerPublisher(every:tolerance:options:)`` or
/// ``init(every:tolerance:scheduler:options:)``.
///
/// It works like Foundation's `Timer.TimerPublisher`, on any scheduler rather than
/// only a run loop: nothing happens until ``connect()``, which schedules a repeating action on
/// the scheduler, first one ``interval`` from now. At each firing, every subscriber that has
/// demand receives the scheduler's ``Scheduler/now``; a subscriber without demand misses that
/// tick. Each call to ``connect()`` starts a repetition of its own, which runs until its
/// connection is cancelled (releasing the connection does not stop it); cancelling a connection
/// also detaches every current subscriber, without a completion. The publisher never completes.
///
/// On a test scheduler, ticks happen at exact virtual times:
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// let start = scheduler.now
/// let timer = SchedulerTimer(every: .seconds(2), scheduler: scheduler)
/// let cancellable = timer.sink { print(start.distance(to: $0).magnitude) }
/// let connection = timer.connect()
/// scheduler.advance(by: .seconds(5))
/// connection.cancel()                 // Stops the repetition.
/// scheduler.advance(by: .seconds(5))  // Nothing more.
/// // Prints:
/// // 2000000000
/// // 4000000000
/// ```
public final class SchedulerTimer<Scheduler: Streams.Scheduler>: ConnectablePublisher {
    /// The kind of values published by this publisher: the scheduler's time at each firing.
    public typealias Output = Scheduler.SchedulerTimeType

    /// The kind of errors this publisher might publish: none.
    public typealias Failure = Never

    /// The time interval between two firings.
    public let interval: Scheduler.SchedulerTimeType.Stride

    /// Scheduler options passed to the timer.
    public let options: Scheduler.SchedulerOptions?

    /// The scheduler on which the timer runs.
    public let scheduler: Scheduler

    /// The allowed timing variance of the timer, or `nil` for the scheduler's minimum
    /// tolerance.
    public let tolerance: Scheduler.SchedulerTimeType.Stride?

    @usableFromInline
    let lock = Lock()

    // Guarded by `lock`.

    /// The attached subscriptions, in the order they attached.
    @usableFromInline
    var subscriptions: [any TimerTickReceiver<Scheduler.SchedulerTimeType>] = []

    /// The repetitions of the live connections, by connection.
    @usableFromInline
    var repetitions: [ObjectIdentifier: any Cancellable] = [:]

    /// Creates a publisher that emits the scheduler's current time on a repeating interval.
    ///
    /// ```swift
    /// let timer = SchedulerTimer(every: .milliseconds(100), scheduler: DispatchQueue.main)
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The time interval on which to publish events.
    ///   - tolerance: The allowed timing variance when emitting events. Defaults to `nil`, which
    ///     uses the scheduler's minimum tolerance.
    ///   - scheduler: The scheduler on which the timer runs.
    ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
    @inlinable
    public init(
        every interval: Scheduler.SchedulerTimeType.Stride,
        tolerance: Scheduler.SchedulerTimeType.Stride? = nil,
        scheduler: Scheduler,
        options: Scheduler.SchedulerOptions? = nil
    ) {
        self.interval = interval
        self.tolerance = tolerance
        self.scheduler = scheduler
        self.options = options
    }

    /// Attaches the subscriber: it receives its subscription at once, and times once connected.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        attach(Inner(parent: self, downstream: subscriber), to: subscriber)
    }

    /// Schedules the repeating action that fires the timer, first one ``interval`` from now.
    ///
    /// - Returns: A value that cancels the repetition, and detaches every current subscriber,
    ///   when cancelled.
    @inlinable
    public func connect() -> any Cancellable {
        let connection = Connection(parent: self)
        let repetition = scheduler.schedule(
            after: scheduler.now.advanced(by: interval),
            interval: interval,
            tolerance: tolerance ?? scheduler.minimumTolerance,
            options: options
        ) {
            self.fire(self.scheduler.now)
        }
        lock.withLock { repetitions[ObjectIdentifier(connection)] = repetition }
        return connection
    }

    /// Ends a connection: cancels its repetition and detaches every current subscriber.
    @inlinable
    func disconnect(_ connection: Connection) {
        let (repetition, detached) = lock.withLock {
            (repetitions.removeValue(forKey: ObjectIdentifier(connection)), takeSubscriptions())
        }
        repetition?.cancel()
        for subscription in detached {
            subscription.detach()
        }
    }

    /// The value ``connect()`` returns.
    @usableFromInline
    final class Connection: Cancellable {
        /// Let go of on cancel; guarded by `lock`.
        @usableFromInline
        var parent: SchedulerTimer?

        @usableFromInline
        let lock = Lock()

        @inlinable
        init(parent: SchedulerTimer) {
            self.parent = parent
        }

        @inlinable
        func cancel() {
            lock.withLock { parent.take() }?.disconnect(self)
        }
    }

    /// One subscriber's subscription: the shared ``TimerSubscription``, described as "Timer", with the
    /// timer's interval and tolerance in its mirror.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: TimerSubscription<SchedulerTimer, Downstream>, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Scheduler.SchedulerTimeType, Downstream.Failure == Never {
        @usableFromInline
        var description: String { "Timer" }

        @usableFromInline
        var customMirror: Mirror {
            let (downstream, parent) = lock.withLock { (self.downstream, self.parent) }
            return Mirror(
                self,
                children: [
                    "downstream": downstream as Any,
                    "interval": parent?.interval as Any,
                    "tolerance": parent?.tolerance as Any,
                ],
                ancestorRepresentation: .suppressed)
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}

extension SchedulerTimer: TimerTickSource {
    /// Runs `body` with the publisher's lock held.
    @inlinable
    func withLock<Result>(_ body: () -> Result) -> Result {
        lock.withLock(body)
    }
}

// The subscriber list and the repetitions are guarded by `lock`; every other property is immutable.
extension SchedulerTimer: @unchecked Sendable
where
    Scheduler: Sendable, Scheduler.SchedulerTimeType: Sendable, Scheduler.SchedulerTimeType.Stride: Sendable,
    Scheduler.SchedulerOptions: Sendable
{}
