extension Publisher {
    /// Ignores all upstream elements, but passes along the upstream publisher's completion state
    /// (finished or failed).
    ///
    /// The publisher asks upstream for an unlimited number of elements as soon as it subscribes,
    /// whatever the downstream's demand, and drops every element.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher
    ///     .ignoreOutput()
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { _ in print("never called") })
    /// // Prints: finished
    /// ```
    ///
    /// - Returns: A publisher that ignores all upstream elements.
    @inlinable
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}

extension Publishers {
    /// A publisher that ignores all upstream elements, but passes along the upstream publisher's
    /// completion state (finished or failed).
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: none.
        public typealias Output = Never

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that ignores all upstream elements and passes along its completion.
        ///
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the subscriber through an element-dropping subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, Failure == S.Failure {
            upstream.subscribe(Inner(downstream: subscriber))
        }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

extension Publishers.IgnoreOutput: Sendable where Upstream: Sendable {}

extension Publishers.IgnoreOutput {
    /// The subscriber that drops every element and passes the completion on.
    ///
    /// It hands the upstream subscription to the downstream, then asks it for everything.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Never, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
            subscription.request(.unlimited)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline
        var description: String { "IgnoreOutput" }

        @usableFromInline
        var customMirror: Mirror {
            Mirror(self, children: EmptyCollection())
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
