extension Publisher where Output: Encodable {
    /// Encodes the output from upstream using a specified encoder.
    ///
    /// Use `encode(encoder:)` with a `JSONEncoder` (or a `PropertyListEncoder` for property lists)
    /// to turn `Encodable` values into data. If encoding an element fails, the publisher cancels
    /// upstream and fails with the encoder's error.
    ///
    /// ```swift
    /// struct Book: Encodable { let title: String }
    /// let cancellable = Just(Book(title: "Dune"))
    ///     .encode(encoder: JSONEncoder())
    ///     .sink(
    ///         receiveCompletion: { print($0) },
    ///         receiveValue: { print(String(decoding: $0, as: UTF8.self)) })
    /// // Prints:
    /// // {"title":"Dune"}
    /// // finished
    /// ```
    ///
    /// - Parameter encoder: An encoder that implements the ``TopLevelEncoder`` protocol.
    /// - Returns: A publisher that encodes received elements using a specified encoder, and
    ///   publishes the resulting data.
    @inlinable
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}

extension Publishers {
    /// A publisher that encodes the elements of its upstream with a ``TopLevelEncoder``.
    ///
    /// It fails with the encoder's error, after cancelling upstream, as soon as an element fails to
    /// encode; an upstream failure is passed on as `any Error`.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher
    where Upstream.Output: Encodable {
        /// The kind of values published by this publisher: what the encoder produces.
        public typealias Output = Coder.Output

        /// The kind of errors this publisher might publish: the upstream's or the encoder's.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The encoder that turns each element into an `Output`.
        @usableFromInline
        let encoder: Coder

        /// Creates a publisher that encodes elements received from an upstream publisher, using a
        /// given encoder.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - encoder: The encoder that encodes each element.
        @inlinable
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        /// Attaches the subscriber through an encoding subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(FilterProducer(downstream: subscriber, logic: Logic(encoder: encoder)))
        }
    }
}

extension Publishers.Encode {
    /// Encodes each value, or fails with the encoder's error.
    @usableFromInline
    struct Logic: FilterLogic {
        @usableFromInline
        let encoder: Coder

        @inlinable
        init(encoder: Coder) {
            self.encoder = encoder
        }

        @inlinable
        func process(_ input: Upstream.Output) -> FilterStep<Coder.Output, any Error> {
            do {
                return .send(try encoder.encode(input))
            } catch {
                return .fail(error)
            }
        }

        @inlinable
        func convert(_ failure: Upstream.Failure) -> any Error { failure }

        @usableFromInline
        var description: String { "Encode" }
    }
}
