extension Publisher {
    /// Replaces an empty stream with the provided element.
    ///
    /// If the upstream publisher finishes without producing any elements, this publisher emits the
    /// provided element, then finishes normally. If the upstream produces at least one element, or
    /// fails, the stream passes through unchanged.
    ///
    /// Like Combine's, this operator asks the upstream for unlimited values as soon as it subscribes,
    /// and passes downstream's requests on as well; the replacement waits until downstream has asked
    /// for something.
    ///
    /// ```swift
    /// let numbers: [Double] = []
    /// let cancellable = numbers.publisher
    ///     .replaceEmpty(with: Double.nan)
    ///     .sink { print($0) }
    /// // Prints: nan
    /// ```
    ///
    /// - Parameter output: An element to emit when the upstream publisher finishes without emitting
    ///   any elements.
    /// - Returns: A publisher that replaces an empty stream with the provided output element.
    @inlinable
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that replaces an empty stream with a provided element.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The element to deliver when the upstream publisher finishes without delivering any
        /// elements.
        public let output: Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that replaces an empty stream with a provided element.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - output: The element to deliver when the upstream publisher finishes without
        ///     delivering any elements.
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches the subscriber through a subscriber that watches for an empty stream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(ReplacementProducer<S, Logic>(downstream: subscriber, replacement: output))
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publishers.ReplaceEmpty: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}

extension Publishers.ReplaceEmpty {
    /// Replaces a finish that comes before any value; asks the upstream for everything at once.
    @usableFromInline
    enum Logic: ReplacementLogic {
        @usableFromInline
        typealias Output = Upstream.Output

        @inlinable
        static var upstreamDemand: ReplacementUpstreamDemand { .unlimited }

        @inlinable
        static func ending(
            for completion: Subscribers.Completion<Upstream.Failure>, afterValues: Bool
        ) -> ReplacementEnding<Upstream.Failure> {
            guard case .finished = completion, !afterValues else { return .complete(completion) }
            return .replace
        }

        @usableFromInline
        static var name: String { "ReplaceEmpty" }
    }
}
