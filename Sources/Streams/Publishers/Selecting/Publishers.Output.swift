extension Publisher {
    /// Publishes a specific element, indicated by its index in the sequence of published elements.
    ///
    /// If the publisher completes normally or with an error before publishing the specified element,
    /// then the publisher doesn't produce any elements. A negative index is a programmer error.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].publisher
    ///     .output(at: 5)
    ///     .sink { print($0) }
    /// // Prints: 6
    /// ```
    ///
    /// - Parameter index: The index that indicates the element to publish.
    /// - Returns: A publisher that publishes a specific indexed element.
    @inlinable
    public func output(at index: Int) -> Publishers.Output<Self> {
        output(in: index...index)
    }

    /// Publishes elements specified by their range in the sequence of published elements.
    ///
    /// Elements before the range are consumed, each replaced by a request for one more from upstream;
    /// elements in the range are republished, consuming the downstream's demand. The publisher
    /// finishes, cancelling upstream, right after the last element of the range, or when upstream
    /// completes. A range with a negative bound is a programmer error.
    ///
    /// ```swift
    /// let cancellable = [1, 1, 2, 2, 2, 3, 4, 5, 6].publisher
    ///     .output(in: 3...5)
    ///     .sink { print($0, terminator: " ") }
    /// // Prints: 2 2 3
    /// ```
    ///
    /// - Parameter range: A range that indicates which elements to publish.
    /// - Returns: A publisher that publishes elements specified by a range.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
    }

    /// Republishes elements up to the specified maximum count.
    ///
    /// This is `output(in: 0..<maxLength)`: the publisher finishes, cancelling upstream, right after the
    /// `maxLength`th element, or when upstream completes. A negative count is a programmer error.
    ///
    /// ```swift
    /// let cancellable = (0...10).publisher
    ///     .prefix(2)
    ///     .sink { print($0, terminator: " ") }
    /// // Prints: 0 1
    /// ```
    ///
    /// - Parameter maxLength: The maximum number of elements to republish.
    /// - Returns: A publisher that publishes up to the specified number of elements before completing.
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        output(in: ..<maxLength)
    }
}

extension Publishers {
    /// A publisher that publishes elements specified by a range in the sequence of published elements.
    public struct Output<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// The range of elements to publish.
        public let range: CountableRange<Int>

        /// Creates a publisher that publishes elements specified by a range.
        ///
        /// Both bounds of `range` must be non-negative.
        ///
        /// - Parameters:
        ///   - upstream: The publisher that this publisher receives elements from.
        ///   - range: The range of elements to publish.
        @inlinable
        public init(upstream: Upstream, range: CountableRange<Int>) {
            precondition(range.lowerBound >= 0, "Publishers.Output needs a non-negative lower bound, got \(range)")
            precondition(range.upperBound >= 0, "Publishers.Output needs a non-negative upper bound, got \(range)")
            self.upstream = upstream
            self.range = range
        }

        /// Attaches the subscriber through a range-selecting subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(FilterProducer(downstream: subscriber, logic: Logic(range: range)))
        }
    }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}

extension Publishers.Output {
    /// Skips up to the range, lets the range through, and finishes right after its last element (or,
    /// for an empty range, at the first element).
    @usableFromInline
    struct Logic: FilterLogic {
        @usableFromInline
        typealias UpstreamFailure = Upstream.Failure

        /// How many elements are still to skip before the range.
        @usableFromInline
        var remainingUntilStart: Int

        /// How many elements of the range are still to republish.
        @usableFromInline
        var remainingCount: Int

        @inlinable
        init(range: CountableRange<Int>) {
            remainingUntilStart = range.lowerBound
            remainingCount = range.count
        }

        @inlinable
        mutating func process(_ input: Upstream.Output) -> FilterStep<Upstream.Output, Upstream.Failure> {
            if remainingUntilStart > 0 {
                remainingUntilStart -= 1
                return .skip
            }
            guard remainingCount > 0 else { return .finish }
            remainingCount -= 1
            return remainingCount == 0 ? .sendAndFinish(input) : .send(input)
        }

        @usableFromInline
        var description: String { "Output" }

        @inlinable
        static var conduct: FilterConduct { .output }
    }
}
