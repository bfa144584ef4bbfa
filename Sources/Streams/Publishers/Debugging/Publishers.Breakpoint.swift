#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension Publisher {
    /// Raises a debugger signal when a provided closure needs to stop the process in the debugger.
    ///
    /// Each closure is consulted for its event; when it returns `true`, the publisher raises `SIGTRAP`
    /// so that an attached debugger stops there (without a debugger the signal ends the process).
    /// Every event is then passed on unchanged.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3, 4].publisher
    ///     .breakpoint(receiveOutput: { $0 > 3 })
    ///     .sink { print($0) }
    /// // Prints 1, 2 and 3, then stops in the debugger before 4.
    /// ```
    ///
    /// - Parameters:
    ///   - receiveSubscription: A closure that executes when the publisher receives a subscription.
    ///     Return `true` from this closure to raise `SIGTRAP`, or `false` to continue.
    ///   - receiveOutput: A closure that executes when the publisher receives a value. Return `true`
    ///     from this closure to raise `SIGTRAP`, or `false` to continue.
    ///   - receiveCompletion: A closure that executes when the publisher receives a completion.
    ///     Return `true` from this closure to raise `SIGTRAP`, or `false` to continue.
    /// - Returns: A publisher that raises a debugger signal when one of the provided closures returns
    ///   `true`.
    @inlinable
    public func breakpoint(
        receiveSubscription: ((any Subscription) -> Bool)? = nil,
        receiveOutput: ((Output) -> Bool)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion)
    }

    /// Raises a debugger signal upon receiving a failure.
    ///
    /// When the upstream publisher fails with an error, this publisher raises the `SIGTRAP` signal,
    /// which stops the process in the debugger. Values and a normal completion pass through.
    ///
    /// ```swift
    /// struct CustomError: Error {}
    /// let subject = PassthroughSubject<String, CustomError>()
    /// let cancellable = subject
    ///     .breakpointOnError()
    ///     .sink(receiveCompletion: { print("\($0)") }, receiveValue: { print($0) })
    /// subject.send("hello")
    /// subject.send(completion: .failure(CustomError()))
    /// // Prints: hello
    /// // Then stops in the debugger before the failure is delivered.
    /// ```
    ///
    /// - Returns: A publisher that raises a debugger signal upon receiving a failure.
    @inlinable
    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { completion in
            if case .failure = completion { return true }
            return false
        })
    }
}

extension Publishers {
    /// A publisher that raises a debugger signal when a provided closure needs to stop the process
    /// in the debugger.
    ///
    /// When any of the provided closures returns `true`, this publisher raises the `SIGTRAP` signal
    /// to stop the process in the debugger. Otherwise, this publisher passes through values and
    /// completions as-is.
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that executes when the publisher receives a subscription, and can raise a
        /// debugger signal by returning `true`.
        public let receiveSubscription: ((any Subscription) -> Bool)?

        /// A closure that executes when the publisher receives output from the upstream publisher,
        /// and can raise a debugger signal by returning `true`.
        public let receiveOutput: ((Upstream.Output) -> Bool)?

        /// A closure that executes when the publisher receives completion, and can raise a debugger
        /// signal by returning `true`.
        public let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?

        /// Creates a breakpoint publisher with the provided upstream publisher and breakpoint-raising
        /// closures.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - receiveSubscription: A closure that executes when the publisher receives a
        ///     subscription. Return `true` to raise `SIGTRAP`, or `false` to continue.
        ///   - receiveOutput: A closure that executes when the publisher receives a value. Return
        ///     `true` to raise `SIGTRAP`, or `false` to continue.
        ///   - receiveCompletion: A closure that executes when the publisher receives a completion.
        ///     Return `true` to raise `SIGTRAP`, or `false` to continue.
        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Bool)? = nil,
            receiveOutput: ((Upstream.Output) -> Bool)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        /// Attaches the subscriber through a subscriber that consults the closures on each event.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(
                Inner(
                    downstream: subscriber, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
                    receiveCompletion: receiveCompletion))
        }
    }
}

extension Publishers.Breakpoint {
    /// The subscriber that consults the closures and passes every event through.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let receiveSubscription: ((any Subscription) -> Bool)?

        @usableFromInline
        let receiveOutput: ((Upstream.Output) -> Bool)?

        @usableFromInline
        let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?

        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(
            downstream: Downstream,
            receiveSubscription: ((any Subscription) -> Bool)?,
            receiveOutput: ((Upstream.Output) -> Bool)?,
            receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?
        ) {
            self.downstream = downstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        @inlinable
        func receive(subscription: any Subscription) {
            if receiveSubscription?(subscription) == true { stopInDebugger() }
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if receiveOutput?(input) == true { stopInDebugger() }
            return downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            if receiveCompletion?(completion) == true { stopInDebugger() }
            downstream.receive(completion: completion)
        }

        @usableFromInline
        var description: String { "Breakpoint" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}

/// Raises `SIGTRAP`, which stops an attached debugger at this point.
@usableFromInline
func stopInDebugger() {
    raise(SIGTRAP)
}
