extension Publisher {
    /// Replaces any errors in the stream with the provided element.
    ///
    /// If the upstream publisher fails, this publisher emits the provided element, then finishes
    /// normally. If downstream has no outstanding demand when the failure arrives, the element waits
    /// until downstream asks for it. Values and a normal completion pass through unchanged.
    ///
    /// ```swift
    /// struct MyError: Error {}
    /// let fail = Fail<String, MyError>(error: MyError())
    /// let cancellable = fail
    ///     .replaceError(with: "(replacement element)")
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints:
    /// // (replacement element)
    /// // finished
    /// ```
    ///
    /// - Parameter output: An element to emit when the upstream publisher fails.
    /// - Returns: A publisher that replaces an error from the upstream publisher with the provided
    ///   output element.
    @inlinable
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that replaces any errors in the stream with a provided element.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: it cannot fail.
        public typealias Failure = Never

        /// The element with which to replace errors from the upstream publisher.
        public let output: Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that replaces any errors in the stream with a provided element.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - output: The element with which to replace errors from the upstream publisher.
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches the subscriber through a subscriber that turns a failure into the replacement.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == Never {
            upstream.subscribe(ReplacementProducer<S, Logic>(downstream: subscriber, replacement: output))
        }
    }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publishers.ReplaceError: Sendable where Upstream: Sendable, Upstream.Output: Sendable {}

extension Publishers.ReplaceError {
    /// Replaces a failure; a finish passes through.
    @usableFromInline
    enum Logic: ReplacementLogic {
        @usableFromInline
        typealias Output = Upstream.Output

        @inlinable
        static var upstreamDemand: ReplacementUpstreamDemand { .downstreams }

        @inlinable
        static func ending(
            for completion: Subscribers.Completion<Upstream.Failure>, afterValues _: Bool
        ) -> ReplacementEnding<Never> {
            switch completion {
            case .finished: .complete(.finished)
            case .failure: .replace
            }
        }

        @usableFromInline
        static var name: String { "ReplaceError" }
    }
}
