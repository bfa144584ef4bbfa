extension Publisher where Output: Equatable {
    /// Publishes only elements that don't match the previous element.
    ///
    /// Each dropped element is replaced by a request for one more from upstream.
    ///
    /// ```swift
    /// let cancellable = [0, 1, 1, 2, 2, 2, 1].publisher
    ///     .removeDuplicates()
    ///     .sink { print($0, terminator: " ") }
    /// // Prints: 0 1 2 1
    /// ```
    ///
    /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
    @inlinable
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

extension Publisher {
    /// Publishes only elements that don't match the previous element, as evaluated by a provided
    /// closure.
    ///
    /// - Parameter predicate: A closure to evaluate whether two elements are equivalent, for purposes
    ///   of filtering. Return `true` from this closure to indicate that the second element is a
    ///   duplicate of the first.
    /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
    @inlinable
    public func removeDuplicates(
        by predicate: @escaping (Output, Output) -> Bool
    ) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that publishes only elements that don't match the previous element.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure to evaluate whether two elements are equivalent, for purposes of filtering.
        public let predicate: (Output, Output) -> Bool

        /// Creates a publisher that publishes only elements that don't match the previous element, as
        /// evaluated by a provided closure.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: A closure to evaluate whether two elements are equivalent.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a deduplicating subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(FilterProducer(downstream: subscriber, logic: Logic(predicate: predicate)))
        }
    }
}

extension Publishers.RemoveDuplicates {
    /// Lets a value through when it differs from the last one let through.
    @usableFromInline
    struct Logic: FilterLogic {
        @usableFromInline
        let predicate: (Output, Output) -> Bool

        @usableFromInline
        var last: Output?

        @inlinable
        init(predicate: @escaping (Output, Output) -> Bool) {
            self.predicate = predicate
        }

        @inlinable
        mutating func process(_ input: Output) -> FilterStep<Output, Failure> {
            if let last, predicate(last, input) { return .skip }
            last = input
            return .send(input)
        }

        @usableFromInline
        var description: String { "RemoveDuplicates" }

        @inlinable
        static var conduct: FilterConduct { .strict }

        @usableFromInline
        var reflectedState: [Mirror.Child] { [("last", last as Any)] }
    }
}
