extension Publisher where Failure == Never {
    /// Changes the failure type declared by the upstream publisher.
    ///
    /// Use it when you need to match the error types of two mismatched publishers, for example to
    /// combine a publisher that cannot fail with one that can. The upstream cannot fail, so the new
    /// type only ever appears in signatures.
    ///
    /// ```swift
    /// struct MyError: Error {}
    /// let numbers: AnyPublisher<Int, MyError> = [1, 2].publisher
    ///     .setFailureType(to: MyError.self)
    ///     .eraseToAnyPublisher()
    /// ```
    ///
    /// - Parameter failureType: The `Failure` type presented by this publisher.
    /// - Returns: A publisher that appears to send the specified failure type.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}

extension Publishers {
    /// A publisher that appears to send a specified failure type.
    ///
    /// The publisher can't actually fail with the specified type and finishes normally. Use this
    /// publisher type when you need to match the error types for two mismatched publishers.
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that appears to send a specified failure type.
        ///
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the subscriber through a subscriber that relabels the failure type.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Upstream.Output == S.Input {
            upstream.subscribe(Inner(downstream: subscriber))
        }

        /// Returns a publisher that presents another failure type instead of this one.
        ///
        /// - Parameter failure: The `Failure` type presented by the new publisher.
        /// - Returns: A publisher over the same upstream that appears to send the new failure type.
        @inlinable
        public func setFailureType<E: Error>(to failure: E.Type) -> Publishers.SetFailureType<Upstream, E> {
            Publishers.SetFailureType(upstream: upstream)
        }
    }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}

extension Publishers.SetFailureType: Sendable where Upstream: Sendable {}

extension Publishers.SetFailureType {
    /// The subscriber that passes everything through under the new failure type (whatever
    /// downstream's is: upstream never fails, so only `.finished` ever goes down).
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output {
        @usableFromInline
        typealias Input = Upstream.Output

        @usableFromInline
        typealias Failure = Never

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
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Never>) {
            downstream.receive(completion: .finished)
        }

        @usableFromInline
        var description: String { "SetFailureType" }

        @usableFromInline
        var customMirror: Mirror {
            Mirror(self, children: ["downstream": downstream])
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
