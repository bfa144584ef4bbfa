extension Publisher {
    /// Republishes all elements that match a provided error-throwing closure.
    ///
    /// Each element the closure rejects is replaced by a request for one more from upstream, so the
    /// downstream's demand counts only the elements it receives. When the closure throws, the
    /// publisher cancels upstream and fails with the thrown error.
    ///
    /// ```swift
    /// struct ZeroError: Error {}
    ///
    /// let cancellable = [1, 2, 3, 4, 0, 5].publisher
    ///     .tryFilter { value in
    ///         guard value != 0 else { throw ZeroError() }
    ///         return value.isMultiple(of: 2)
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("error:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints:
    /// // 2
    /// // 4
    /// // error: ZeroError()
    /// ```
    ///
    /// - Parameter isIncluded: A closure that takes one element and returns a Boolean value that
    ///   indicates whether to republish the element, or throws to end the stream with an error.
    /// - Returns: A publisher that republishes all elements that satisfy the closure.
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers {
    /// A publisher that republishes all elements that match a provided error-throwing closure.
    public struct TryFilter<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's, or what the closure throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure that indicates whether to republish an element.
        public let isIncluded: (Upstream.Output) throws -> Bool

        /// Creates a publisher that republishes all elements that match a provided error-throwing
        /// closure.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - isIncluded: An error-throwing closure that indicates whether to republish an element.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Attaches the subscriber through a filtering subscription to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
            upstream.subscribe(FilterProducer(downstream: subscriber, logic: Logic(isIncluded: isIncluded)))
        }
    }
}

extension Publishers.TryFilter {
    /// Returns a single publisher that keeps the elements that both this publisher's test and
    /// `isIncluded` accept.
    ///
    /// - Parameter isIncluded: A closure that takes one element and returns a Boolean value indicating
    ///   whether to republish the element.
    /// - Returns: A publisher that applies this publisher's test, then `isIncluded`.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }

    /// Returns a single publisher that keeps the elements that both this publisher's test and the
    /// error-throwing `isIncluded` accept.
    ///
    /// - Parameter isIncluded: An error-throwing closure that takes one element and returns a Boolean
    ///   value indicating whether to republish the element.
    /// - Returns: A publisher that applies this publisher's test, then `isIncluded`.
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }

    /// Lets a value through when the closure accepts it; a throw ends the stream.
    @usableFromInline
    struct Logic: FilterLogic {
        @usableFromInline
        typealias UpstreamFailure = Upstream.Failure

        @usableFromInline
        let isIncluded: (Upstream.Output) throws -> Bool

        @inlinable
        init(isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.isIncluded = isIncluded
        }

        @inlinable
        func process(_ input: Upstream.Output) -> FilterStep<Upstream.Output, any Error> {
            do {
                return try isIncluded(input) ? .send(input) : .skip
            } catch {
                return .fail(error)
            }
        }

        @usableFromInline
        var description: String { "TryFilter" }

        @inlinable
        static var conduct: FilterConduct { .strict }
    }
}
