extension ConnectablePublisher {
    /// Automates the process of connecting or disconnecting from this connectable publisher.
    ///
    /// The returned publisher connects to this one when the first subscriber attaches, and cancels
    /// the connection when the last subscriber cancels. It is the usual way to start a timer:
    ///
    /// ```swift
    /// let cancellable = Timer.publish(every: 1, on: .main, in: .common)
    ///     .autoconnect()
    ///     .sink { print("tick at", $0) }
    /// // Prints "tick at ..." once a second while the main run loop runs, until:
    /// cancellable.cancel()  // The last subscriber leaves: the timer stops.
    /// ```
    ///
    /// Only cancellation disconnects: subscribers that merely complete still count.
    ///
    /// - Returns: A publisher which automatically connects to its upstream connectable publisher.
    @inlinable
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}

extension Publishers {
    /// A publisher that automatically connects to an upstream connectable publisher.
    ///
    /// This publisher calls ``ConnectablePublisher/connect()`` on the upstream connectable publisher
    /// when first attached to by a subscriber, and cancels the connection when every subscriber has
    /// cancelled. A subscriber that attaches after that connects it again.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let ticks = scheduler.timerPublisher(every: .seconds(1)).autoconnect()
    /// let first = ticks.sink { _ in print("first") }   // Connects: the timer starts.
    /// let second = ticks.sink { _ in print("second") } // Already connected.
    /// scheduler.advance(by: .seconds(1))
    /// first.cancel()
    /// second.cancel()                                  // The last one: the timer stops.
    /// scheduler.advance(by: .seconds(10))
    /// // Prints:
    /// // first
    /// // second
    /// ```
    ///
    /// A subscriber that attaches while the upstream is being connected, for example from inside the
    /// first subscriber's `receive(subscription:)`, joins that connection. (Combine connects a second
    /// time in that case and never cancels the first connection; a subscription cancelled twice
    /// also counts once here.)
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        @usableFromInline
        let lock = Lock()

        /// Where the connection stands; guarded by `lock`.
        @usableFromInline
        @exclusivity(unchecked)
        var state = State.disconnected

        /// Where an autoconnect's connection stands, with how many subscriptions have not been
        /// cancelled.
        @usableFromInline
        enum State {
            case disconnected
            /// The first subscriber is attached and the upstream is being connected.
            case connecting(subscribers: Int)
            case connected(subscribers: Int, connection: any Cancellable)
        }

        /// Creates a publisher that automatically connects to an upstream connectable publisher.
        ///
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the subscriber to the upstream publisher, connecting it if this is the first
        /// subscriber.
        ///
        /// As in Combine, the upstream is connected after the subscriber is attached, so the
        /// subscriber already receives what the connection starts.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let mustConnect = lock.withLock { () -> Bool in
                switch state {
                case .disconnected:
                    state = .connecting(subscribers: 1)
                    return true
                case .connecting(let subscribers):
                    state = .connecting(subscribers: subscribers + 1)
                case .connected(let subscribers, let connection):
                    state = .connected(subscribers: subscribers + 1, connection: connection)
                }
                return false
            }
            upstream.subscribe(Inner(parent: self, downstream: subscriber))
            guard mustConnect else { return }
            let connection = upstream.connect()
            let isAbandoned = lock.withLock { () -> Bool in
                guard case .connecting(let subscribers) = state, subscribers > 0 else {
                    // Every subscriber cancelled while the upstream was connecting.
                    state = .disconnected
                    return true
                }
                state = .connected(subscribers: subscribers, connection: connection)
                return false
            }
            if isAbandoned { connection.cancel() }
        }

        /// A subscription was cancelled: the last one cancels the connection.
        @inlinable
        func subscriptionCancelled() {
            let connection = lock.withLock { () -> (any Cancellable)? in
                switch state {
                case .disconnected:
                    return nil
                case .connecting(let subscribers):
                    state = .connecting(subscribers: subscribers - 1)
                    return nil
                case .connected(let subscribers, let connection):
                    guard subscribers <= 1 else {
                        state = .connected(subscribers: subscribers - 1, connection: connection)
                        return nil
                    }
                    state = .disconnected
                    return connection
                }
            }
            connection?.cancel()
        }
    }
}

extension Publishers.Autoconnect {
    /// The subscriber that hands the downstream a subscription that tells the parent when it is
    /// cancelled.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let parent: Publishers.Autoconnect<Upstream>

        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(parent: Publishers.Autoconnect<Upstream>, downstream: Downstream) {
            self.parent = parent
            self.downstream = downstream
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: CountedSubscription(upstream: subscription, parent: parent))
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline
        var description: String { "Autoconnect" }

        @usableFromInline
        var customMirror: Mirror {
            Mirror(self, children: ["parent": parent, "downstream": downstream])
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }

    /// The upstream's subscription, as the downstream sees it: the same identity and description,
    /// and a cancel that also counts down the parent's subscribers (once, however often it is
    /// called).
    @usableFromInline
    final class CountedSubscription: Subscription, CustomStringConvertible, CustomPlaygroundDisplayConvertible {
        @usableFromInline
        let upstream: any Subscription

        @usableFromInline
        let lock = Lock()

        /// Let go of on cancel; guarded by `lock`.
        @usableFromInline
        @exclusivity(unchecked)
        var parent: Publishers.Autoconnect<Upstream>?

        @inlinable
        init(upstream: any Subscription, parent: Publishers.Autoconnect<Upstream>) {
            self.upstream = upstream
            self.parent = parent
        }

        @inlinable
        var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            upstream.request(demand)
        }

        @inlinable
        func cancel() {
            let parent = lock.withLock { self.parent.take() }
            parent?.subscriptionCancelled()
            upstream.cancel()
        }

        @usableFromInline
        var description: String { String(describing: upstream) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}

// The connection state is guarded by `lock`; `upstream` is immutable and itself Sendable.
extension Publishers.Autoconnect: @unchecked Sendable where Upstream: Sendable {}
