extension Publisher {
    /// Transforms elements from the upstream publisher by providing the current element to an
    /// error-throwing closure along with the last value returned by the closure.
    ///
    /// Every intermediate result is published. When the closure throws, the publisher cancels
    /// upstream and fails with the thrown error.
    ///
    /// ```swift
    /// struct Overflow: Error {}
    ///
    /// let cancellable = [1, 2, 3, 4].publisher
    ///     .tryScan(0) { total, next in
    ///         guard total + next < 7 else { throw Overflow() }
    ///         return total + next
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("error:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints:
    /// // 1
    /// // 3
    /// // 6
    /// // error: Overflow()
    /// ```
    ///
    /// - Parameters:
    ///   - initialResult: The previous result returned by the `nextPartialResult` closure.
    ///   - nextPartialResult: An error-throwing closure that takes as its arguments the previous
    ///     value returned by the closure and the next element emitted from the upstream publisher.
    /// - Returns: A publisher that transforms elements by applying a closure that receives its
    ///   previous return value and the next element from the upstream publisher.
    @inlinable
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that transforms elements from the upstream publisher by providing the current
    /// element to an error-throwing closure along with the last value returned by the closure.
    ///
    /// Each subscription starts again from ``initialResult``.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's, or what the closure throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The previous result returned by the ``nextPartialResult`` closure, before the first element.
        public let initialResult: Output

        /// An error-throwing closure that takes as its arguments the previous value returned by the
        /// closure and the next element emitted from the upstream publisher.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that publishes each result of an error-throwing closure that receives
        /// its previous result and the next element from the upstream publisher.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - initialResult: The previous result the closure receives with the first element.
        ///   - nextPartialResult: An error-throwing closure that produces the next result.
        @inlinable
        public init(
            upstream: Upstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches the subscriber through an accumulating subscription to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
            upstream.subscribe(
                Inner(downstream: subscriber, initialResult: initialResult, nextPartialResult: nextPartialResult))
        }
    }
}

extension Publishers.TryScan {
    /// The subscriber and subscription of ``Publishers/TryScan``: it passes demand up, folds each
    /// value into the running result and sends the result on, and ends the stream when the closure
    /// throws.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == any Error {
        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let nextPartialResult: (Output, Upstream.Output) throws -> Output

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var status = SubscriptionStatus.awaitingSubscription

        /// Written only by `receive(_:)` and under `lock`, so that `receive(_:)` reads it freely and
        /// reflection reads it under `lock`.
        @usableFromInline
        var result: Output

        @inlinable
        init(
            downstream: Downstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.downstream = downstream
            self.nextPartialResult = nextPartialResult
            result = initialResult
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard lock.withLock({ status.accept(subscription) }) else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
        }

        /// Accumulates and passes on every value, whatever the state, as Combine does; a thrown error
        /// cancels upstream and fails downstream once subscribed, and is otherwise dropped.
        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let next: Output
            do {
                next = try nextPartialResult(result, input)
            } catch {
                let subscription = lock.withLock { status.isSubscribed ? status.terminate() : nil }
                guard let subscription else { return .none }
                subscription.cancel()
                downstream.receive(completion: .failure(error))
                return .none
            }
            // Written under the lock only so that `customMirror` reads a whole value.
            lock.withLock { result = next }
            return downstream.receive(next)
        }

        /// Passes the completion on while subscribed and lets go of upstream. Later values are still
        /// accumulated and passed on, as in Combine.
        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            guard lock.withLock({ status.complete() }) else { return }
            downstream.receive(completion: completion.eraseError)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            lock.withLock { status.subscription }?.request(demand)
        }

        /// Cancels upstream once subscribed; before the subscription arrives it does nothing, as in
        /// Combine.
        @inlinable
        func cancel() {
            lock.withLock { status.isSubscribed ? status.terminate() : nil }?.cancel()
        }

        @usableFromInline
        var description: String { "TryScan" }

        @usableFromInline
        var customMirror: Mirror {
            let (status, result) = lock.withLock { (self.status, self.result) }
            let children: [Mirror.Child] = [("downstream", downstream), ("status", status), ("result", result)]
            return Mirror(self, children: children)
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
