import Dispatch
import Foundation
import Streams
import StreamsTesting
import Synchronization
import Testing

/// An inner publisher the tests drive by hand.
private typealias Inner = FlowPublisher<Int, FlowError>

@Suite(.timeLimit(.minutes(3))) struct SwitchToLatestTests {
    // MARK: Values

    @Test func relaysOnlyTheLatestPublisher() {
        let outer = PassthroughSubject<PassthroughSubject<String, Never>, Never>()
        let first = PassthroughSubject<String, Never>()
        let second = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>()
        outer.switchToLatest().subscribe(subscriber)
        first.send("before")
        outer.send(first)
        first.send("a")
        outer.send(second)
        first.send("replaced")
        second.send("b")
        first.send("replaced again")
        second.send("c")
        #expect(subscriber.values == ["a", "b", "c"])
    }

    @Test func publishersThatFinishAtOnceAreRelayedWhole() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.map { [$0, $0 * 10].publisher }.switchToLatest().subscribe(subscriber)
        #expect(
            subscriber.events == [
                .subscription, .value(1), .value(10), .value(2), .value(20), .value(3), .value(30),
                .completion(.finished),
            ])
    }

    @Test func asksTheOuterPublisherForUnlimitedPublishers() {
        let outer = FlowPublisher<Inner, FlowError>()
        outer.switchToLatest().subscribe(TestSubscriber<Int, FlowError>(initialDemand: .none))
        #expect(outer.subscription?.history == [.requested(.unlimited)])
        #expect(outer.send(Inner()) == .none)
        #expect(outer.subscription?.history == [.requested(.unlimited)])
    }

    // MARK: Demand

    @Test func theNextPublisherIsAskedForTheDemandLeftUnmet() {
        let outer = FlowPublisher<Inner, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .max(3))
        outer.switchToLatest().subscribe(subscriber)
        let first = Inner()
        outer.send(first)
        #expect(first.subscription?.history == [.requested(.max(3))])
        #expect(first.send(1) == .none)
        subscriber.request(.max(2))
        #expect(first.subscription?.history == [.requested(.max(3)), .requested(.max(2))])
        let second = Inner()
        outer.send(second)
        #expect(first.subscription?.history == [.requested(.max(3)), .requested(.max(2)), .cancelled])
        // Three asked, one delivered, two more asked: four left for the next publisher.
        #expect(second.subscription?.history == [.requested(.max(4))])
        #expect(second.send(2) == .none)
        #expect(subscriber.values == [1, 2])
    }

    @Test func demandReturnedForAValueGoesToTheSenderAndCounts() {
        let outer = FlowPublisher<Inner, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .max(1), demandPerValue: .max(2))
        outer.switchToLatest().subscribe(subscriber)
        let first = Inner()
        outer.send(first)
        #expect(first.send(1) == .max(2))
        #expect(first.send(2) == .max(2))
        let second = Inner()
        outer.send(second)
        // 1 - 1 + 2 - 1 + 2 = 3.
        #expect(second.subscription?.history == [.requested(.max(3))])
    }

    @Test func aPublisherArrivingWithoutDemandIsAskedForNothingUntilARequest() {
        let outer = FlowPublisher<Inner, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .none)
        outer.switchToLatest().subscribe(subscriber)
        let inner = Inner()
        outer.send(inner)
        #expect(inner.subscription?.history == [])
        subscriber.request(.max(5))
        subscriber.request(.unlimited)
        #expect(inner.subscription?.history == [.requested(.max(5)), .requested(.unlimited)])
    }

    @Test func requestsBetweenPublishersWaitForTheNextOne() {
        let outer = FlowPublisher<Inner, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .max(1))
        outer.switchToLatest().subscribe(subscriber)
        let first = Inner()
        outer.send(first)
        first.send(completion: .finished)
        subscriber.request(.max(6))
        #expect(first.subscription?.history == [.requested(.max(1))])
        let second = Inner()
        outer.send(second)
        #expect(second.subscription?.history == [.requested(.max(7))])
    }

    @Test func aValueNobodyAskedForIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = FlowPublisher<Inner, FlowError>()
            outer.switchToLatest().subscribe(TestSubscriber<Int, FlowError>(initialDemand: .none))
            let inner = Inner()
            outer.send(inner)
            inner.send(1)
        }
        expectTrapMessage(
            trap1, contains: "SwitchToLatest received a value from its inner publisher with no outstanding demand")
    }

    @Test func requestingNothingIsAProgrammerError() async {
        let trap2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .none)
            FlowPublisher<Inner, FlowError>().switchToLatest().subscribe(subscriber)
            subscriber.request(.none)
        }
        expectTrapMessage(trap2, contains: "A subscription's demand must be greater than zero, got max(0)")
    }

    // MARK: Completion and failure

    @Test func finishesOnceTheOuterThenTheCurrentPublisherFinish() {
        let outer = FlowPublisher<Inner, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        outer.switchToLatest().subscribe(subscriber)
        let inner = Inner()
        outer.send(inner)
        outer.send(completion: .finished)
        #expect(inner.send(1) == .none)
        #expect(subscriber.events == [.subscription, .value(1)])
        inner.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(inner.subscription?.history == [.requested(.unlimited)])
        #expect(outer.subscription?.history == [.requested(.unlimited)])
    }

    @Test func finishesOnceTheCurrentPublisherThenTheOuterFinish() {
        let outer = FlowPublisher<Inner, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        outer.switchToLatest().subscribe(subscriber)
        let inner = Inner()
        outer.send(inner)
        inner.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        outer.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func finishesAtOnceWithoutAnyPublisher() {
        let subscriber = TestSubscriber<Int, Never>()
        Empty<Just<Int>, Never>().switchToLatest().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func aFinishWaitsForThePublisherWhoseSubscriptionIsOnItsWay() {
        let outer = FlowPublisher<SelectionUpstream<Int, FlowError>, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        outer.switchToLatest().subscribe(subscriber)
        let inner = SelectionUpstream<Int, FlowError>(sendsSubscription: false)
        outer.send(inner)
        outer.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        inner.send(subscription: inner.subscription)
        #expect(inner.events == [.requested(.unlimited)])
        inner.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func theOuterFailureCancelsTheCurrentPublisherFirst() {
        let outer = FlowPublisher<Inner, FlowError>()
        let inner = Inner()
        var innerHistoryAtFailure: [FlowSubscription.Event]?
        let subscriber = TestSubscriber<Int, FlowError>()
        outer.switchToLatest()
            .handleEvents(receiveCompletion: { _ in innerHistoryAtFailure = inner.subscription?.history })
            .subscribe(subscriber)
        outer.send(inner)
        outer.send(completion: .failure(FlowError(3)))
        #expect(innerHistoryAtFailure == [.requested(.unlimited), .cancelled])
        #expect(subscriber.events == [.subscription, .completion(.failure(FlowError(3)))])
        #expect(outer.subscription?.history == [.requested(.unlimited)])
    }

    @Test func anInnerFailureCancelsTheOuterPublisherAndEndsEverything() {
        let outer = FlowPublisher<Inner, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        outer.switchToLatest().subscribe(subscriber)
        let inner = Inner()
        outer.send(inner)
        inner.send(1)
        inner.send(completion: .failure(FlowError(5)))
        #expect(outer.subscription?.history == [.requested(.unlimited), .cancelled])
        // The failed publisher's subscription is let go, not cancelled.
        #expect(inner.subscription?.history == [.requested(.unlimited)])
        #expect(inner.send(2) == .none)
        inner.send(completion: .failure(FlowError(6)))
        let later = Inner()
        outer.send(later)
        #expect(later.subscribeCount == 0)
        outer.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(FlowError(5)))])
    }

    @Test func aReplacedPublishersCompletionChangesNothing() {
        let outer = FlowPublisher<Inner, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        outer.switchToLatest().subscribe(subscriber)
        let first = Inner()
        let second = Inner()
        outer.send(first)
        outer.send(second)
        outer.send(completion: .finished)
        first.send(completion: .failure(FlowError()))
        first.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        second.send(3)
        second.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
    }

    @Test func anInnerCompletionBeforeItsSubscriptionIsAProgrammerError() async {
        let trap3 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let outer = FlowPublisher<SelectionUpstream<Int, FlowError>, FlowError>()
            outer.switchToLatest().subscribe(TestSubscriber<Int, FlowError>())
            let inner = SelectionUpstream<Int, FlowError>(sendsSubscription: false)
            outer.send(inner)
            inner.send(completion: .finished)
        }
        expectTrapMessage(trap3, contains: "SwitchToLatest's inner publisher completed before sending its subscription")
    }

    @Test func secondSubscriptionsAreCancelled() {
        let outer = SelectionUpstream<SelectionUpstream<Int, Never>, Never>()
        outer.switchToLatest().subscribe(TestSubscriber<Int, Never>())
        let extraOuter = SelectionSubscription()
        outer.send(subscription: extraOuter)
        let inner = SelectionUpstream<Int, Never>()
        outer.send(inner)
        let extraInner = SelectionSubscription()
        inner.send(subscription: extraInner)
        #expect(extraOuter.events == [.cancelled])
        #expect(extraInner.events == [.cancelled])
        #expect(outer.events == [.requested(.unlimited)])
        #expect(inner.events == [.requested(.unlimited)])
    }

    // MARK: Failure types

    @Test func anOuterPublisherThatCannotFailTakesTheInnerFailureType() {
        let outer = PassthroughSubject<PassthroughSubject<Int, FlowError>, Never>()
        let switched:
            Publishers.SwitchToLatest<
                PassthroughSubject<Int, FlowError>,
                Publishers.SetFailureType<PassthroughSubject<PassthroughSubject<Int, FlowError>, Never>, FlowError>
            > = outer.switchToLatest()
        let subscriber = TestSubscriber<Int, FlowError>()
        switched.subscribe(subscriber)
        let inner = PassthroughSubject<Int, FlowError>()
        outer.send(inner)
        inner.send(1)
        inner.send(completion: .failure(FlowError(2)))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(FlowError(2)))])
    }

    @Test func innerPublishersThatCannotFailTakeTheOuterFailureType() {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, FlowError>()
        let switched = outer.switchToLatest()
        let inner = PassthroughSubject<Int, Never>()
        #expect(switched.upstream.transform(inner).upstream === inner)
        let subscriber = TestSubscriber<Int, FlowError>()
        switched.subscribe(subscriber)
        outer.send(inner)
        inner.send(1)
        outer.send(completion: .failure(FlowError(4)))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(FlowError(4)))])
    }

    @Test func publishersThatCannotFailNeedNoConversion() {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let switched:
            Publishers.SwitchToLatest<
                PassthroughSubject<Int, Never>, PassthroughSubject<PassthroughSubject<Int, Never>, Never>
            > = outer.switchToLatest()
        #expect(switched.upstream === outer)
    }

    // MARK: Cancellation

    @Test func cancelCancelsTheCurrentPublisherThenTheOuterOnce() {
        let outer = FlowPublisher<Inner, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .max(2))
        outer.switchToLatest().subscribe(subscriber)
        let inner = Inner()
        outer.send(inner)
        var innerHistoryWhenOuterCancelled: [FlowSubscription.Event]?
        outer.subscription?.onCancel { innerHistoryWhenOuterCancelled = inner.subscription?.history }
        let subscription = subscriber.subscription
        subscription?.cancel()
        subscription?.cancel()
        #expect(innerHistoryWhenOuterCancelled == [.requested(.max(2)), .cancelled])
        #expect(outer.subscription?.history == [.requested(.unlimited), .cancelled])
        #expect(inner.subscription?.history == [.requested(.max(2)), .cancelled])
        #expect(inner.send(1) == .none)
        inner.send(completion: .finished)
        let later = Inner()
        outer.send(later)
        #expect(later.subscribeCount == 0)
        outer.send(completion: .failure(FlowError()))
        #expect(subscriber.events == [.subscription])
    }

    @Test func aSubscriptionArrivingAfterCancelIsCancelled() {
        let outer = FlowPublisher<SelectionUpstream<Int, Never>, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        outer.switchToLatest().subscribe(subscriber)
        let inner = SelectionUpstream<Int, Never>(sendsSubscription: false)
        outer.send(inner)
        subscriber.cancel()
        inner.send(subscription: inner.subscription)
        #expect(inner.events == [.cancelled])
        #expect(inner.send(1) == .none)
        #expect(subscriber.events == [.subscription])
    }

    // MARK: Re-entrancy

    @Test func aValueThatBringsANewPublisherSwitchesAtOnce() {
        let outer = PassthroughSubject<AnyPublisher<Int, Never>, Never>()
        let first = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3), demandPerValue: .none)
        outer.switchToLatest().subscribe(subscriber)
        subscriber.onReceiveValue { value in
            if value == 1 { outer.send([10, 20, 30].publisher.eraseToAnyPublisher()) }
        }
        outer.send(first.eraseToAnyPublisher())
        first.send(1)
        first.send(2)
        // The new publisher was asked for what was left, two, nested in the delivery of 1.
        #expect(subscriber.events == [.subscription, .value(1), .value(10), .value(20)])
    }

    @Test func aRequestFromInsideADeliveryReachesTheCurrentPublisher() {
        let outer = FlowPublisher<Inner, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .max(1))
        outer.switchToLatest().subscribe(subscriber)
        let inner = Inner()
        subscriber.onReceiveValue { _ in subscriber.request(.max(2)) }
        outer.send(inner)
        inner.send(1)
        #expect(inner.subscription?.history == [.requested(.max(1)), .requested(.max(2))])
        #expect(inner.send(2) == .none)
        #expect(inner.send(3) == .none)
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func aCompletionFromInsideADeliveryGoesDownNested() {
        let outer = FlowPublisher<Inner, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        outer.switchToLatest().subscribe(subscriber)
        let inner = Inner()
        subscriber.onReceiveValue { _ in outer.send(completion: .failure(FlowError(9))) }
        outer.send(inner)
        inner.send(1)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(FlowError(9)))])
        #expect(inner.subscription?.history == [.requested(.unlimited), .cancelled])
    }

    // MARK: Threads

    /// One thread floods the first publisher while another switches to a second one and sends on it:
    /// deliveries never overlap, the first publisher's values arrive in order, and none of them comes
    /// after a value of the second.
    @Test func nothingFromAReplacedPublisherFollowsItsSuccessor() {
        for _ in 0..<30 {
            let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
            let first = PassthroughSubject<Int, Never>()
            let second = PassthroughSubject<Int, Never>()
            let detector = ReentryDetector()
            let values = Mutex<[Int]>([])
            let cancellable = outer.switchToLatest().sink { value in
                detector.enter(spin: 200) { values.withLock { $0.append(value) } }
            }
            outer.send(first)
            let started = DispatchSemaphore(value: 0)
            runOnThreads(2) { thread in
                if thread == 0 {
                    for value in 0..<300 {
                        if value == 20 { started.signal() }
                        first.send(value)
                    }
                } else {
                    started.wait()
                    outer.send(second)
                    for value in 1000..<1100 { second.send(value) }
                }
            }
            let recorded = values.withLock { $0 }
            #expect(detector.overlaps == 0)
            let firstValues = recorded.prefix { $0 < 1000 }
            #expect(Array(firstValues) == Array(0..<firstValues.count))
            #expect(Array(recorded.dropFirst(firstValues.count)) == Array(1000..<1100))
            cancellable.cancel()
        }
    }

    /// A value that waits for another thread's delivery to end while its publisher is replaced is
    /// dropped once it gets its turn.
    @Test func aValueWaitingWhileItsPublisherIsReplacedIsDropped() {
        waitForTurnThen { outer, _ in outer.send(Inner()) }
    }

    /// A value that waits for another thread's delivery to end while downstream cancels is dropped
    /// once it gets its turn.
    @Test func aValueWaitingWhileDownstreamCancelsIsDropped() {
        waitForTurnThen { _, subscriber in subscriber.subscription?.cancel() }
    }

    /// Blocks a delivery of the first publisher's value on one thread, lets a second publisher's value
    /// queue for the turn on another, runs `interrupt` meanwhile, then lets everything go: the queued
    /// value must not go down.
    private func waitForTurnThen(
        _ interrupt: @escaping @Sendable (FlowPublisher<Inner, FlowError>, TestSubscriber<Int, FlowError>) -> Void
    ) {
        let outer = FlowPublisher<Inner, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        outer.switchToLatest().subscribe(subscriber)
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        subscriber.onReceiveValue { value in
            if value == 0 {
                inside.signal()
                release.wait()
            }
        }
        let zero = Inner()
        let first = Inner()
        outer.send(zero)
        let firstIsCurrent = DispatchSemaphore(value: 0)
        runOnThreads(3) { thread in
            switch thread {
            case 0:
                zero.send(0)
            case 1:
                firstIsCurrent.wait()
                nameCurrentThread("late-sender")
                first.send(1)
            default:
                inside.wait()
                outer.send(first)
                firstIsCurrent.signal()
                // The value has reached the operator and waits for the turn once its thread parks.
                #expect(waitUntilThreadBlocks(named: "late-sender"))
                interrupt(outer, subscriber)
                release.signal()
            }
        }
        #expect(subscriber.values == [0])
    }

    /// A publisher sends on one thread while the outer publisher fails on another: the values come in
    /// order, the failure once (and last, as a sink ignores what follows it), and nothing overlaps.
    @Test func aFailureRacingValuesComesLast() {
        for _ in 0..<30 {
            let outer = PassthroughSubject<PassthroughSubject<Int, FlowError>, FlowError>()
            let inner = PassthroughSubject<Int, FlowError>()
            let detector = ReentryDetector()
            let events = Mutex<[TestEvent<Int, FlowError>]>([])
            let cancellable = outer.switchToLatest().sink(
                receiveCompletion: { completion in
                    detector.enter(spin: 200) { events.withLock { $0.append(.completion(completion)) } }
                },
                receiveValue: { value in
                    detector.enter(spin: 200) { events.withLock { $0.append(.value(value)) } }
                })
            outer.send(inner)
            runOnThreads(2) { thread in
                if thread == 0 {
                    for value in 0..<200 { inner.send(value) }
                } else {
                    outer.send(completion: .failure(FlowError(1)))
                }
            }
            let recorded = events.withLock { $0 }
            let values = recorded.compactMap(\.input)
            #expect(detector.overlaps == 0)
            #expect(values == Array(0..<values.count))
            #expect(recorded.count == values.count + 1)
            #expect(recorded.last == .completion(.failure(FlowError(1))))
            cancellable.cancel()
        }
    }

    /// Demand given on one thread while publishers switch on another is never lost: every value the
    /// subscriber asked for arrives.
    @Test func demandCarriedAcrossPublishersUnderConcurrentRequests() {
        for _ in 0..<20 {
            let outer = PassthroughSubject<ThreadedSource, Never>()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            outer.switchToLatest().subscribe(subscriber)
            let sources = (0..<4).map { _ in ThreadedSource() }
            runOnThreads(2) { thread in
                if thread == 0 {
                    for _ in 0..<40 { subscriber.request(.max(1)) }
                } else {
                    for (index, source) in sources.enumerated() {
                        outer.send(source)
                        source.run(Array(index * 10..<index * 10 + 10))
                    }
                }
            }
            // A unit of demand that reached a publisher after its last value is asked of the next.
            #expect(subscriber.values == Array(0..<40))
            subscriber.cancel()
        }
    }

    // MARK: Memory

    @Test func aReplacedPublishersSubscriptionIsLetGo() {
        let outer = PassthroughSubject<ReleasingPublisher, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        outer.switchToLatest().subscribe(subscriber)
        let first = ReleasingPublisher()
        outer.send(first)
        #expect(first.subscription != nil)
        outer.send(ReleasingPublisher())
        #expect(first.subscription == nil)
        subscriber.cancel()
    }

    @Test func aFinishedPublishersSubscriptionIsLetGo() {
        let outer = PassthroughSubject<ReleasingPublisher, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        outer.switchToLatest().subscribe(subscriber)
        let inner = ReleasingPublisher()
        outer.send(inner)
        inner.finish()
        #expect(inner.subscription == nil)
        subscriber.cancel()
    }

    @Test func releasesEverythingAfterFinishing() {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        weak var weakInner: PassthroughSubject<Int, Never>?
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            outer.switchToLatest().subscribe(subscriber)
            let inner = PassthroughSubject<Int, Never>()
            weakInner = inner
            outer.send(inner)
            inner.send(1)
            outer.send(completion: .finished)
            inner.send(completion: .finished)
        }
        #expect(weakSubscriber == nil)
        #expect(weakInner == nil)
    }

    @Test func releasesEverythingAfterCancel() {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            outer.switchToLatest().subscribe(subscriber)
            outer.send(first)
            outer.send(second)
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
    }

    @Test func releasesEverythingAfterAnInnerFailure() {
        weak var weakSubscriber: TestSubscriber<Int, FlowError>?
        let outer = PassthroughSubject<PassthroughSubject<Int, FlowError>, FlowError>()
        let inner = PassthroughSubject<Int, FlowError>()
        do {
            let subscriber = TestSubscriber<Int, FlowError>()
            weakSubscriber = subscriber
            outer.switchToLatest().subscribe(subscriber)
            outer.send(inner)
            inner.send(completion: .failure(FlowError()))
        }
        #expect(weakSubscriber == nil)
    }

    // MARK: Description and reflection

    @Test func describesItselfAsCombineDoes() throws {
        let outer = CapturingPublisher<CapturingPublisher<Int>>()
        let subscriber = TestSubscriber<Int, Never>()
        outer.switchToLatest().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "SwitchToLatest")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "SwitchToLatest")
        #expect(!(subscription is any CustomDebugStringConvertible))
        #expect(Mirror(reflecting: subscription).children.isEmpty)
        let parent = try #require(outer.subscriber as? any Subscription)
        #expect(parent.combineIdentifier == subscription.combineIdentifier)

        let inner = CapturingPublisher<Int>()
        outer.send(inner)
        let side = try #require(inner.subscriber)
        #expect(!(side is any Subscription))
        #expect(side.combineIdentifier != subscription.combineIdentifier)
        #expect(String(describing: side) == "SwitchToLatest")
        #expect((side as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "SwitchToLatest")
        let children = Mirror(reflecting: side).children.map { ($0.label, $0.value as? CombineIdentifier) }
        #expect(children.count == 1)
        #expect(children.first?.0 == "parentSubscription")
        #expect(children.first?.1 == subscription.combineIdentifier)
    }
}

/// A publisher whose subscription holds the subscriber until it is cancelled or the publisher
/// finishes, and which itself holds the subscription only weakly: it tells whether whoever received
/// the subscription let go of it.
private final class ReleasingPublisher: Publisher, @unchecked Sendable {
    // @unchecked: used on the test's thread only.
    typealias Output = Int
    typealias Failure = Never

    final class Held: Subscription {
        var subscriber: AnySubscriber<Int, Never>?

        init(_ subscriber: AnySubscriber<Int, Never>) {
            self.subscriber = subscriber
        }

        func request(_ demand: Subscribers.Demand) {}

        func cancel() {
            subscriber = nil
        }
    }

    weak var subscription: Held?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let held = Held(AnySubscriber(subscriber))
        subscription = held
        subscriber.receive(subscription: held)
    }

    func finish() {
        let subscriber = subscription?.subscriber
        subscription?.subscriber = nil
        subscriber?.receive(completion: .finished)
    }
}

/// A publisher that keeps its subscriber, sends it no subscription, and lets the test send values.
private final class CapturingPublisher<Output>: Publisher, @unchecked Sendable {
    // @unchecked: used on the test's thread only.
    typealias Failure = Never

    var subscriber: (any Subscriber)?
    private var send: ((Output) -> Subscribers.Demand)?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        self.subscriber = subscriber
        send = { subscriber.receive($0) }
    }

    func send(_ value: Output) {
        _ = send?(value)
    }
}
