extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    ///
    /// A sink calls ``receiveValue`` for each value and ``receiveCompletion`` once at the end. When it
    /// completes or is cancelled it lets go of both closures and of its subscription, which breaks the
    /// reference cycles that closures capturing their owner would otherwise form.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher.sink(
    ///     receiveCompletion: { print("completion: \($0)") },
    ///     receiveValue: { print("value: \($0)") })
    /// // Prints:
    /// // value: 1
    /// // value: 2
    /// // completion: finished
    /// ```
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    {
        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        @exclusivity(unchecked)
        var status = SubscriptionStatus.awaitingSubscription

        /// Whether `handlers` is set (changed with it, under `lock`), readable without the lock: a
        /// publisher that holds a copy of the value closure calls it while the sink still has its
        /// closures, without taking the lock. Declared after `status`, so that it takes the padding
        /// before `handlers` and the sink stays the size it was.
        @usableFromInline
        let hasHandlers = AtomicFlag(true)

        /// The two closures, kept together so that reading them out of the lock copies them as they
        /// are stored, without wrapping them for the caller's types.
        @usableFromInline
        struct Handlers {
            @usableFromInline
            let receiveValue: (Input) -> Void
            @usableFromInline
            let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

            @inlinable
            init(
                receiveValue: @escaping (Input) -> Void,
                receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
            ) {
                self.receiveValue = receiveValue
                self.receiveCompletion = receiveCompletion
            }
        }

        /// Guarded by `lock`; `nil` once completed or cancelled.
        @usableFromInline
        @exclusivity(unchecked)
        var handlers: Handlers?

        /// The value closure, for a publisher that delivers to the sink without the lock: it keeps the
        /// copy for as long as it may call it, and calls it only while ``hasHandlers`` is set, which is
        /// what ``receive(_:)`` does (see `deliverDirectly(_:through:)`).
        @inlinable
        var valueHandlerForDelivery: ValueHandler? {
            lock.withLock { handlers.map { ValueHandler($0.receiveValue) } }
        }

        /// The closure to execute on receipt of a value; a no-op once the sink has completed or been
        /// cancelled.
        public var receiveValue: (Input) -> Void {
            lock.withLock { handlers?.receiveValue } ?? { _ in }
        }

        /// The closure to execute on completion; a no-op once the sink has completed or been cancelled.
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            lock.withLock { handlers?.receiveCompletion } ?? { _ in }
        }

        /// Initializes a sink with the provided closures.
        ///
        /// - Parameters:
        ///   - receiveCompletion: The closure to execute on completion.
        ///   - receiveValue: The closure to execute on receipt of a value.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            handlers = Handlers(receiveValue: receiveValue, receiveCompletion: receiveCompletion)
        }

        /// Stores the subscription and requests an unlimited number of values; a second subscription is
        /// cancelled.
        @inlinable
        public func receive(subscription: any Subscription) {
            let accepted = lock.withLock {
                guard status.isAwaitingSubscription else { return false }
                status = .subscribed(subscription)
                return true
            }
            if accepted {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        /// The value closure alone, wrapped so that reading it out of the lock copies it as it is
        /// stored.
        @usableFromInline
        struct ValueHandler {
            @usableFromInline
            let call: (Input) -> Void

            @inlinable
            init(_ call: @escaping (Input) -> Void) {
                self.call = call
            }
        }

        /// Ends the sink if it is subscribed: returns its closures and its subscription, moved out
        /// rather than copied; otherwise takes nothing. Call with `lock` held.
        @inlinable
        func takeEverythingIfSubscribedLocked() -> (Handlers?, SubscriptionStatus) {
            // The status is moved out and consumed by the switch: testing the stored property, or a
            // copy of it, would retain and release the subscription on every cancel.
            var status = SubscriptionStatus.terminal
            swap(&status, &self.status)
            switch consume status {
            case .subscribed(let subscription):
                var handlers: Handlers? = nil
                swap(&handlers, &self.handlers)
                hasHandlers.set(false)
                return (handlers, .subscribed(subscription))
            case let other:
                self.status = other
                return (nil, .terminal)
            }
        }

        /// Ends the sink: returns its closures and its former status, moved out rather than copied.
        /// Call with `lock` held.
        @inlinable
        func takeEverythingLocked() -> (Handlers?, SubscriptionStatus) {
            var handlers: Handlers? = nil
            swap(&handlers, &self.handlers)
            hasHandlers.set(false)
            var status = SubscriptionStatus.terminal
            swap(&status, &self.status)
            return (handlers, status)
        }

        /// Calls ``receiveValue`` with the value.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            let handler = lock.withLock { handlers.map { ValueHandler($0.receiveValue) } }
            handler?.call(value)
            return .none
        }

        /// Calls ``receiveCompletion`` and releases the closures and the subscription.
        @inlinable
        public func receive(completion: Subscribers.Completion<Failure>) {
            let (handlers, status) = lock.withLock { takeEverythingLocked() }
            withExtendedLifetime(status) {
                handlers?.receiveCompletion(completion)
            }
        }

        /// Cancels the subscription and releases the closures.
        ///
        /// Before the sink has received a subscription, and after it has ended, this does nothing: the
        /// sink keeps its closures and still accepts a subscription that arrives later.
        @inlinable
        public func cancel() {
            let (handlers, status) = lock.withLock { takeEverythingIfSubscribedLocked() }
            // The status is consumed, so the subscription is moved out of it rather than copied. The
            // closures are released only after the cancellation.
            if case .subscribed(let subscription) = consume status { subscription.cancel() }
            withExtendedLifetime(handlers) {}
        }

        /// `Sink`, as Combine names it.
        public var description: String { "Sink" }

        /// A mirror with no children.
        public var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        /// The same as ``description``.
        public var playgroundDescription: Any { description }
    }
}

extension Publisher {
    /// Attaches a subscriber with closure-based behaviour.
    ///
    /// The subscriber requests an unlimited number of values. Keep the returned ``AnyCancellable`` for
    /// as long as you want the values; releasing it cancels the subscription.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher
    ///     .sink(receiveCompletion: { print("completion: \($0)") },
    ///           receiveValue: { print("value: \($0)") })
    /// // Prints:
    /// // value: 1
    /// // value: 2
    /// // value: 3
    /// // completion: finished
    /// ```
    ///
    /// - Parameters:
    ///   - receiveCompletion: The closure to execute on completion.
    ///   - receiveValue: The closure to execute on receipt of a value.
    /// - Returns: A cancellable instance, which you use when you end assignment of the received value.
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        // A closure formed here runs the sink's cancellation as code specialized for its types.
        return AnyCancellable { sink.cancel() }
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber with closure-based behaviour to a publisher that never fails.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher.sink { print($0) }
    /// // Prints:
    /// // 1
    /// // 2
    /// ```
    ///
    /// - Parameter receiveValue: The closure to execute on receipt of a value.
    /// - Returns: A cancellable instance, which you use when you end assignment of the received value.
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
