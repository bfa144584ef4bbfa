extension Publisher {
    /// Specifies the scheduler on which to receive elements from the publisher.
    ///
    /// Use `receive(on:options:)` to have a subscriber receive values and the completion on a given
    /// scheduler, for example to update state that belongs to the main queue. `subscribe(on:options:)`
    /// moves the upstream work — subscribing, requesting, cancelling — to a scheduler; this operator
    /// moves the downstream deliveries.
    ///
    /// ```swift
    /// let results = DispatchQueue(label: "results")
    /// let cancellable = [1, 2, 3].publisher
    ///     .receive(on: results)
    ///     .sink { print("received \($0) on the results queue") }
    /// // Prints, from the results queue:
    /// // received 1 on the results queue
    /// // received 2 on the results queue
    /// // received 3 on the results queue
    /// ```
    ///
    /// Prefer it to hopping onto a queue by hand inside a subscriber: instead of
    /// `publisher.sink { value in DispatchQueue.main.async { use(value) } }`, write
    /// `publisher.receive(on: DispatchQueue.main).sink { use($0) }`.
    ///
    /// Values and the completion arrive in the order upstream sent them, one at a time, and never
    /// while the subscriber is still in `receive(subscription:)`. The subscription itself reaches the
    /// subscriber at once, on the subscribing thread, and the subscriber's requests and cancellation
    /// go straight upstream. As in Combine, each value and the completion are scheduled on their
    /// own, so other work put on the same queue between two values runs between them.
    ///
    /// Cancelling stops the delivery of values that have not been delivered yet. Once upstream has
    /// completed, as in Combine, cancelling has no effect: what upstream sent, and its completion,
    /// are still delivered.
    ///
    /// With `DispatchQueue.main` or `RunLoop.main` as the scheduler, values arrive only while the main
    /// queue or the main run loop runs. An app's event loop runs them; a command-line tool or a server
    /// on Linux must: `RunLoop.main.run(until:)` on the main thread runs both for a while, and
    /// `dispatchMain()` at the end of a tool that never returns runs the main queue. In tests, XCTest's
    /// `wait(for:timeout:)` runs the main run loop while it waits; a Swift Testing test sees the main
    /// queue served while it is suspended at an `await`, but never the main run loop. See
    /// <doc:ThreadsAndSchedulers#When-the-main-run-loop-must-run>.
    ///
    /// - Parameters:
    ///   - scheduler: The scheduler the publisher uses for element delivery.
    ///   - options: Scheduler options used to customize element delivery.
    /// - Returns: A publisher that delivers elements using the specified scheduler.
    @inlinable
    public func receive<S: Scheduler>(
        on scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delivers elements to its downstream subscriber on a specific scheduler.
    ///
    /// ```swift
    /// let main = DispatchQueue.main
    /// let cancellable = Publishers.ReceiveOn(upstream: Just("ready"), scheduler: main, options: nil)
    ///     .sink { print($0) }
    /// // Prints "ready", on the main queue.
    /// ```
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The scheduler the publisher is to use for element delivery.
        public let scheduler: Context

        /// Scheduler options that customize the delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delivers the upstream's elements on a scheduler.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - scheduler: The scheduler the publisher is to use for element delivery.
        ///   - options: Scheduler options that customize the delivery of elements.
        @inlinable
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches the subscriber to the upstream publisher through a subscriber that hops onto the
        /// scheduler.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler, options: options))
        }
    }
}

extension Publishers.ReceiveOn {
    /// The subscriber and subscription of `receive(on:)`.
    ///
    /// As in Combine, each value and the completion reach the downstream through an action of their
    /// own on the scheduler; its ``ScheduledEventState`` keeps them in order.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, ScheduledEventDelivering,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        typealias Input = Upstream.Output

        @usableFromInline
        typealias Failure = Upstream.Failure

        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let scheduler: Context

        @usableFromInline
        let options: Context.SchedulerOptions?

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        @exclusivity(unchecked)
        var state = ScheduledEventState<Downstream, Void>()

        @inlinable
        init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.downstream = downstream
            self.scheduler = scheduler
            self.options = options
        }

        @inlinable
        func scheduleRelease() {
            scheduler.schedule(options: options, TimelineRecording.carrying { self.release() })
        }

        @inlinable
        func scheduleDelivery() {
            scheduler.schedule(options: options, TimelineRecording.carrying { self.deliverReleased() })
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            forward(demand)
        }

        @inlinable
        func cancel() {
            cancelUpstream()
        }

        @usableFromInline
        var description: String { "ReceiveOn" }

        @usableFromInline
        var customMirror: Mirror {
            Mirror(self, children: EmptyCollection())
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
