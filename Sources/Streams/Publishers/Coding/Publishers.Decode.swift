extension Publisher {
    /// Decodes the output from the upstream using a specified decoder.
    ///
    /// Use `decode(type:decoder:)` with a `JSONDecoder` (or a `PropertyListDecoder` for property
    /// lists) to turn data from upstream into values of a `Decodable` type. If decoding an element
    /// fails, the publisher cancels upstream and fails with the decoder's error.
    ///
    /// ```swift
    /// struct Book: Decodable, Equatable { let title: String }
    /// let data = Data(#"[{"title": "Dune"}, {"title": "Emma"}]"#.utf8)
    /// let cancellable = Just(data)
    ///     .decode(type: [Book].self, decoder: JSONDecoder())
    ///     .sink(
    ///         receiveCompletion: { print($0) },
    ///         receiveValue: { print($0.map(\.title)) })
    /// // Prints:
    /// // ["Dune", "Emma"]
    /// // finished
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to decode each element into; it conforms to `Decodable`.
    ///   - decoder: A decoder that implements the ``TopLevelDecoder`` protocol.
    /// - Returns: A publisher that decodes a given type using a specified decoder and publishes the
    ///   result.
    @inlinable
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type, decoder: Coder
    ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}

extension Publishers {
    /// A publisher that decodes the elements of its upstream with a ``TopLevelDecoder``.
    ///
    /// It fails with the decoder's error, after cancelling upstream, as soon as an element fails to
    /// decode; an upstream failure is passed on as `any Error`.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        /// The kind of errors this publisher might publish: the upstream's or the decoder's.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The decoder that turns each element into an `Output`.
        @usableFromInline
        let decoder: Coder

        /// Creates a publisher that decodes elements received from an upstream publisher, using a
        /// given decoder.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - decoder: The decoder that decodes each element.
        @inlinable
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        /// Attaches the subscriber through a decoding subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(FilterProducer(downstream: subscriber, logic: Logic(decoder: decoder)))
        }
    }
}

extension Publishers.Decode {
    /// Decodes each value, or fails with the decoder's error.
    @usableFromInline
    struct Logic: FilterLogic {
        @usableFromInline
        let decoder: Coder

        @inlinable
        init(decoder: Coder) {
            self.decoder = decoder
        }

        @inlinable
        func process(_ input: Upstream.Output) -> FilterStep<Output, any Error> {
            do {
                return .send(try decoder.decode(Output.self, from: input))
            } catch {
                return .fail(error)
            }
        }

        @inlinable
        func convert(_ failure: Upstream.Failure) -> any Error { failure }

        @usableFromInline
        var description: String { "Decode" }
    }
}
