extension Publisher where Failure == Never {
    /// Creates a connectable wrapper around the publisher.
    ///
    /// The returned publisher produces nothing until you call ``ConnectablePublisher/connect()``, so
    /// you can attach every subscriber before the first value flows. Without it, the first subscriber
    /// to a synchronous publisher such as `Just` would receive everything, and the publisher would
    /// finish, before a second one attaches.
    ///
    /// ```swift
    /// let connectable = Just("Sent").makeConnectable()
    /// let first = connectable.sink { print("first received", $0) }
    /// let second = connectable.sink { print("second received", $0) }
    /// let connection = connectable.connect()
    /// // Prints:
    /// // first received Sent
    /// // second received Sent
    /// ```
    ///
    /// Keep the cancellable that `connect()` returns: cancelling or releasing it ends the connection.
    ///
    /// - Returns: A ``ConnectablePublisher`` wrapping this publisher.
    @inlinable
    public func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }
}

extension Publishers {
    /// A publisher that provides explicit connectability to another publisher.
    ///
    /// Subscribers attach to a ``PassthroughSubject``; ``connect()`` subscribes that subject to the
    /// upstream, exactly as ``Publishers/Multicast`` does. Copies of this value share the subject and
    /// its subscribers.
    ///
    /// ```swift
    /// let upstream = PassthroughSubject<Int, Never>()
    /// let connectable = upstream.makeConnectable()
    /// let cancellable = connectable.sink { print($0) }
    /// upstream.send(1)                    // Not connected yet: dropped.
    /// let connection = connectable.connect()
    /// upstream.send(2)
    /// // Prints:
    /// // 2
    /// ```
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        @usableFromInline
        let inner: Multicast<Upstream, PassthroughSubject<Output, Failure>>

        /// Creates a connectable publisher attached to the given upstream publisher.
        ///
        /// - Parameter upstream: The publisher from which to receive elements.
        @inlinable
        public init(upstream: Upstream) {
            inner = upstream.multicast(subject: PassthroughSubject())
        }

        /// Attaches the subscriber; it receives values once the publisher is connected.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            inner.subscribe(subscriber)
        }

        /// Subscribes to the upstream publisher and starts delivering its elements.
        ///
        /// - Returns: A cancellable that ends this connection; the subscribers are not completed.
        @inlinable
        public func connect() -> any Cancellable {
            inner.connect()
        }
    }
}

extension Publishers.MakeConnectable: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}
