extension Publisher {
    /// Publishes only elements that don't match the previous element, as evaluated by a provided
    /// error-throwing closure.
    ///
    /// The first element is always published. Each later element is compared with the last one
    /// published; a dropped element is replaced by a request for one more from upstream. When the
    /// closure throws, the publisher cancels upstream and fails with the thrown error.
    ///
    /// ```swift
    /// struct Unordered: Error {}
    ///
    /// let cancellable = [1, 1, 2, 2, 3, 1].publisher
    ///     .tryRemoveDuplicates { previous, current in
    ///         guard current >= previous else { throw Unordered() }
    ///         return previous == current
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("error:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints:
    /// // 1
    /// // 2
    /// // 3
    /// // error: Unordered()
    /// ```
    ///
    /// - Parameter predicate: A closure to evaluate whether two elements are equivalent, for purposes
    ///   of filtering. Return `true` from this closure to indicate that the second element is a
    ///   duplicate of the first. If this closure throws an error, the publisher terminates with the
    ///   thrown error.
    /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that publishes only elements that don't match the previous element, as evaluated
    /// by a provided error-throwing closure.
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's, or what the closure throws.
        public typealias Failure = any Error

        /// An error-throwing closure to evaluate whether two elements are equivalent, for purposes of
        /// filtering.
        public let predicate: (Output, Output) throws -> Bool

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes only elements that don't match the previous element, as
        /// evaluated by a provided error-throwing closure.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: An error-throwing closure to evaluate whether two elements are equivalent.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the subscriber through a deduplicating subscription to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
            upstream.subscribe(FilterProducer(downstream: subscriber, logic: Logic(predicate: predicate)))
        }
    }
}

extension Publishers.TryRemoveDuplicates {
    /// Lets a value through when it differs from the last one let through; a throw ends the stream.
    @usableFromInline
    struct Logic: FilterLogic {
        @usableFromInline
        typealias UpstreamFailure = Upstream.Failure

        @usableFromInline
        let predicate: (Output, Output) throws -> Bool

        @usableFromInline
        var last: Output?

        @inlinable
        init(predicate: @escaping (Output, Output) throws -> Bool) {
            self.predicate = predicate
        }

        @inlinable
        mutating func process(_ input: Output) -> FilterStep<Output, any Error> {
            if let last {
                do {
                    if try predicate(last, input) { return .skip }
                } catch {
                    return .fail(error)
                }
            }
            last = input
            return .send(input)
        }

        @usableFromInline
        var description: String { "TryRemoveDuplicates" }

        @inlinable
        static var conduct: FilterConduct { .strict }

        @usableFromInline
        var reflectedState: [Mirror.Child] { [("last", last as Any)] }
    }
}
