public import Foundation

extension Timer {
    /// Returns a publisher that repeatedly emits the current date on the given interval.
    ///
    /// The publisher is connectable: it starts a `Timer` on `runLoop` when connected. Connect it
    /// with ``ConnectablePublisher/autoconnect()`` to start on the first subscriber and stop when
    /// the last one cancels:
    ///
    /// ```swift
    /// let cancellable = Timer.publish(every: 1, on: .main, in: .common)
    ///     .autoconnect()
    ///     .sink { print("tick at", $0) }
    /// // Prints "tick at ..." once a second while the main run loop runs in a common mode.
    /// ```
    ///
    /// As in Combine, the publisher this method returns has a `tolerance` of `nil` whatever
    /// `tolerance` says; create a ``TimerPublisher`` with
    /// ``TimerPublisher/init(interval:tolerance:runLoop:mode:options:)`` to set one.
    ///
    /// The timer fires only while its run loop runs in `mode` (or, for `.common`, in a common mode).
    /// An app runs `RunLoop.main` for you; a command-line tool, a server or a test on Linux must run it
    /// on the main thread: `RunLoop.main.run(until:)` (in a tool, or in an XCTest test method, which
    /// runs on the main thread), or `RunLoop.main.run()` at the end of a tool that never returns.
    /// XCTest's `wait(for:timeout:)` runs the main run loop while it waits. Swift Testing does not, and
    /// on Linux its tests, `@MainActor` ones included, do not run on the main thread: there, a timer on
    /// `RunLoop.main` never fires; test timing with a scheduler you inject instead. See
    /// <doc:ThreadsAndSchedulers#When-the-main-run-loop-must-run>.
    ///
    /// - Parameters:
    ///   - interval: The time interval on which to publish events. For example, a value of `0.5`
    ///     publishes an event approximately every half-second.
    ///   - tolerance: The allowed timing variance when emitting events; ignored, as in Combine.
    ///   - runLoop: The run loop on which the timer runs.
    ///   - mode: The run loop mode in which to run the timer.
    ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
    /// - Returns: A publisher that repeatedly emits the current date on the given interval.
    @inlinable
    public static func publish(
        every interval: TimeInterval,
        tolerance: TimeInterval? = nil,
        on runLoop: RunLoop,
        in mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
    ) -> Timer.TimerPublisher {
        TimerPublisher(interval: interval, runLoop: runLoop, mode: mode, options: options)
    }

    /// A publisher that repeatedly emits the current date on a given interval.
    ///
    /// Nothing happens until ``connect()``, which adds a repeating `Timer` to ``runLoop`` in
    /// ``mode``. At each firing, every subscriber that has demand receives the same date; a
    /// subscriber without demand misses that tick. Each call to ``connect()`` starts a timer of its
    /// own; cancelling any connection stops its timer and detaches every current subscriber, without
    /// a completion. The publisher never completes.
    ///
    /// ```swift
    /// let publisher = Timer.TimerPublisher(interval: 0.1, runLoop: .current, mode: .default)
    /// var ticks = 0
    /// let cancellable = publisher.sink { _ in ticks += 1 }
    /// let connection = publisher.connect()               // First tick in 0.1 s.
    /// RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.35))
    /// connection.cancel()                                // The timer stops.
    /// print(ticks)
    /// // Prints "3"
    /// ```
    ///
    /// Values are delivered on the run loop's thread, which must run in ``mode`` for the timer to
    /// fire.
    public final class TimerPublisher: ConnectablePublisher, @unchecked Sendable {
        // @unchecked: the subscriber list is guarded by `lock`; everything else is immutable.

        /// The kind of values published by this publisher: the date of each firing.
        public typealias Output = Date

        /// The kind of errors this publisher might publish: none.
        public typealias Failure = Never

        /// The time interval between two firings of the timer.
        public let interval: TimeInterval

        /// The allowed timing variance of the timer, or `nil` for none.
        public let tolerance: TimeInterval?

        /// The run loop on which the timer runs.
        public let runLoop: RunLoop

        /// The run loop mode in which the timer runs.
        public let mode: RunLoop.Mode

        /// Scheduler options passed to the timer.
        public let options: RunLoop.SchedulerOptions?

        @usableFromInline
        let lock = Lock()

        /// The attached subscriptions, in the order they attached; guarded by `lock`.
        @usableFromInline
        var subscriptions: [any TimerTickReceiver<Date>] = []

        /// Creates a publisher that repeatedly emits the current date on the given interval.
        ///
        /// ```swift
        /// let publisher = Timer.TimerPublisher(interval: 0.5, tolerance: 0.05, runLoop: .main, mode: .default)
        /// ```
        ///
        /// - Parameters:
        ///   - interval: The interval on which to publish events.
        ///   - tolerance: The allowed timing variance when emitting events. Defaults to `nil`, which
        ///     the timer takes as zero.
        ///   - runLoop: The run loop on which the timer runs.
        ///   - mode: The run loop mode in which to run the timer.
        ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
        @inlinable
        public init(
            interval: TimeInterval,
            tolerance: TimeInterval? = nil,
            runLoop: RunLoop,
            mode: RunLoop.Mode,
            options: RunLoop.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        /// Attaches the subscriber: it receives its subscription at once, and dates once connected.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
            attach(Inner(parent: self, downstream: subscriber), to: subscriber)
        }

        /// Starts a repeating timer on ``runLoop`` in ``mode``; its first firing is one ``interval``
        /// from now.
        ///
        /// - Returns: A value that stops the timer, and detaches every current subscriber, when
        ///   cancelled.
        public func connect() -> any Cancellable {
            let connection = Connection(publisher: self)
            // An explicit first date: `Timer(timeInterval:repeats:block:)` fires at once on Linux.
            let timer = Timer(fire: Date(timeIntervalSinceNow: interval), interval: interval, repeats: true) {
                [connection] _ in
                connection.fire()
            }
            timer.tolerance = tolerance ?? 0
            connection.start(timer)
            runLoop.add(timer, forMode: mode)
            return connection
        }

        /// Detaches every subscription, as a cancelled connection does.
        func removeAll() {
            let detached = withLock { takeSubscriptions() }
            for subscription in detached {
                subscription.detach()
            }
        }

        /// The value ``connect()`` returns: it stops its timer.
        ///
        /// The timer's block holds the connection, and the connection holds the publisher until
        /// cancelled: so a running timer keeps the publisher alive, and a cancelled one does not,
        /// even where the platform keeps invalidated timers around.
        final class Connection: Cancellable, @unchecked Sendable {
            // @unchecked: `publisher` and `timer` are guarded by `lock`.
            let lock = Lock()
            var publisher: TimerPublisher?
            var timer: Timer?

            init(publisher: TimerPublisher) {
                self.publisher = publisher
            }

            /// Keeps the timer, to invalidate it on cancel.
            func start(_ timer: Timer) {
                lock.withLock { self.timer = timer }
            }

            /// The timer fired.
            func fire() {
                lock.withLock { publisher }?.fire(Date())
            }

            func cancel() {
                let (publisher, timer) = lock.withLock { (self.publisher.take(), self.timer.take()) }
                guard let publisher else { return }
                publisher.removeAll()
                timer?.invalidate()
            }
        }

        /// One subscriber's subscription: the shared ``TimerSubscription``.
        ///
        /// As in Combine, it has no description of its own.
        @usableFromInline
        final class Inner<Downstream: Subscriber>: TimerSubscription<TimerPublisher, Downstream>
        where Downstream.Input == Date, Downstream.Failure == Never {}
    }
}

extension Timer.TimerPublisher: TimerTickSource {
    /// Runs `body` with the publisher's lock held.
    @inlinable
    func withLock<Result>(_ body: () -> Result) -> Result {
        lock.withLock(body)
    }
}
