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
            let producer = HandoverProducer(downstream: subscriber, logic: Logic(suffix: suffix))
            prefix.subscribe(producer.firstSide)
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

extension Publishers.Concatenate: Sendable where Prefix: Sendable, Suffix: Sendable {}

extension Publishers.Concatenate {
    /// Moves on to the suffix when the prefix finishes.
    @usableFromInline
    struct Logic: HandoverLogic {
        @usableFromInline
        let suffix: Suffix

        @inlinable
        init(suffix: Suffix) {
            self.suffix = suffix
        }

        @inlinable
        func next(after completion: Subscribers.Completion<Prefix.Failure>) -> HandoverStep<Suffix, Failure> {
            switch completion {
            case .finished: .switchTo(suffix)
            case .failure(let error): .complete(.failure(error))
            }
        }

        @usableFromInline
        static var name: String { "Concatenate" }

        @inlinable
        static var followsCatchRules: Bool { false }

        @inlinable
        static func mirrorChildren(downstream: Any, demand: Subscribers.Demand) -> [Mirror.Child] { [] }
    }
}
