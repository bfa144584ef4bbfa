extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided error-throwing closure.
    ///
    /// When the closure throws, the publisher cancels its upstream subscription and fails with the
    /// thrown error.
    ///
    /// ```swift
    /// struct NotANumber: Error {}
    ///
    /// let cancellable = ["1", "2", "three", "4"].publisher
    ///     .tryMap { text -> Int in
    ///         guard let number = Int(text) else { throw NotANumber() }
    ///         return number
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("error:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints:
    /// // 1
    /// // 2
    /// // error: NotANumber()
    /// ```
    ///
    /// If the closure can't throw, use `map(_:)` instead.
    ///
    /// - Parameter transform: A closure that takes one element as its parameter and returns a new
    ///   element. If the closure throws an error, the publisher fails with the thrown error.
    /// - Returns: A publisher that uses the provided closure to map elements from the upstream
    ///   publisher to new elements that it then publishes.
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a provided
    /// error-throwing closure.
    ///
    /// Demand passes through to the upstream publisher unchanged. A thrown error cancels the upstream
    /// subscription and becomes the publisher's failure.
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's, or what the closure throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that transforms elements from the upstream publisher.
        public let transform: (Upstream.Output) throws -> Output

        /// Creates a publisher that transforms all elements from the upstream publisher with a
        /// provided error-throwing closure.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - transform: The error-throwing closure that transforms elements from the upstream
        ///     publisher.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches the subscriber through a transforming subscription to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.TryMap {
    /// Returns a single publisher that applies this publisher's transform, then `transform`.
    ///
    /// ```swift
    /// struct Negative: Error {}
    ///
    /// let cancellable = [4, 9].publisher
    ///     .tryMap { value -> Int in
    ///         guard value >= 0 else { throw Negative() }
    ///         return value * 2
    ///     }
    ///     .map { "#\($0)" } // Still one Publishers.TryMap.
    ///     .sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
    /// // Prints:
    /// // #8
    /// // #18
    /// ```
    ///
    /// - Parameter transform: A closure that takes one element as its parameter and returns a new
    ///   element.
    /// - Returns: A publisher that applies both transforms, one after the other.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
    }

    /// Returns a single publisher that applies this publisher's transform, then the error-throwing
    /// `transform`.
    ///
    /// - Parameter transform: A closure that takes one element as its parameter and returns a new
    ///   element. If the closure throws an error, the publisher fails with the thrown error.
    /// - Returns: A publisher that applies both transforms, one after the other.
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
    }

    /// The subscriber and subscription of ``Publishers/TryMap``: it passes demand up, transforms
    /// values on their way down, and ends the stream when the transform throws.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == any Error {
        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let transform: (Upstream.Output) throws -> Output

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var status = SubscriptionStatus.awaitingSubscription

        @inlinable
        init(downstream: Downstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.downstream = downstream
            self.transform = transform
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard lock.withLock({ status.accept(subscription) }) else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
        }

        /// Transforms and passes on every value, whatever the state, as Combine does; a thrown error
        /// cancels upstream (if subscribed) and fails downstream, every time one is thrown.
        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let output: Output
            do {
                output = try transform(input)
            } catch {
                lock.withLock { status.terminate() }?.cancel()
                downstream.receive(completion: .failure(error))
                return .none
            }
            return downstream.receive(output)
        }

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
        var description: String { "TryMap" }

        @usableFromInline
        var customMirror: Mirror {
            Mirror(self, children: EmptyCollection())
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
