extension Publisher {
    /// Prints log messages for all publishing events.
    ///
    /// Each event becomes one line: `receive subscription: (…)`, `request max: (n)` or
    /// `request unlimited`, `receive value: (…)`, `receive finished`, `receive error: (…)` and
    /// `receive cancel`. Demand that downstream returns from receiving a value is logged with the
    /// suffix `(synchronous)` when it is greater than zero. A nonempty prefix is printed before each
    /// line, followed by a colon and a space.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .print("numbers")
    ///     .sink { _ in }
    /// // Prints:
    /// // numbers: receive subscription: ([1, 2])
    /// // numbers: request unlimited
    /// // numbers: receive value: (1)
    /// // numbers: receive value: (2)
    /// // numbers: receive finished
    /// ```
    ///
    /// - Parameters:
    ///   - prefix: A string — which defaults to empty — with which to prefix all log messages.
    ///   - stream: A stream for text output that receives messages, and which directs output to the
    ///     console by default. A custom stream can be used to log messages to other destinations.
    /// - Returns: A publisher that prints log messages for all publishing events.
    @inlinable
    public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }
}

extension Publishers {
    /// A publisher that prints log messages for all publishing events, optionally prefixed with a
    /// given string.
    ///
    /// This publisher prints log messages when receiving the following events: subscription, value,
    /// normal completion, failure, cancellation and requests for more values.
    public struct Print<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// A string with which to prefix all log messages.
        public let prefix: String

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A stream for text output that receives messages; `nil` prints to standard output.
        public let stream: (any TextOutputStream)?

        /// Creates a publisher that prints log messages for all publishing events.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - prefix: A string with which to prefix all log messages.
        ///   - stream: A stream for text output that receives messages; `nil` prints to standard
        ///     output.
        @inlinable
        public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
        }

        /// Attaches the subscriber through a subscriber that logs every event.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(Inner(downstream: subscriber, prefix: prefix, stream: stream))
        }
    }
}

extension Publishers.Print {
    /// Forwards writes to a stream held as an existential, so that `print(_:to:)` can take it.
    @usableFromInline
    struct Target: TextOutputStream {
        @usableFromInline
        var stream: any TextOutputStream

        @inlinable
        init(stream: any TextOutputStream) {
            self.stream = stream
        }

        @inlinable
        mutating func write(_ string: String) {
            stream.write(string)
        }
    }

    /// The subscriber and subscription that log each event, then pass it on.
    ///
    /// Like Combine's, it is transparent: values and completions are passed on as they arrive, and
    /// only requests and cancellation are stopped once the stream has ended.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let downstream: Downstream

        /// The prefix with its separator, or empty.
        @usableFromInline
        let prefix: String

        /// Copied for each line, so threads never share a mutable stream value.
        @usableFromInline
        let stream: Target?

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var status = SubscriptionStatus.awaitingSubscription

        @inlinable
        init(downstream: Downstream, prefix: String, stream: (any TextOutputStream)?) {
            self.downstream = downstream
            self.prefix = prefix.isEmpty ? "" : prefix + ": "
            if let stream {
                self.stream = Target(stream: stream)
            } else {
                self.stream = nil
            }
        }

        @inlinable
        func log(_ message: String) {
            if var target = stream {
                Swift.print(prefix + message, to: &target)
            } else {
                Swift.print(prefix + message)
            }
        }

        @inlinable
        func describe(_ demand: Subscribers.Demand) -> String {
            if let max = demand.max { return "request max: (\(max))" }
            return "request unlimited"
        }

        @inlinable
        func receive(subscription: any Subscription) {
            log("receive subscription: (\(subscription))")
            guard lock.withLock({ status.accept(subscription) }) else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            log("receive value: (\(input))")
            let more = downstream.receive(input)
            if more > 0 { log(describe(more) + " (synchronous)") }
            return more
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            switch completion {
            case .finished:
                log("receive finished")
            case .failure(let error):
                log("receive error: (\(error))")
            }
            lock.withLock { status = .terminal }
            downstream.receive(completion: completion)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            log(describe(demand))
            lock.withLock { status.subscription }?.request(demand)
        }

        @inlinable
        func cancel() {
            log("receive cancel")
            let subscription = lock.withLock { () -> (any Subscription)? in
                let subscription = status.subscription
                if subscription != nil { status = .terminal }
                return subscription
            }
            subscription?.cancel()
        }

        @usableFromInline
        var description: String { "Print" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
