extension Publisher {
    /// Prefixes a publisher's output with the specified values.
    ///
    /// The values are published first, as demand allows, then the upstream publisher's.
    ///
    /// ```swift
    /// let dataElements = (0...10)
    /// let cancellable = dataElements.publisher
    ///     .prepend(0, 1, 255)
    ///     .sink { print("\($0)", terminator: " ") }
    /// // Prints: 0 1 255 0 1 2 3 4 5 6 7 8 9 10
    /// ```
    ///
    /// - Parameter elements: The elements to publish before this publisher's elements.
    /// - Returns: A publisher that prefixes the specified elements prior to this publisher's
    ///   elements.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Prefixes a publisher's output with the specified sequence.
    ///
    /// ```swift
    /// let prefixValues = [0, 1, 255]
    /// let cancellable = (0...10).publisher
    ///     .prepend(prefixValues)
    ///     .sink { print("\($0)", terminator: " ") }
    /// // Prints: 0 1 255 0 1 2 3 4 5 6 7 8 9 10
    /// ```
    ///
    /// - Parameter elements: A sequence of elements to publish before this publisher's elements.
    /// - Returns: A publisher that prefixes the sequence of elements prior to this publisher's
    ///   elements.
    @inlinable
    public func prepend<S: Swift.Sequence>(
        _ elements: S
    ) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self> where Output == S.Element {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Prefixes the output of this publisher with the elements emitted by the given publisher.
    ///
    /// This publisher subscribes to itself only after `publisher` finishes; if `publisher` fails,
    /// the failure ends the stream and this publisher is never subscribed to.
    ///
    /// ```swift
    /// let prefixPublisher = [-1, 0].publisher
    /// let cancellable = [1, 2].publisher
    ///     .prepend(prefixPublisher)
    ///     .sink { print("\($0)", terminator: " ") }
    /// // Prints: -1 0 1 2
    /// ```
    ///
    /// - Parameter publisher: The prefixing publisher.
    /// - Returns: A publisher that prefixes the prefixing publisher's elements prior to this
    ///   publisher's elements.
    @inlinable
    public func prepend<P: Publisher>(
        _ publisher: P
    ) -> Publishers.Concatenate<P, Self> where Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }

    /// Appends a publisher's output with the specified elements.
    ///
    /// The elements are published after this publisher finishes; if it fails, they are not.
    ///
    /// ```swift
    /// let cancellable = (0...10).publisher
    ///     .append(0, 1, 255)
    ///     .sink { print("\($0)", terminator: " ") }
    /// // Prints: 0 1 2 3 4 5 6 7 8 9 10 0 1 255
    /// ```
    ///
    /// - Parameter elements: Elements to publish after this publisher's elements.
    /// - Returns: A publisher that appends the specified elements after this publisher's elements.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Appends a publisher's output with the specified sequence.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .append([3, 4])
    ///     .sink { print("\($0)", terminator: " ") }
    /// // Prints: 1 2 3 4
    /// ```
    ///
    /// - Parameter elements: A sequence of elements to publish after this publisher's elements.
    /// - Returns: A publisher that appends the sequence of elements after this publisher's elements.
    @inlinable
    public func append<S: Swift.Sequence>(
        _ elements: S
    ) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>> where Output == S.Element {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Appends the output of this publisher with the elements emitted by the given publisher.
    ///
    /// The given publisher is subscribed to only after this one finishes.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .append([3, 4].publisher)
    ///     .sink { print("\($0)", terminator: " ") }
    /// // Prints: 1 2 3 4
    /// ```
    ///
    /// - Parameter publisher: The appending publisher.
    /// - Returns: A publisher that appends the appending publisher's elements after this publisher's
    ///   elements.
    @inlinable
    public func append<P: Publisher>(
        _ publisher: P
    ) -> Publishers.Concatenate<Self, P> where P.Failure == Failure, P.Output == Output {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }
}

extension Publishers {
    /// A publisher that emits all of one publisher's elements before those from another publisher.
    ///
    /// The suffix is subscribed to only after the prefix finishes; the demand downstream requested
    /// and did not receive from the prefix is requested from the suffix. A failure of either ends
    /// the stream.
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Failure == Suffix.Failure, Prefix.Output == Suffix.Output {
        /// The kind of values published by this publisher: both publishers'.
        public typealias Output = Suffix.Output

        /// The kind of errors this publisher might publish: both publishers'.
        public typealias Failure = Suffix.Failure

        /// The publisher to republish, in its entirety, before republishing elements from the suffix
        /// publisher.
        public let prefix: Prefix

        /// The publisher to republish only after the prefix publisher finishes.
        public let suffix: Suffix

        /// Creates a publisher that emits all of one publisher's elements before those from another
        /// publisher.
        ///
        /// - Parameters:
        ///   - prefix: The publisher to republish, in its entirety, before republishing elements from
        ///     the suffix publisher.
        ///   - suffix: The publisher to republish only after the prefix publisher finishes.
        @inlinable
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        /// Attaches the subscriber to the prefix; the suffix follows when the prefix finishes.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let inner = Inner(downstream: subscriber, suffix: suffix)
            prefix.receive(subscriber: Inner.PrefixSide(inner: inner))
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

extension Publishers.Concatenate: Sendable where Prefix: Sendable, Suffix: Sendable {}

extension Publishers.Concatenate {
    /// The subscription downstream sees: it relays the prefix, then the suffix.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Suffix.Output, Downstream.Failure == Suffix.Failure {
        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`; `nil` once subscribed to, or when the stream ends first.
        @usableFromInline
        var suffix: Suffix?

        /// Guarded by `lock`.
        @usableFromInline
        var prefixStatus = SubscriptionStatus.awaitingSubscription

        /// Guarded by `lock`.
        @usableFromInline
        var suffixStatus = SubscriptionStatus.awaitingSubscription

        /// Guarded by `lock`: whether the stream ended (completed or cancelled).
        @usableFromInline
        var isTerminal = false

        /// Guarded by `lock`: downstream's outstanding demand, carried over to the suffix.
        @usableFromInline
        var demand = Subscribers.Demand.none

        @inlinable
        init(downstream: Downstream, suffix: Suffix) {
            self.downstream = downstream
            self.suffix = suffix
        }

        // MARK: Prefix side

        @inlinable
        func prefixReceive(subscription: any Subscription) {
            let accepted = lock.withLock {
                guard !isTerminal, case .awaitingSubscription = prefixStatus else { return false }
                prefixStatus = .subscribed(subscription)
                return true
            }
            guard accepted else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
        }

        @inlinable
        func prefixReceive(_ input: Suffix.Output) -> Subscribers.Demand {
            let live = lock.withLock { () -> Bool in
                guard prefixStatus.subscription != nil else { return false }
                demand -= 1
                return true
            }
            guard live else { return .none }
            let more = downstream.receive(input)
            if more > 0 { lock.withLock { demand += more } }
            return more
        }

        @inlinable
        func prefixReceive(completion: Subscribers.Completion<Suffix.Failure>) {
            let next = lock.withLock { () -> (live: Bool, suffix: Suffix?, dropped: Suffix?) in
                guard prefixStatus.subscription != nil else { return (false, nil, nil) }
                prefixStatus = .terminal
                let suffix = self.suffix.take()
                guard case .finished = completion else {
                    isTerminal = true
                    return (true, nil, suffix)
                }
                return (true, suffix, nil)
            }
            guard next.live else { return }
            if let suffix = next.suffix {
                suffix.receive(subscriber: SuffixSide(inner: self))
            } else {
                withExtendedLifetime(next.dropped) {}
                downstream.receive(completion: completion)
            }
        }

        // MARK: Suffix side

        @inlinable
        func suffixReceive(subscription: any Subscription) {
            let owed = lock.withLock { () -> Subscribers.Demand? in
                guard !isTerminal, case .awaitingSubscription = suffixStatus else { return nil }
                suffixStatus = .subscribed(subscription)
                return demand
            }
            guard let owed else {
                subscription.cancel()
                return
            }
            if owed > 0 { subscription.request(owed) }
        }

        @inlinable
        func suffixReceive(_ input: Suffix.Output) -> Subscribers.Demand {
            let live = lock.withLock { suffixStatus.subscription != nil }
            guard live else { return .none }
            return downstream.receive(input)
        }

        @inlinable
        func suffixReceive(completion: Subscribers.Completion<Suffix.Failure>) {
            let live = lock.withLock { () -> Bool in
                guard suffixStatus.subscription != nil else { return false }
                suffixStatus = .terminal
                isTerminal = true
                return true
            }
            guard live else { return }
            downstream.receive(completion: completion)
        }

        // MARK: Subscription

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
            let subscription = lock.withLock { () -> (any Subscription)? in
                guard !isTerminal else { return nil }
                self.demand += demand
                return prefixStatus.subscription ?? suffixStatus.subscription
            }
            subscription?.request(demand)
        }

        @inlinable
        func cancel() {
            let (subscription, released) = lock.withLock { () -> ((any Subscription)?, Suffix?) in
                let subscription = prefixStatus.subscription ?? suffixStatus.subscription
                prefixStatus = .terminal
                suffixStatus = .terminal
                isTerminal = true
                return (subscription, suffix.take())
            }
            withExtendedLifetime(released) {}
            subscription?.cancel()
        }

        @usableFromInline
        var description: String { "Concatenate" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        @usableFromInline
        var playgroundDescription: Any { description }

        /// The subscriber attached to the prefix publisher.
        @usableFromInline
        struct PrefixSide: Subscriber, CustomStringConvertible, CustomReflectable,
            CustomPlaygroundDisplayConvertible
        {
            @usableFromInline
            typealias Input = Prefix.Output

            @usableFromInline
            typealias Failure = Prefix.Failure

            @usableFromInline
            let inner: Inner

            @inlinable
            init(inner: Inner) {
                self.inner = inner
            }

            @inlinable
            var combineIdentifier: CombineIdentifier { inner.combineIdentifier }

            @inlinable
            func receive(subscription: any Subscription) {
                inner.prefixReceive(subscription: subscription)
            }

            @inlinable
            func receive(_ input: Prefix.Output) -> Subscribers.Demand {
                inner.prefixReceive(input)
            }

            @inlinable
            func receive(completion: Subscribers.Completion<Prefix.Failure>) {
                inner.prefixReceive(completion: completion)
            }

            @usableFromInline
            var description: String { inner.description }

            @usableFromInline
            var customMirror: Mirror { inner.customMirror }

            @usableFromInline
            var playgroundDescription: Any { description }
        }

        /// The subscriber attached to the suffix publisher.
        @usableFromInline
        struct SuffixSide: Subscriber, CustomStringConvertible, CustomReflectable,
            CustomPlaygroundDisplayConvertible
        {
            @usableFromInline
            typealias Input = Suffix.Output

            @usableFromInline
            typealias Failure = Suffix.Failure

            @usableFromInline
            let inner: Inner

            @inlinable
            init(inner: Inner) {
                self.inner = inner
            }

            @inlinable
            var combineIdentifier: CombineIdentifier { inner.combineIdentifier }

            @inlinable
            func receive(subscription: any Subscription) {
                inner.suffixReceive(subscription: subscription)
            }

            @inlinable
            func receive(_ input: Suffix.Output) -> Subscribers.Demand {
                inner.suffixReceive(input)
            }

            @inlinable
            func receive(completion: Subscribers.Completion<Suffix.Failure>) {
                inner.suffixReceive(completion: completion)
            }

            @usableFromInline
            var description: String { inner.description }

            @usableFromInline
            var customMirror: Mirror { inner.customMirror }

            @usableFromInline
            var playgroundDescription: Any { description }
        }
    }
}
