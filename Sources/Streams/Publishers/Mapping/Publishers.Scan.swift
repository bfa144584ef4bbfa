extension Publisher {
    /// Transforms elements from the upstream publisher by providing the current element to a closure
    /// along with the last value returned by the closure.
    ///
    /// Unlike `reduce(_:_:)`, `scan` publishes every intermediate result. Demand, completion and
    /// cancellation pass through unchanged.
    ///
    /// ```swift
    /// let cancellable = (0...5).publisher
    ///     .scan(0) { $0 + $1 }
    ///     .sink { print($0, terminator: " ") }
    /// // Prints: 0 1 3 6 10 15
    /// ```
    ///
    /// - Parameters:
    ///   - initialResult: The previous result returned by the `nextPartialResult` closure.
    ///   - nextPartialResult: A closure that takes as its arguments the previous value returned by
    ///     the closure and the next element emitted from the upstream publisher.
    /// - Returns: A publisher that transforms elements by applying a closure that receives its
    ///   previous return value and the next element from the upstream publisher.
    @inlinable
    public func scan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Scan<Self, T> {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that transforms elements from the upstream publisher by providing the current
    /// element to a closure along with the last value returned by the closure.
    ///
    /// Each subscription starts again from ``initialResult``.
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The previous result returned by the ``nextPartialResult`` closure, before the first element.
        public let initialResult: Output

        /// A closure that takes as its arguments the previous value returned by the closure and the
        /// next element emitted from the upstream publisher.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that publishes each result of a closure that receives its previous
        /// result and the next element from the upstream publisher.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - initialResult: The previous result the closure receives with the first element.
        ///   - nextPartialResult: A closure that produces the next result.
        @inlinable
        public init(
            upstream: Upstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches the subscriber through an accumulating subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(
                Inner(downstream: subscriber, initialResult: initialResult, nextPartialResult: nextPartialResult))
        }
    }
}

extension Publishers.Scan {
    /// The subscriber that folds each value into the running result and sends the result on.
    ///
    /// It hands the upstream subscription straight to the downstream.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let nextPartialResult: (Output, Upstream.Output) -> Output

        @usableFromInline
        let lock = Lock()

        /// Written only by `receive(_:)` and under `lock`, so that `receive(_:)` reads it freely and
        /// reflection reads it under `lock`.
        @usableFromInline
        var result: Output

        @inlinable
        init(
            downstream: Downstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.downstream = downstream
            self.nextPartialResult = nextPartialResult
            result = initialResult
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let next = nextPartialResult(result, input)
            lock.withLock { result = next }
            return downstream.receive(next)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline
        var description: String { "Scan" }

        @usableFromInline
        var customMirror: Mirror {
            let result = lock.withLock { self.result }
            let children: [Mirror.Child] = [("downstream", downstream), ("result", result)]
            return Mirror(self, children: children)
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
