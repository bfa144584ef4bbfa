/// The subscriber behind ``AsyncPublisher`` and ``AsyncThrowingPublisher``: it turns the pull of an
/// async iterator into demand, one value per call to `next`.
///
/// Each call to ``next(isolation:)`` registers a ``Waiter`` and requests `.max(1)`; the value that
/// answers the request is put in the first waiter's `outcome`, under the lock, and the waiter's
/// continuation resumed. The awaiting task then takes the outcome back out under the lock. Values
/// therefore never cross threads through a continuation, so they need not be `Sendable`: the lock
/// orders the hand-over, as it orders every other piece of shared state here.
///
/// What it does, as Combine does it:
/// - Requests made before the subscription arrives add up and are requested in one go when it does.
/// - A completion with nobody waiting is kept for the next call; a failure is thrown once, then the
///   sequence is over. With callers waiting, the first receives the failure and the others `nil`.
/// - Cancelling (the awaiting task is cancelled, or the iterator is dropped) cancels upstream once and
///   ends every waiting call with `nil`; later calls return `nil` at once.
/// - A value nobody asked for is a programmer error in the upstream publisher.
@usableFromInline
// @unchecked: `status`, `demandBeforeSubscription`, `waiters` and `unclaimedFailure`, and every
// waiter's properties, are guarded by `lock`.
final class AsyncValuesSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {

    /// One pending call to `next`: the continuation to resume and, once decided, what it returns.
    @usableFromInline
    final class Waiter {
        /// Guarded by the subscriber's lock; set while the call waits.
        @usableFromInline
        var continuation: CheckedContinuation<Void, Never>?

        /// Guarded by the subscriber's lock: the call's result, `.success(nil)` for the end.
        @usableFromInline
        var outcome: Result<Input?, Failure>?

        @inlinable
        init() {}
    }

    /// A waiting call's continuation, taken out of its waiter once the waiter's outcome is set.
    @usableFromInline
    typealias Wakeup = CheckedContinuation<Void, Never>

    /// What ``receive(_:)`` decided under the lock.
    @usableFromInline
    enum Delivery {
        /// Resume the oldest waiting call, whose outcome now holds the value.
        case resume(Wakeup?)
        /// The stream is not live: these calls end with `nil`.
        case endAll([Wakeup])
        /// Nobody asked for the value.
        case unrequested
    }

    /// What ``awaitNext(isolation:)`` decided under the lock.
    @usableFromInline
    enum Step {
        /// Wait; the request is made when the subscription arrives.
        case wait
        /// Wait, after requesting one value from this subscription.
        case request(any Subscription)
        /// Do not wait: the outcome is already set.
        case proceed
    }

    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`.
    @usableFromInline
    var status = SubscriptionStatus.awaitingSubscription

    /// Guarded by `lock`: what was requested before the subscription arrived.
    @usableFromInline
    var demandBeforeSubscription = Subscribers.Demand.none

    /// Guarded by `lock`: the pending calls, oldest first.
    @usableFromInline
    var waiters = FIFOQueue<Waiter>()

    /// Guarded by `lock`: a failure that arrived while nobody was waiting, for the next call to throw.
    @usableFromInline
    var unclaimedFailure: Failure?

    @inlinable
    init() {}

    // MARK: Subscriber

    @inlinable
    func receive(subscription: any Subscription) {
        let demand = lock.withLock { () -> Subscribers.Demand? in
            guard case .awaitingSubscription = status else { return nil }
            status = .subscribed(subscription)
            defer { demandBeforeSubscription = .none }
            return demandBeforeSubscription
        }
        guard let demand else {
            subscription.cancel()
            return
        }
        if demand > .none { subscription.request(demand) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let delivery = lock.withLock { () -> Delivery in
            guard status.isSubscribed else { return .endAll(endAllWaiters()) }
            guard !waiters.isEmpty else { return .unrequested }
            let waiter = waiters.removeFirst()
            waiter.outcome = .success(input)
            return .resume(waiter.continuation.take())
        }
        switch delivery {
        case .resume(let wakeup):
            wakeup?.resume()
        case .endAll(let wakeups):
            for wakeup in wakeups { wakeup.resume() }
        case .unrequested:
            preconditionFailure("An async sequence of a publisher received a value it did not request")
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let wakeups = lock.withLock { () -> [Wakeup] in
            let live = !status.isTerminal
            status = .terminal
            guard live else { return endAllWaiters() }
            guard let first = waiters.popFirst() else {
                if case .failure(let error) = completion { unclaimedFailure = error }
                return []
            }
            switch completion {
            case .finished: first.outcome = .success(nil)
            case .failure(let error): first.outcome = .failure(error)
            }
            let firstWakeup = first.continuation.take()
            return (firstWakeup.map { [$0] } ?? []) + endAllWaiters()
        }
        for wakeup in wakeups { wakeup.resume() }
    }

    /// Under `lock`: ends every waiting call with `nil` and returns their continuations.
    @inlinable
    func endAllWaiters() -> [Wakeup] {
        defer { waiters = FIFOQueue() }
        return waiters.compactMap { waiter in
            waiter.outcome = .success(nil)
            return waiter.continuation.take()
        }
    }

    // MARK: Cancellable

    /// Cancels upstream, once, and ends every waiting call with `nil`.
    @inlinable
    func cancel() {
        let (subscription, wakeups) = lock.withLock { () -> ((any Subscription)?, [Wakeup]) in
            let subscription = status.subscription
            status = .terminal
            unclaimedFailure = nil
            return (subscription, endAllWaiters())
        }
        subscription?.cancel()
        for wakeup in wakeups { wakeup.resume() }
    }

    // MARK: Pulling

    /// Requests one value and waits for it, on the caller's isolation. Cancelling the calling task
    /// cancels the whole subscription.
    ///
    /// - Returns: The value; `nil` once the stream has finished or been cancelled; the failure, once.
    @inlinable
    func next(isolation actor: isolated (any Actor)?) async -> Result<Input?, Failure> {
        await withTaskCancellationHandler(
            operation: { await self.awaitNext(isolation: actor) },
            onCancel: { self.cancel() },
            isolation: actor)
    }

    @inlinable
    func awaitNext(isolation actor: isolated (any Actor)?) async -> Result<Input?, Failure> {
        let waiter = Waiter()
        await withCheckedContinuation(isolation: actor) { (continuation: Wakeup) in
            let step = lock.withLock { () -> Step in
                switch status {
                case .awaitingSubscription:
                    waiter.continuation = continuation
                    waiters.append(waiter)
                    demandBeforeSubscription += 1
                    return .wait
                case .subscribed(let subscription):
                    waiter.continuation = continuation
                    waiters.append(waiter)
                    return .request(subscription)
                case .terminal:
                    waiter.outcome = unclaimedFailure.take().map { .failure($0) } ?? .success(nil)
                    return .proceed
                }
            }
            switch step {
            case .wait: break
            case .request(let subscription): subscription.request(.max(1))
            case .proceed: continuation.resume()
            }
        }
        return lock.withLock { waiter.outcome ?? .success(nil) }
    }
}

/// Ties a subscription to the life of the iterator that pulls from it: when the last copy of the
/// iterator goes away, after a `break` out of a `for`-`await` loop for instance, the subscription is
/// cancelled.
@usableFromInline
final class AsyncValuesLifetime<Input, Failure: Error>: Sendable {
    @usableFromInline
    let subscriber: AsyncValuesSubscriber<Input, Failure>

    @inlinable
    init(subscriber: AsyncValuesSubscriber<Input, Failure>) {
        self.subscriber = subscriber
    }

    deinit {
        subscriber.cancel()
    }
}
