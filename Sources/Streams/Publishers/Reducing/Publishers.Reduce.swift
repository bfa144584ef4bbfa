extension Publisher {
    /// Applies a closure that collects each element of a stream and publishes a final result upon
    /// completion.
    ///
    /// ```swift
    /// let cancellable = (0...10).publisher
    ///     .reduce(0, { $0 + $1 })
    ///     .sink { print($0) }
    /// // Prints: 55
    /// ```
    ///
    /// - Parameters:
    ///   - initialResult: The value that the closure receives the first time it's called.
    ///   - nextPartialResult: A closure that produces a new value by taking the previously-accumulated
    ///     value and the next element it receives from the upstream publisher.
    /// - Returns: A publisher that applies the closure to all received elements and produces an
    ///   accumulated value when the upstream publisher finishes. If the upstream fails, the publisher
    ///   fails with the same error and publishes no value.
    @inlinable
    public func reduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Reduce<Self, T> {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Applies an error-throwing closure that collects each element of a stream and publishes a final
    /// result upon completion.
    ///
    /// If the closure throws, the publisher cancels upstream and fails with the thrown error.
    ///
    /// - Parameters:
    ///   - initialResult: The value that the closure receives the first time it's called.
    ///   - nextPartialResult: An error-throwing closure that takes the previously-accumulated value
    ///     and the next element from the upstream publisher to produce a new value.
    /// - Returns: A publisher that applies the closure to all received elements and produces an
    ///   accumulated value when the upstream publisher finishes.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that applies a closure to all received elements and produces an accumulated value
    /// when the upstream publisher finishes.
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The initial value provided on the first invocation of the closure.
        public let initial: Output

        /// A closure that takes the previously-accumulated value and the next element from the
        /// upstream publisher to produce a new value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that applies a closure to all received elements and produces an
        /// accumulated value when the upstream publisher finishes.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - initial: The initial value provided on the first invocation of the closure.
        ///   - nextPartialResult: A closure that produces the next accumulated value.
        @inlinable
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches the subscriber through a reducing subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let logic = ReduceOperatorLogic<Upstream.Output, Upstream.Failure, Output, Failure>(
                initial: initial, name: "Reduce"
            ) { [nextPartialResult] partial, next in .success(nextPartialResult(partial, next)) }
            upstream.subscribe(ReduceProducer(downstream: subscriber, logic: logic))
        }
    }

    /// A publisher that applies an error-throwing closure to all received elements and produces an
    /// accumulated value when the upstream publisher finishes.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's, or what the closure throws.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The initial value provided on the first invocation of the closure.
        public let initial: Output

        /// An error-throwing closure that takes the previously-accumulated value and the next element
        /// from the upstream to produce a new value.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that applies an error-throwing closure to all received elements and
        /// produces an accumulated value when the upstream publisher finishes.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - initial: The initial value provided on the first invocation of the closure.
        ///   - nextPartialResult: An error-throwing closure that produces the next accumulated value.
        @inlinable
        public init(
            upstream: Upstream, initial: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches the subscriber through a reducing subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let logic = ReduceOperatorLogic<Upstream.Output, Upstream.Failure, Output, any Error>(
                initial: initial, name: "TryReduce"
            ) { [nextPartialResult] partial, next in Result { try nextPartialResult(partial, next) } }
            upstream.subscribe(ReduceProducer(downstream: subscriber, logic: logic))
        }
    }
}

/// The logic of `reduce` and `tryReduce`: fold with a closure that returns the next partial result or
/// an error.
@usableFromInline
struct ReduceOperatorLogic<Input, UpstreamFailure: Error, Output, Failure: Error>: ReduceLogic {
    @usableFromInline
    var partial: Output

    @usableFromInline
    let next: (Output, Input) -> Result<Output, Failure>

    @usableFromInline
    let description: String

    @inlinable
    init(initial: Output, name: String, next: @escaping (Output, Input) -> Result<Output, Failure>) {
        partial = initial
        description = name
        self.next = next
    }

    @inlinable
    mutating func accumulate(_ input: Input) -> ReduceStep<Failure> {
        switch next(partial, input) {
        case .success(let value):
            partial = value
            return .continue
        case .failure(let error):
            return .fail(error)
        }
    }

    @inlinable
    var result: Output? { partial }

    @inlinable
    func convert(_ failure: UpstreamFailure) -> Failure {
        if let same = failure as? Failure { return same }
        preconditionFailure("A reduce whose failure differs from its upstream's must fail with any Error")
    }
}
