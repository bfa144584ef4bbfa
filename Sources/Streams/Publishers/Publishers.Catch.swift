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
            let handler = self.handler
            let inner = CatchInner<Upstream, NewPublisher, S>(
                downstream: subscriber, name: "Catch", handler: { .success(handler($0)) }, convert: { $0 })
            upstream.receive(subscriber: CatchInner.UpstreamSide(inner: inner))
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
            let handler = self.handler
            let inner = CatchInner<Upstream, NewPublisher, S>(
                downstream: subscriber, name: "TryCatch", handler: { error in Result { try handler(error) } },
                convert: { $0 })
            upstream.receive(subscriber: CatchInner.UpstreamSide(inner: inner))
        }
    }
}

/// The subscription of `catch` and `tryCatch`: it relays the upstream, and on the upstream's failure
/// subscribes to the replacement publisher and relays that instead.
///
/// Downstream's outstanding demand is counted while the upstream is live, so the replacement is asked
/// for exactly the values still owed.
@usableFromInline
final class CatchInner<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Upstream.Output == NewPublisher.Output, Downstream.Input == Upstream.Output {
    /// Where the stream stands.
    @usableFromInline
    enum State {
        /// Waiting for the upstream's subscription.
        case awaitingUpstream
        /// Relaying the upstream.
        case upstream(any Subscription)
        /// The upstream failed; waiting for the replacement's subscription.
        case awaitingReplacement
        /// Relaying the replacement.
        case replacement(any Subscription)
        /// Completed or cancelled.
        case terminal
    }

    @usableFromInline
    let downstream: Downstream

    @usableFromInline
    let name: String

    /// Called once, on the upstream's failure.
    @usableFromInline
    let handler: (Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>

    /// Called once, on the replacement's failure.
    @usableFromInline
    let convert: (NewPublisher.Failure) -> Downstream.Failure

    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`.
    @usableFromInline
    var state = State.awaitingUpstream

    /// Guarded by `lock`: downstream's outstanding demand while the upstream is live.
    @usableFromInline
    var demand = Subscribers.Demand.none

    @inlinable
    init(
        downstream: Downstream, name: String,
        handler: @escaping (Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>,
        convert: @escaping (NewPublisher.Failure) -> Downstream.Failure
    ) {
        self.downstream = downstream
        self.name = name
        self.handler = handler
        self.convert = convert
    }

    // MARK: Upstream side

    @inlinable
    func upstreamReceive(subscription: any Subscription) {
        let accepted = lock.withLock {
            guard case .awaitingUpstream = state else { return false }
            state = .upstream(subscription)
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    @inlinable
    func upstreamReceive(_ input: Upstream.Output) -> Subscribers.Demand {
        let live = lock.withLock { () -> Bool in
            guard case .upstream = state else { return false }
            demand -= 1
            return true
        }
        guard live else { return .none }
        let more = downstream.receive(input)
        if more > 0 { lock.withLock { demand += more } }
        return more
    }

    @inlinable
    func upstreamReceive(completion: Subscribers.Completion<Upstream.Failure>) {
        let live = lock.withLock { () -> Bool in
            guard case .upstream = state else { return false }
            if case .finished = completion {
                state = .terminal
            } else {
                state = .awaitingReplacement
            }
            return true
        }
        guard live else { return }
        switch completion {
        case .finished:
            downstream.receive(completion: .finished)
        case .failure(let error):
            switch handler(error) {
            case .success(let replacement):
                replacement.receive(subscriber: ReplacementSide(inner: self))
            case .failure(let thrown):
                let stillWaiting = lock.withLock { () -> Bool in
                    guard case .awaitingReplacement = state else { return false }
                    state = .terminal
                    return true
                }
                if stillWaiting { downstream.receive(completion: .failure(thrown)) }
            }
        }
    }

    // MARK: Replacement side

    @inlinable
    func replacementReceive(subscription: any Subscription) {
        let owed = lock.withLock { () -> Subscribers.Demand? in
            guard case .awaitingReplacement = state else { return nil }
            state = .replacement(subscription)
            return demand
        }
        guard let owed else {
            subscription.cancel()
            return
        }
        if owed > 0 { subscription.request(owed) }
    }

    @inlinable
    func replacementReceive(_ input: NewPublisher.Output) -> Subscribers.Demand {
        let live = lock.withLock { () -> Bool in
            if case .replacement = state { return true }
            return false
        }
        guard live else { return .none }
        return downstream.receive(input)
    }

    @inlinable
    func replacementReceive(completion: Subscribers.Completion<NewPublisher.Failure>) {
        let live = lock.withLock { () -> Bool in
            guard case .replacement = state else { return false }
            state = .terminal
            return true
        }
        guard live else { return }
        downstream.receive(completion: completion.mapFailure(convert))
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "A subscription's demand must be greater than zero, got \(demand)")
        let subscription = lock.withLock { () -> (any Subscription)? in
            switch state {
            case .upstream(let subscription):
                self.demand += demand
                return subscription
            case .awaitingUpstream, .awaitingReplacement:
                self.demand += demand
                return nil
            case .replacement(let subscription):
                return subscription
            case .terminal:
                return nil
            }
        }
        subscription?.request(demand)
    }

    @inlinable
    func cancel() {
        let subscription = lock.withLock { () -> (any Subscription)? in
            defer { state = .terminal }
            switch state {
            case .upstream(let subscription), .replacement(let subscription):
                return subscription
            case .awaitingUpstream, .awaitingReplacement, .terminal:
                return nil
            }
        }
        subscription?.cancel()
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var customMirror: Mirror {
        let demand = lock.withLock { self.demand }
        return Mirror(self, children: ["downstream": downstream, "demand": demand])
    }

    @usableFromInline
    var playgroundDescription: Any { description }

    /// The subscriber attached to the upstream publisher.
    @usableFromInline
    struct UpstreamSide: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    {
        @usableFromInline
        typealias Input = Upstream.Output

        @usableFromInline
        typealias Failure = Upstream.Failure

        @usableFromInline
        let inner: CatchInner

        @inlinable
        init(inner: CatchInner) {
            self.inner = inner
        }

        @inlinable
        var combineIdentifier: CombineIdentifier { inner.combineIdentifier }

        @inlinable
        func receive(subscription: any Subscription) {
            inner.upstreamReceive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            inner.upstreamReceive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            inner.upstreamReceive(completion: completion)
        }

        @usableFromInline
        var description: String { inner.description }

        @usableFromInline
        var customMirror: Mirror { inner.customMirror }

        @usableFromInline
        var playgroundDescription: Any { description }
    }

    /// The subscriber attached to the replacement publisher.
    @usableFromInline
    struct ReplacementSide: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    {
        @usableFromInline
        typealias Input = NewPublisher.Output

        @usableFromInline
        typealias Failure = NewPublisher.Failure

        @usableFromInline
        let inner: CatchInner

        @inlinable
        init(inner: CatchInner) {
            self.inner = inner
        }

        @inlinable
        var combineIdentifier: CombineIdentifier { inner.combineIdentifier }

        @inlinable
        func receive(subscription: any Subscription) {
            inner.replacementReceive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: NewPublisher.Output) -> Subscribers.Demand {
            inner.replacementReceive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<NewPublisher.Failure>) {
            inner.replacementReceive(completion: completion)
        }

        @usableFromInline
        var description: String { inner.description }

        @usableFromInline
        var customMirror: Mirror { inner.customMirror }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
