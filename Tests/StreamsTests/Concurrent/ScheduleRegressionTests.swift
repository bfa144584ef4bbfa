import Dispatch
import Streams
import Testing

extension ConcurrentScheduleTests {
    /// Discrepancies the concurrent schedules found, each replayed here deterministically: threads
    /// wait for one another at the point where the interleaving went wrong.
    @Suite struct ScheduleRegressionTests {
        /// What a ``ScheduleRecorder`` saw, in order.
        enum Event: Equatable {
            case subscriptionBegins
            case subscriptionReturns
            case value(Int)
            case finished
            case failed
        }

        /// A flatMap child fails on another thread while the subscriber is inside `receive(_:)` for a
        /// value of another child: the failure waits for that delivery to end. The subscriber cancels
        /// inside it: once its `cancel()` has returned, nothing more may reach it on that thread, and
        /// the waiting failure is dropped, as merge drops it.
        @Test func flatMapDropsAFailureWaitingForTheDeliveryInWhichTheSubscriberCancels() {
            let first = PassthroughSubject<Int, TestError>()
            let second = PassthroughSubject<Int, TestError>()
            let inside = StressSignal()
            let failed = StressSignal()
            let recorder = ScheduleRecorder(
                onValue: { recorder in
                    inside.signal()
                    #expect(failed.wait())
                    recorder.cancel()
                })
            [first, second].publisher.flatMap { $0 }.subscribe(recorder)

            runOnThreads(2) { thread in
                if thread == 0 {
                    first.send(1)
                } else {
                    #expect(inside.wait())
                    second.send(completion: .failure(TestError()))
                    failed.signal()
                }
            }
            #expect(recorder.events == [.subscriptionBegins, .subscriptionReturns, .value(1)])
        }

        /// A subject completes, from another thread, while a subscriber is still inside
        /// `receive(subscription:)`: the completion reaches it only once that call has returned,
        /// never before or during it. (Before, the subscriber could receive the completion before its
        /// subscription, and an operator that ignores such a completion, as the one subscribing a
        /// subject to a publisher does, never ended.)
        @Test(arguments: [false, true])
        func aSubjectCompletionWaitsUntilTheSubscriberHasItsSubscription(currentValue: Bool) {
            let passthrough = PassthroughSubject<Int, TestError>()
            let current = CurrentValueSubject<Int, TestError>(0)
            let subject = currentValue ? current.eraseToAnyPublisher() : passthrough.eraseToAnyPublisher()
            let inside = StressSignal()
            let completed = StressSignal()
            let recorder = ScheduleRecorder {
                inside.signal()
                #expect(completed.wait())
            }

            let box = LockedState(subject)
            runOnThreads(2) { thread in
                if thread == 0 {
                    box.withLock { $0.subscribe(recorder) }
                } else {
                    #expect(inside.wait())
                    if currentValue {
                        current.send(completion: .finished)
                    } else {
                        passthrough.send(completion: .finished)
                    }
                    completed.signal()
                }
            }
            // A current-value subject sends its value at once, on the request made there.
            let sentAtOnce: [Event] = currentValue ? [.value(0)] : []
            #expect(recorder.events == [.subscriptionBegins] + sentAtOnce + [.subscriptionReturns, .finished])
        }

        /// Only a completion from another thread waits: one sent from inside `receive(subscription:)`,
        /// on the subscribing thread, still goes down nested in that call, as in Combine.
        @Test func aSubjectCompletionSentFromInsideReceiveSubscriptionGoesDownNested() {
            let subject = PassthroughSubject<Int, TestError>()
            let recorder = ScheduleRecorder { subject.send(completion: .finished) }
            subject.subscribe(recorder)
            #expect(recorder.events == [.subscriptionBegins, .finished, .subscriptionReturns])
        }

        /// As above, with the subscriber cancelling inside `receive(subscription:)`: the completion
        /// that waited for it is dropped.
        @Test func aSubjectCompletionThatWaitedForACancelledSubscriberIsDropped() {
            let subject = PassthroughSubject<Int, TestError>()
            let inside = StressSignal()
            let completed = StressSignal()
            let recorder = ScheduleRecorder(cancelsInSubscription: true) {
                inside.signal()
                #expect(completed.wait())
            }

            runOnThreads(2) { thread in
                if thread == 0 {
                    subject.subscribe(recorder)
                } else {
                    #expect(inside.wait())
                    subject.send(completion: .finished)
                    completed.signal()
                }
            }
            #expect(recorder.events == [.subscriptionBegins, .subscriptionReturns])
        }

        /// An observable object's publisher ignores demand, yet a change sent from another thread
        /// while a subscriber is still being attached must not reach it before its subscription,
        /// nor while it is inside `receive(subscription:)`: for that subscriber the change came
        /// before it subscribed. (Before, the soak run saw a change arrive before the subscription.)
        /// Changes sent once it has returned reach it.
        @Test func anObjectWillChangeSentWhileTheSubscriberIsBeingAttachedDoesNotReachIt() {
            let publisher = ObservableObjectPublisher()
            let inside = StressSignal()
            let sent = StressSignal()
            let recorder = ScheduleRecorder {
                inside.signal()
                #expect(sent.wait())
            }

            runOnThreads(2) { thread in
                if thread == 0 {
                    publisher.map { 1 }.setFailureType(to: TestError.self).subscribe(recorder)
                } else {
                    #expect(inside.wait())
                    publisher.send()
                    sent.signal()
                }
            }
            publisher.send()
            #expect(recorder.events == [.subscriptionBegins, .subscriptionReturns, .value(1)])
            recorder.cancel()
        }

        /// A change sent from inside `receive(subscription:)`, on the subscribing thread, still goes
        /// down nested in that call.
        @Test func anObjectWillChangeSentFromInsideReceiveSubscriptionGoesDownNested() {
            let publisher = ObservableObjectPublisher()
            let recorder = ScheduleRecorder { publisher.send() }
            publisher.map { 2 }.setFailureType(to: TestError.self).subscribe(recorder)
            #expect(recorder.events == [.subscriptionBegins, .value(2), .subscriptionReturns])
            recorder.cancel()
        }
    }
}

/// A subscriber that records its events, asking for everything at once, with hooks: `onSubscription`
/// runs inside `receive(subscription:)` once it has asked (then it cancels, if `cancelsInSubscription`),
/// `onValue` inside `receive(_:)`.
final class ScheduleRecorder: Subscriber, Cancellable, Sendable {
    /// What it receives.
    typealias Input = Int
    /// How its upstream fails.
    typealias Failure = TestError
    /// The events it records.
    typealias Event = ConcurrentScheduleTests.ScheduleRegressionTests.Event

    private let state = LockedState<(events: [Event], subscription: (any Subscription)?)>(([], nil))
    private let cancelsInSubscription: Bool
    private let onSubscription: @Sendable () -> Void
    private let onValue: @Sendable (ScheduleRecorder) -> Void

    /// Creates a recorder with the given hooks.
    init(
        cancelsInSubscription: Bool = false, onSubscription: @escaping @Sendable () -> Void = {},
        onValue: @escaping @Sendable (ScheduleRecorder) -> Void = { _ in }
    ) {
        self.cancelsInSubscription = cancelsInSubscription
        self.onSubscription = onSubscription
        self.onValue = onValue
    }

    /// What it received, in order.
    var events: [Event] { state.withLock { $0.events } }

    /// Records the subscription, asks for everything, runs `onSubscription`, perhaps cancels, and
    /// records that it returns.
    func receive(subscription: any Subscription) {
        state.withLock {
            $0.events.append(.subscriptionBegins)
            $0.subscription = subscription
        }
        subscription.request(.unlimited)
        onSubscription()
        if cancelsInSubscription { cancel() }
        state.withLock { $0.events.append(.subscriptionReturns) }
    }

    /// Records the value, then runs `onValue`.
    func receive(_ input: Int) -> Subscribers.Demand {
        state.withLock { $0.events.append(.value(input)) }
        onValue(self)
        return .none
    }

    /// Records the completion.
    func receive(completion: Subscribers.Completion<TestError>) {
        state.withLock { $0.events.append(completion == .finished ? .finished : .failed) }
    }

    /// Cancels the subscription, once.
    func cancel() {
        state.withLock { $0.subscription.take() }?.cancel()
    }
}
