extension Publisher {
    /// Specifies the scheduler on which to perform subscribe, cancel, and request operations.
    ///
    /// Use `subscribe(on:options:)` when subscribing to the upstream, or asking it for values, does
    /// work that should not run on the caller's thread — for example a publisher that starts a long
    /// computation when it receives a request. `receive(on:options:)` is its counterpart for the
    /// downstream deliveries.
    ///
    /// ```swift
    /// let background = DispatchQueue(label: "background")
    /// let cancellable = [1, 2, 3].publisher
    ///     .subscribe(on: background)
    ///     .sink { print("received \($0)") }
    /// // The sequence is subscribed to, and sends its values, on the background queue:
    /// // received 1
    /// // received 2
    /// // received 3
    /// ```
    ///
    /// Subscribing to the upstream happens in an action scheduled on `scheduler`; each later
    /// `request(_:)` and the `cancel()` of the subscription are scheduled there too, in their own
    /// actions, and reach the upstream one at a time. Values and the completion pass through
    /// synchronously, on whatever context the upstream sends them.
    ///
    /// With `DispatchQueue.main` or `RunLoop.main` as the scheduler, the subscription, the requests
    /// and the cancellation reach upstream only while the main queue or the main run loop runs. An
    /// app's event loop runs them; a command-line tool or a server on Linux must:
    /// `RunLoop.main.run(until:)` on the main thread runs both for a while, and `dispatchMain()` at
    /// the end of a tool that never returns runs the main queue. In tests, XCTest's
    /// `wait(for:timeout:)` runs the main run loop while it waits; a Swift Testing test sees the main
    /// queue served while it is suspended at an `await`, but never the main run loop. See
    /// <doc:ThreadsAndSchedulers#When-the-main-run-loop-must-run>.
    ///
    /// - Parameters:
    ///   - scheduler: The scheduler used to send messages to upstream publishers.
    ///   - options: Options that customize the delivery of elements.
    /// - Returns: A publisher which performs upstream operations on the specified scheduler.
    @inlinable
    public func subscribe<S: Scheduler>(
        on scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.SubscribeOn<Self, S> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that receives elements from an upstream publisher on a specific scheduler.
    ///
    /// ```swift
    /// let queue = DispatchQueue(label: "work")
    /// let cancellable = Publishers.SubscribeOn(upstream: Just(1), scheduler: queue, options: nil)
    ///     .sink { print($0) }
    /// // Prints "1", from the work queue.
    /// ```
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The scheduler the publisher should use to receive elements.
        public let scheduler: Context

        /// Scheduler options that customize the delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that subscribes to, requests from and cancels its upstream on a
        /// scheduler.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - scheduler: The scheduler the publisher should use to receive elements.
        ///   - options: Scheduler options that customize the delivery of elements.
        @inlinable
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Schedules the subscription to the upstream publisher on the scheduler.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
            let inner = Inner(downstream: subscriber, scheduler: scheduler, options: options)
            let upstream = self.upstream
            scheduler.schedule(options: options, TimelineRecording.carrying { upstream.subscribe(inner) })
        }
    }
}

extension Publishers.SubscribeOn {
    /// The subscriber and subscription of `subscribe(on:)`: a thin class around its
    /// ``SubscribeOnState``.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
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
        var state = SubscribeOnState()

        @inlinable
        init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.downstream = downstream
            self.scheduler = scheduler
            self.options = options
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard lock.withLock({ state.status.accept(subscription) }) else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard lock.withLock({ state.status.isSubscribed }) else { return .none }
            return downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            guard lock.withLock({ state.status.complete() }) else { return }
            downstream.receive(completion: completion)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            guard let subscription = lock.withLock({ state.status.subscription }) else { return }
            scheduler.schedule(
                options: options, TimelineRecording.carrying { self.call(.request(subscription, demand)) })
        }

        @inlinable
        func cancel() {
            guard let subscription = lock.withLock({ state.cancel() }) else { return }
            scheduler.schedule(options: options, TimelineRecording.carrying { self.call(.cancel(subscription)) })
        }

        /// Makes `call` upstream now, or after the calls already under way.
        @inlinable
        func call(_ call: SubscribeOnState.UpstreamCall) {
            guard lock.withLock({ state.enqueue(call) }) else { return }
            var batch = ContiguousArray<SubscribeOnState.UpstreamCall>()
            while lock.withLock({ state.takeCalls(into: &batch) }) {
                for call in batch {
                    switch call {
                    case .request(let subscription, let demand):
                        subscription.request(demand)
                    case .cancel(let subscription):
                        subscription.cancel()
                    }
                }
                batch.removeAll(keepingCapacity: true)
            }
        }

        @usableFromInline
        var description: String { "SubscribeOn" }

        @usableFromInline
        var customMirror: Mirror {
            Mirror(self, children: EmptyCollection())
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
