import Dispatch
import Foundation
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct PrefixUntilOutputTests {
    // MARK: Values and demand

    @Test func republishesUntilTheOtherPublisherEmitsThenFinishes() {
        let upstream = FlowPublisher<Int, FlowError>()
        let stop = FlowPublisher<String, Never>()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .max(3), demandPerValue: .max(2))
        upstream.prefix(untilOutputFrom: stop).subscribe(subscriber)
        #expect(stop.subscription?.history == [.requested(.max(1))])
        #expect(upstream.subscription?.history == [.requested(.max(3))])
        #expect(upstream.send(1) == .max(2))
        #expect(upstream.send(2) == .max(2))
        #expect(stop.send("stop") == Subscribers.Demand.none)
        #expect(upstream.send(3) == Subscribers.Demand.none)
        upstream.send(completion: .failure(FlowError()))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(upstream.subscription?.history == [.requested(.max(3)), .cancelled])
        #expect(stop.subscription?.history == [.requested(.max(1))])
    }

    @Test func theOtherPublishersFailureTypeIsFree() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2].publisher.prefix(untilOutputFrom: Fail<Int, FlowError>(error: FlowError())).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func anImmediateStopFinishesAtOnce() {
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: Just(0)).subscribe(subscriber)
        // As in Combine, the finish arrives before any subscription, and upstream's is refused.
        #expect(subscriber.events == [.completion(.finished)])
        #expect(upstream.subscription?.history == [.cancelled])
    }

    @Test func passesEveryRequestUpstreamAsIs() {
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.prefix(untilOutputFrom: FlowPublisher<Int, Never>()).subscribe(subscriber)
        subscriber.request(.max(4))
        subscriber.request(.none)
        #expect(upstream.subscription?.history == [.requested(.max(4)), .requested(.none)])
    }

    // MARK: Completion and failure

    @Test func upstreamCompletionCancelsTheStopBeforeGoingDown() {
        let upstream = FlowPublisher<Int, FlowError>()
        let stop = FlowPublisher<Int, Never>()
        var stopHistoryAtCompletion: [FlowSubscription.Event]?
        let subscriber = TestSubscriber<Int, FlowError>()
        upstream.prefix(untilOutputFrom: stop)
            .handleEvents(receiveCompletion: { _ in stopHistoryAtCompletion = stop.subscription?.history })
            .subscribe(subscriber)
        upstream.send(completion: .failure(FlowError(7)))
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.failure(FlowError(7)))])
        #expect(stopHistoryAtCompletion == [.requested(.max(1)), .cancelled])
    }

    @Test func theStopCompletingWithoutAnElementChangesNothing() {
        let upstream = FlowPublisher<Int, Never>()
        let stop = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: stop).subscribe(subscriber)
        stop.send(completion: .failure(FlowError()))
        #expect(stop.send(1) == Subscribers.Demand.none)
        upstream.send(5)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
        #expect(upstream.subscription?.history == [.requested(.unlimited)])
        #expect(stop.subscription?.history == [.requested(.max(1))])
    }

    @Test func upstreamCancelledBeforeTheFinishGoesDown() {
        let upstream = FlowPublisher<Int, Never>()
        let stop = FlowPublisher<Int, Never>()
        var upstreamHistoryAtFinish: [FlowSubscription.Event]?
        upstream.prefix(untilOutputFrom: stop)
            .handleEvents(receiveCompletion: { _ in upstreamHistoryAtFinish = upstream.subscription?.history })
            .subscribe(TestSubscriber<Int, Never>())
        stop.send(0)
        #expect(upstreamHistoryAtFinish == [.requested(.unlimited), .cancelled])
    }

    // MARK: Cancellation

    @Test func cancelCancelsUpstreamThenTheStopOnce() {
        let upstream = FlowPublisher<Int, Never>()
        let stop = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.prefix(untilOutputFrom: stop).subscribe(subscriber)
        var stopHistoryWhenUpstreamCancelled: [FlowSubscription.Event]?
        upstream.subscription?.onCancel { stopHistoryWhenUpstreamCancelled = stop.subscription?.history }
        let subscription = subscriber.subscription
        subscription?.cancel()
        subscription?.cancel()
        subscription?.request(.max(3))
        #expect(stopHistoryWhenUpstreamCancelled == [.requested(.max(1))])
        #expect(upstream.subscription?.history == [.cancelled])
        #expect(stop.subscription?.history == [.requested(.max(1)), .cancelled])
        #expect(upstream.send(1) == Subscribers.Demand.none)
        stop.send(1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func secondSubscriptionsAreCancelled() {
        let upstream = SelectionUpstream<Int, Never>()
        let stop = SelectionUpstream<Int, Never>()
        upstream.prefix(untilOutputFrom: stop).subscribe(TestSubscriber<Int, Never>())
        let second = SelectionSubscription()
        upstream.send(subscription: second)
        let secondStop = SelectionSubscription()
        stop.send(subscription: secondStop)
        #expect(second.events == [.cancelled])
        #expect(secondStop.events == [.cancelled])
    }

    // MARK: Identity and reflection

    @Test func likeCombineDoesNotCustomizeItsDescription() {
        let upstream = FlowPublisher<Int, Never>()
        let stop = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: stop).subscribe(subscriber)
        let subscription = subscriber.subscription!
        #expect(!(subscription is any CustomStringConvertible))
        #expect(!(subscription is any CustomReflectable))
        #expect(String(describing: subscription).contains("PrefixUntilOutput"))
        #expect(upstream.subscriberDescription?.contains("PrefixUntilOutput") == true)
    }

    @Test func bothSubscribersShareOneIdentity() {
        let upstream = IdentityRecorder<Int>()
        let stop = IdentityRecorder<Int>()
        upstream.prefix(untilOutputFrom: stop).subscribe(TestSubscriber<Int, Never>())
        #expect(upstream.identifier != nil)
        #expect(upstream.identifier == stop.identifier)
    }

    // MARK: Threads

    /// A stop sent from another thread while a value is being delivered waits for that delivery to
    /// end, then finishes; no value follows the finish.
    @Test func aStopFromAnotherThreadWaitsForTheValueInProgress() {
        let upstream = PassthroughSubject<Int, Never>()
        let stop = PassthroughSubject<Void, Never>()
        let inside = DispatchSemaphore(value: 0)
        let stopArrived = DispatchSemaphore(value: 0)
        let log = Mutex<[String]>([])
        let trigger = stop.handleEvents(receiveOutput: { _ in stopArrived.signal() })
        let cancellable = upstream.prefix(untilOutputFrom: trigger).sink(
            receiveCompletion: { _ in log.withLock { $0.append("finished") } },
            receiveValue: { value in
                inside.signal()
                // The stop is on its way into the operator before this delivery ends.
                stopArrived.wait()
                log.withLock { $0.append("value \(value)") }
            })
        runOnThreads(2) { thread in
            if thread == 0 {
                upstream.send(1)
            } else {
                inside.wait()
                stop.send()
            }
        }
        upstream.send(2)
        #expect(log.withLock { $0 } == ["value 1", "finished"])
        cancellable.cancel()
    }

    /// Upstream sends on one thread while the stop comes on another: a prefix of the values goes
    /// down, then the finish, never overlapping, and TSan sees no race.
    @Test func stopRacingValuesDeliversAPrefixThenFinishes() {
        for _ in 0..<50 {
            let upstream = PassthroughSubject<Int, Never>()
            let stop = PassthroughSubject<Void, Never>()
            let detector = ReentryDetector()
            let events = Mutex<[TestEvent<Int, Never>]>([])
            let cancellable = upstream.prefix(untilOutputFrom: stop).sink(
                receiveCompletion: { completion in
                    detector.enter(spin: 500) { events.withLock { $0.append(.completion(completion)) } }
                },
                receiveValue: { value in
                    detector.enter(spin: 500) { events.withLock { $0.append(.value(value)) } }
                })
            runOnThreads(2) { thread in
                if thread == 0 {
                    for value in 0..<200 { upstream.send(value) }
                } else {
                    stop.send()
                }
            }
            let recorded = events.withLock { $0 }
            #expect(detector.overlaps == 0)
            #expect(recorded.last == .completion(.finished))
            let values = recorded.compactMap(\.input)
            #expect(values == Array(0..<values.count))
            #expect(recorded.count == values.count + 1)
            cancellable.cancel()
        }
    }

    @Test func aStopSentFromInsideDeliveryFinishesNested() {
        let upstream = PassthroughSubject<Int, Never>()
        let stop = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: stop).subscribe(subscriber)
        subscriber.onReceiveValue { _ in stop.send(0) }
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    // MARK: Memory

    @Test func releasesEverythingAfterTheStop() {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        let upstream = PassthroughSubject<Int, Never>()
        let stop = PassthroughSubject<Int, Never>()
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.prefix(untilOutputFrom: stop).subscribe(subscriber)
            upstream.send(1)
            stop.send(0)
        }
        #expect(weakSubscriber == nil)
    }

    @Test func releasesEverythingAfterCancel() {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        let upstream = PassthroughSubject<Int, Never>()
        let stop = PassthroughSubject<Int, Never>()
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.prefix(untilOutputFrom: stop).subscribe(subscriber)
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
    }

    @Test func releasesEverythingAfterUpstreamFinishes() {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        let upstream = PassthroughSubject<Int, Never>()
        let stop = PassthroughSubject<Int, Never>()
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.prefix(untilOutputFrom: stop).subscribe(subscriber)
            upstream.send(completion: .finished)
        }
        #expect(weakSubscriber == nil)
    }
}

/// A publisher that never sends anything and remembers its subscriber's identity.
private final class IdentityRecorder<Output>: Publisher, @unchecked Sendable {
    typealias Failure = Never

    // @unchecked: set once, on the test's thread.
    var identifier: CombineIdentifier?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        identifier = subscriber.combineIdentifier
    }
}
