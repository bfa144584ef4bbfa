extension Publisher {
    /// Applies a closure to create a subject that delivers elements to subscribers.
    ///
    /// Use a multicast publisher when several subscribers should see the same values while the
    /// upstream does its work once, for example a network request. The returned publisher is a
    /// ``ConnectablePublisher``: nothing is requested from the upstream until you call
    /// ``ConnectablePublisher/connect()``, so every subscriber can attach first.
    ///
    /// The closure runs once, when the first subscriber attaches or at the first connection,
    /// whichever comes first; every subscriber then shares that subject.
    ///
    /// ```swift
    /// let multicast = [1, 2, 3].publisher
    ///     .map { $0 * 10 }
    ///     .multicast { PassthroughSubject<Int, Never>() }
    /// let first = multicast.sink { print("first", $0) }
    /// let second = multicast.sink { print("second", $0) }
    /// let connection = multicast.connect()
    /// // Prints:
    /// // first 10
    /// // second 10
    /// // first 20
    /// // second 20
    /// // first 30
    /// // second 30
    /// ```
    ///
    /// - Parameter createSubject: A closure that creates the subject through which the upstream's
    ///   elements reach the subscribers.
    /// - Returns: A connectable publisher that delivers the upstream's elements through the subject.
    @inlinable
    public func multicast<SubjectType: Subject>(
        _ createSubject: @escaping () -> SubjectType
    ) -> Publishers.Multicast<Self, SubjectType> where Failure == SubjectType.Failure, Output == SubjectType.Output {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Provides a subject to deliver elements to multiple subscribers.
    ///
    /// Like ``multicast(_:)``, with a subject you create yourself, so you can also send to it or
    /// subscribe to it directly. The returned publisher is a ``ConnectablePublisher``: nothing is
    /// requested from the upstream until you call ``ConnectablePublisher/connect()``.
    ///
    /// ```swift
    /// let subject = PassthroughSubject<String, Never>()
    /// let multicast = ["a", "b"].publisher.multicast(subject: subject)
    /// let first = multicast.sink { print("first", $0) }
    /// let second = multicast.sink { print("second", $0) }
    /// let connection = multicast.connect()
    /// // Prints:
    /// // first a
    /// // second a
    /// // first b
    /// // second b
    /// ```
    ///
    /// - Parameter subject: The subject through which the upstream's elements reach the subscribers.
    /// - Returns: A connectable publisher that delivers the upstream's elements through `subject`.
    @inlinable
    public func multicast<SubjectType: Subject>(
        subject: SubjectType
    ) -> Publishers.Multicast<Self, SubjectType> where Failure == SubjectType.Failure, Output == SubjectType.Output {
        Publishers.Multicast(upstream: self) { subject }
    }
}

extension Publishers {
    /// A publisher that uses a subject to deliver elements to multiple subscribers.
    ///
    /// Subscribers attach to the subject; ``connect()`` subscribes the subject to the upstream, which
    /// it asks for an unlimited number of values. Each connection is a new subscription to the
    /// upstream: connecting twice delivers every value twice, and cancelling a connection stops what
    /// it delivers without completing the subscribers, so a later connection reaches them again.
    ///
    /// The subject is created by ``createSubject`` when first needed and kept for the life of this
    /// publisher. A connection holds it weakly: releasing the multicast publisher and the subject
    /// ends the connection.
    ///
    /// ```swift
    /// let upstream = PassthroughSubject<Int, Never>()
    /// let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
    /// let cancellable = multicast.sink { print($0) }
    /// upstream.send(1)                       // Not connected yet: dropped.
    /// let connection = multicast.connect()
    /// upstream.send(2)
    /// connection.cancel()
    /// upstream.send(3)                       // Disconnected: dropped.
    /// // Prints:
    /// // 2
    /// ```
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher
    where Upstream.Failure == SubjectType.Failure, Upstream.Output == SubjectType.Output {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A closure to create the subject, called once, when a subscriber first attaches or the
        /// publisher is first connected.
        public let createSubject: () -> SubjectType

        @usableFromInline
        let lock = Lock()

        /// Created on first use; guarded by `lock`.
        @usableFromInline
        @exclusivity(unchecked)
        var subject: SubjectType?

        /// Creates a multicast publisher that applies a closure to create a subject that delivers
        /// elements to subscribers.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - createSubject: A closure that returns the subject, called once, when first needed.
        @inlinable
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        /// The subject, created on first use. `createSubject` runs under the lock, so it runs once
        /// even when several threads subscribe at the same time.
        @inlinable
        var sharedSubject: SubjectType {
            lock.withLock {
                if let subject { return subject }
                let created = createSubject()
                subject = created
                return created
            }
        }

        /// Attaches the subscriber to the subject; it receives values once the publisher is connected.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            sharedSubject.subscribe(Receiver(downstream: subscriber))
        }

        /// Subscribes the subject to the upstream publisher.
        ///
        /// - Returns: A cancellable that ends this connection; the subscribers are not completed.
        @inlinable
        public func connect() -> any Cancellable {
            upstream.subscribe(sharedSubject)
        }
    }
}

extension Publishers.Multicast {
    /// The downstream's subscription: it carries the downstream's requests and its cancellation to the
    /// subject's subscription, and holds nothing of the downstream, so a subscriber that keeps its
    /// subscription after cancelling or completing is not kept alive by it.
    @usableFromInline
    final class Inner: Subscription, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    {
        @usableFromInline
        let lock = Lock()

        /// The subject's subscription; guarded by `lock`.
        @usableFromInline
        @exclusivity(unchecked)
        var status = SubscriptionStatus.awaitingSubscription

        /// Whether `status` is `.subscribed`, readable on the value path without the lock.
        @usableFromInline
        let isLive = AtomicFlag()

        @inlinable
        init() {}

        /// Takes the subject's subscription; false if it is not wanted (the caller cancels it).
        @inlinable
        func accept(_ subscription: any Subscription) -> Bool {
            lock.withLock { () -> Bool in
                guard status.accept(subscription) else { return false }
                isLive.set(true)
                return true
            }
        }

        /// Records the completion: true if the subscription was live, and lets go of the subject's
        /// subscription.
        @inlinable
        func complete() -> Bool {
            lock.withLock { () -> Bool in
                guard status.complete() else { return false }
                isLive.set(false)
                return true
            }
        }

        @inlinable
        @inline(never)
        func request(_ demand: Subscribers.Demand) {
            lock.withLock { status.subscription }?.request(demand)
        }

        @inlinable
        func cancel() {
            let subscription = lock.withLock { () -> (any Subscription)? in
                guard status.isSubscribed else { return nil }
                isLive.set(false)
                return status.terminate()
            }
            subscription?.cancel()
        }

        @usableFromInline
        var description: String { "Multicast" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }

    /// What the subject delivers to: it holds the downstream and hands it each event, and lives as
    /// long as the subject keeps it (until the subscription is cancelled or completed).
    @usableFromInline
    final class Receiver<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline
        let subscription = Inner()

        @usableFromInline
        let downstream: Downstream

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard self.subscription.accept(subscription) else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self.subscription)
        }

        /// Hands the value on and asks the subject for the downstream's new demand; the subject is
        /// owed nothing in return.
        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard subscription.isLive.value else { return .none }
            let demand = downstream.receive(input)
            if demand > .none { subscription.request(demand) }
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            if subscription.complete() { downstream.receive(completion: completion) }
        }

        @usableFromInline
        var description: String { "Multicast" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}

// The subject is created and read under `lock`, and `createSubject` runs under it once; the
// subscribers' state lives in the subject and in `Inner`, each guarded by its own lock.
extension Publishers.Multicast: @unchecked Sendable where Upstream: Sendable, SubjectType: Sendable {}
