extension Publisher {
    /// Shares the output of an upstream publisher with multiple subscribers.
    ///
    /// Every subscriber receives the same elements and completion from a single subscription to the
    /// upstream. The first subscriber connects that subscription; a subscriber that attaches later sees
    /// only what the upstream sends from then on, and one that attaches after the upstream completed
    /// receives the completion at once. When every subscriber has cancelled, the upstream subscription
    /// is cancelled too, and the next subscriber subscribes to the upstream again.
    ///
    /// `share()` is ``multicast(subject:)`` with a ``PassthroughSubject``, followed by
    /// ``ConnectablePublisher/autoconnect()``. Unlike most publishers, ``Publishers/Share`` is a class:
    /// keep one instance and subscribe to it several times.
    ///
    /// ```swift
    /// let upstream = PassthroughSubject<Int, Never>()
    /// let shared = upstream
    ///     .map { value -> Int in
    ///         print("computing", value)
    ///         return value * value
    ///     }
    ///     .share()
    /// let first = shared.sink { print("first", $0) }
    /// let second = shared.sink { print("second", $0) }
    /// upstream.send(3)
    /// // Prints:
    /// // computing 3
    /// // first 9
    /// // second 9
    /// ```
    ///
    /// - Returns: A class instance that shares elements received from its upstream with multiple
    ///   subscribers.
    @inlinable
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}

extension Publishers {
    /// A publisher that shares the output of an upstream publisher with multiple subscribers.
    ///
    /// It behaves as ``Publishers/Multicast`` with a ``PassthroughSubject`` behind
    /// ``Publishers/Autoconnect``: the first subscriber connects the upstream, and the last one to
    /// cancel disconnects it. Two instances are equal only if they are the same instance.
    ///
    /// ```swift
    /// let shared = PassthroughSubject<String, Never>().share()
    /// print(shared == shared, shared == shared.upstream.share())
    /// // Prints:
    /// // true false
    /// ```
    public final class Share<Upstream: Publisher>: Publisher, Equatable {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        @usableFromInline
        let inner: Autoconnect<Multicast<Upstream, PassthroughSubject<Output, Failure>>>

        /// Creates a publisher that shares the output of `upstream` with multiple subscribers.
        ///
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
            inner = upstream.multicast(subject: PassthroughSubject()).autoconnect()
        }

        /// Attaches the subscriber, subscribing to the upstream if no other subscriber is attached.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            inner.subscribe(subscriber)
        }

        /// Whether `lhs` and `rhs` are the same instance.
        @inlinable
        public static func == (lhs: Share, rhs: Share) -> Bool {
            lhs === rhs
        }
    }
}

extension Publishers.Share: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}
