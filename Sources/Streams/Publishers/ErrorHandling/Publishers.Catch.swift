extension Publisher {
    /// Handles errors from an upstream publisher by replacing it with another publisher.
    ///
    /// When the upstream fails, this publisher calls `handler` with the error and continues with the
    /// publisher it returns: values already requested by downstream and not yet delivered are asked
    /// of the new publisher, and its completion ends the stream.
    ///
    /// ```swift
    /// struct SimpleError: Error {}
    /// let subject = PassthroughSubject<Int, SimpleError>()
    /// let cancellable = subject
    ///     .catch { _ in Just(-1) }
    ///     .sink { print($0) }
    /// subject.send(1)
    /// subject.send(completion: .failure(SimpleError()))
    /// // Prints:
    /// // 1
    /// // -1
    /// ```
    ///
    /// - Parameter handler: A closure that accepts the upstream failure as input and returns a
    ///   publisher to replace the upstream publisher.
    /// - Returns: A publisher that handles errors from an upstream publisher by replacing the failed
    ///   publisher with another publisher.
    @inlinable
    public func `catch`<P: Publisher>(
        _ handler: @escaping (Failure) -> P
    ) -> Publishers.Catch<Self, P> where Output == P.Output {
        Publishers.Catch(upstream: self, handler: handler)
    }

    /// Handles errors from an upstream publisher by either replacing it with another publisher or
    /// throwing a new error.
    ///
    /// If `handler` throws, the stream fails with the thrown error; the new publisher's failure is
    /// also passed on as `any Error`.
    ///
    /// ```swift
    /// struct Retryable: Error {}
    /// struct Fatal: Error {}
    /// let cancellable = Fail<Int, any Error>(error: Retryable())
    ///     .tryCatch { error -> Just<Int> in
    ///         guard error is Retryable else { throw Fatal() }
    ///         return Just(0)
    ///     }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints:
    /// // 0
    /// // finished
    /// ```
    ///
    /// - Parameter handler: A throwing closure that accepts the upstream failure as input. It can
    ///   throw a new error or return a publisher to replace the upstream publisher.
    /// - Returns: A publisher that handles errors from an upstream publisher by replacing the failed
    ///   publisher with another publisher, or producing a new error.
    @inlinable
    public func tryCatch<P: Publisher>(
        _ handler: @escaping (Failure) throws -> P
    ) -> Publishers.TryCatch<Self, P> where Output == P.Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}

extension Publishers {
    /// A publisher that handles errors from an upstream publisher by replacing the failed publisher
    /// with another publisher.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the replacement publisher's.
        public typealias Failure = NewPublisher.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A closure that accepts the upstream failure as input and returns a publisher to replace
        /// the upstream publisher.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Creates a publisher that handles errors from an upstream publisher by replacing the failed
        /// publisher with another publisher.
        ///
        /// - Parameters:
        ///   - upstream: The publisher that this publisher receives elements from.
        ///   - handler: A closure that accepts the upstream failure as input and returns a publisher
        ///     to replace the upstream publisher.
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches the subscriber to the upstream publisher, ready to switch to a replacement.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let producer = HandoverProducer(downstream: subscriber, logic: Logic(handler: handler))
            upstream.subscribe(producer.firstSide)
        }
    }

    /// A publisher that handles errors from an upstream publisher by replacing the failed publisher
    /// with another publisher or producing a new error.
    ///
    /// Because this publisher's handler can throw an error, its ``Failure`` type is `any Error`.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: what the handler throws, or the
        /// replacement publisher's failure.
        public typealias Failure = any Error

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A throwing closure that accepts the upstream failure as input and returns a publisher to
        /// replace the upstream publisher.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Creates a publisher that handles errors from an upstream publisher by replacing the failed
        /// publisher with another publisher or producing a new error.
        ///
        /// - Parameters:
        ///   - upstream: The publisher that this publisher receives elements from.
        ///   - handler: A throwing closure that accepts the upstream failure as input and returns a
        ///     publisher to replace the upstream publisher.
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches the subscriber to the upstream publisher, ready to switch to a replacement.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            let producer = HandoverProducer(downstream: subscriber, logic: Logic(handler: handler))
            upstream.subscribe(producer.firstSide)
        }
    }
}

extension Publishers.Catch {
    /// Switches to the handler's publisher when the upstream fails.
    @usableFromInline
    struct Logic: HandoverLogic {
        @usableFromInline
        let handler: (Upstream.Failure) -> NewPublisher

        @inlinable
        init(handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.handler = handler
        }

        @inlinable
        func next(after completion: Subscribers.Completion<Upstream.Failure>) -> HandoverStep<NewPublisher, Failure> {
            switch completion {
            case .finished: .complete(.finished)
            case .failure(let error): .switchTo(handler(error))
            }
        }

        @usableFromInline
        static var name: String { "Catch" }

        @inlinable
        static var followsCatchRules: Bool { true }

        @inlinable
        static func mirrorChildren(downstream: Any, demand: Subscribers.Demand) -> [Mirror.Child] {
            [("downstream", downstream), ("demand", demand)]
        }
    }
}

extension Publishers.TryCatch {
    /// Switches to the handler's publisher when the upstream fails, or fails with what the handler
    /// throws.
    @usableFromInline
    struct Logic: HandoverLogic {
        @usableFromInline
        let handler: (Upstream.Failure) throws -> NewPublisher

        @inlinable
        init(handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.handler = handler
        }

        @inlinable
        func next(after completion: Subscribers.Completion<Upstream.Failure>) -> HandoverStep<NewPublisher, Failure> {
            guard case .failure(let error) = completion else { return .complete(.finished) }
            do {
                return .switchTo(try handler(error))
            } catch {
                return .complete(.failure(error))
            }
        }

        @usableFromInline
        static var name: String { "TryCatch" }

        @inlinable
        static var followsCatchRules: Bool { true }

        @inlinable
        static func mirrorChildren(downstream: Any, demand: Subscribers.Demand) -> [Mirror.Child] {
            [("downstream", downstream), ("demand", demand)]
        }
    }
}
