import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct DropUntilOutputTests {
    // MARK: Values and demand

    @Test func dropsValuesUntilTheOtherPublisherEmits() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let gate = SelectionUpstream<String, SelectionTestError>()
        let subscriber = TestSubscriber<Int, SelectionTestError>(initialDemand: .max(10), demandPerValue: .max(2))
        upstream.drop(untilOutputFrom: gate).subscribe(subscriber)
        #expect(gate.events == [.requested(.max(1))])
        #expect(upstream.events == [.requested(.max(10))])
        #expect(upstream.send(1) == Subscribers.Demand.none)
        #expect(upstream.send(2) == Subscribers.Demand.none)
        #expect(gate.send("open") == Subscribers.Demand.none)
        #expect(upstream.send(3) == .max(2))
        #expect(upstream.send(4) == .max(2))
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(3), .value(4), .completion(.finished)])
        // The gate's element releases its subscription without cancelling it, as in Combine.
        #expect(gate.events == [.requested(.max(1))])
        #expect(upstream.events == [.requested(.max(10))])
    }

    @Test func aGateThatOpensFirstLetsEverythingThrough() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.drop(untilOutputFrom: Just("go")).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func subscribesDownstreamThenTheGateThenUpstream() {
        let upstream = FlowPublisher<Int, Never>()
        let gate = FlowPublisher<Int, Never>()
        var order: [String] = []
        gate.onSubscribe { order.append("gate") }
        upstream.onSubscribe { order.append("upstream") }
        upstream.drop(untilOutputFrom: gate)
            .handleEvents(receiveSubscription: { _ in order.append("downstream") })
            .subscribe(TestSubscriber<Int, Never>(initialDemand: .none))
        #expect(order == ["downstream", "gate", "upstream"])
        #expect(gate.subscription?.history == [.requested(.max(1))])
        #expect(upstream.subscription?.history == [])
    }

    @Test func requestsMadeBeforeUpstreamSubscribesAreGatheredAndSent() {
        let upstream = SelectionUpstream<Int, Never>(sendsSubscription: false)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        upstream.drop(untilOutputFrom: Just(0)).subscribe(subscriber)
        subscriber.request(.max(4))
        let subscription = SelectionSubscription()
        upstream.send(subscription: subscription)
        #expect(subscription.events == [.requested(.max(7))])
        subscriber.request(.max(1))
        #expect(subscription.events == [.requested(.max(7)), .requested(.max(1))])
    }

    @Test func droppedValuesUseUpTheDemandWhilePassedValuesDoNot() {
        let upstream = SelectionUpstream<Int, Never>()
        let gate = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.drop(untilOutputFrom: gate).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        gate.send(0)
        // Both requested values were dropped; these go down all the same, as upstream sends them.
        #expect(upstream.send(3) == .max(1))
        #expect(upstream.send(4) == .max(1))
        #expect(subscriber.values == [3, 4])
    }

    @Test func droppingAValueBeyondTheDemandIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = SelectionUpstream<Int, Never>()
            let gate = SelectionUpstream<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
            upstream.drop(untilOutputFrom: gate).subscribe(subscriber)
            upstream.send(1)
            upstream.send(2)
        }
        expectTrapMessage(trap1, contains: "drop(untilOutputFrom:) received a value beyond the demand it requested")
    }

    /// After the gate opened, upstream is asked for the demand downstream returns for each value,
    /// beyond what downstream requested; a value still on its way when downstream cancels is
    /// ignored, not taken for one beyond the demand. (Before, it stopped the program; the
    /// concurrent schedules saw it with the cancel on another thread.)
    @Test func aValueOnItsWayWhenDownstreamCancelsIsIgnoredWhateverTheDemand() {
        let upstream = SelectionUpstream<Int, Never>()
        let gate = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
        upstream.drop(untilOutputFrom: gate).subscribe(subscriber)
        #expect(upstream.send(1) == Subscribers.Demand.none)  // Dropped: the requested demand is used up.
        gate.send(0)
        #expect(upstream.send(2) == .max(2))
        subscriber.cancel()
        #expect(upstream.send(3) == Subscribers.Demand.none)
        #expect(upstream.send(4) == Subscribers.Demand.none)
        #expect(subscriber.values == [2])
        #expect(upstream.events == [.requested(.max(1)), .cancelled])
    }

    // MARK: Completion and failure

    @Test func upstreamFailurePassesOnAndCancelsTheGate() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let gate = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<Int, SelectionTestError>()
        upstream.drop(untilOutputFrom: gate).subscribe(subscriber)
        upstream.send(completion: .failure(.oops))
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(gate.events == [.requested(.max(1)), .cancelled])
        #expect(upstream.events == [.requested(.unlimited)])
    }

    @Test func gateCompletingFirstPassesOnAndCancelsUpstream() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let gate = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<Int, SelectionTestError>()
        upstream.drop(untilOutputFrom: gate).subscribe(subscriber)
        gate.send(completion: .failure(.other))
        #expect(subscriber.events == [.subscription, .completion(.failure(.other))])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        #expect(gate.events == [.requested(.max(1))])
    }

    @Test func gateCompletingAfterItOpenedChangesNothing() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let gate = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<Int, SelectionTestError>()
        upstream.drop(untilOutputFrom: gate).subscribe(subscriber)
        gate.send(0)
        gate.send(completion: .failure(.other))
        upstream.send(5)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
        #expect(upstream.events == [.requested(.unlimited)])
    }

    /// Combine keeps no end state for the gate's completion: each one goes down, and a later element
    /// from the gate still opens it.
    @Test func likeCombineEveryEarlyGateCompletionGoesDown() {
        let upstream = SelectionUpstream<Int, Never>()
        let gate = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(5))
        upstream.drop(untilOutputFrom: gate).subscribe(subscriber)
        gate.send(completion: .finished)
        gate.send(completion: .finished)
        upstream.send(1)
        gate.send(0)
        upstream.send(2)
        #expect(subscriber.events == [.subscription, .completion(.finished), .completion(.finished), .value(2)])
    }

    // MARK: Cancellation

    @Test func cancelCancelsUpstreamThenTheGateOnce() {
        let upstream = FlowPublisher<Int, Never>()
        let gate = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.drop(untilOutputFrom: gate).subscribe(subscriber)
        var gateHistoryWhenUpstreamCancelled: [FlowSubscription.Event]?
        upstream.subscription?.onCancel { gateHistoryWhenUpstreamCancelled = gate.subscription?.history }
        subscriber.subscription?.cancel()
        subscriber.subscription?.cancel()
        #expect(gateHistoryWhenUpstreamCancelled == [.requested(.max(1))])
        #expect(upstream.subscription?.history == [.requested(.max(2)), .cancelled])
        #expect(gate.subscription?.history == [.requested(.max(1)), .cancelled])
        // After cancel: values are dropped, completions ignored, new subscriptions refused.
        #expect(upstream.send(1) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        gate.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
    }

    @Test func aSubscriptionArrivingAfterCancelIsCancelled() {
        let upstream = SelectionUpstream<Int, Never>(sendsSubscription: false)
        let subscriber = TestSubscriber<Int, Never>()
        upstream.drop(untilOutputFrom: PassthroughSubject<Int, Never>()).subscribe(subscriber)
        subscriber.cancel()
        let late = SelectionSubscription()
        upstream.send(subscription: late)
        #expect(late.events == [.cancelled])
    }

    @Test func aSecondUpstreamSubscriptionIsCancelled() {
        let upstream = SelectionUpstream<Int, Never>()
        let gate = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.drop(untilOutputFrom: gate).subscribe(subscriber)
        let second = SelectionSubscription()
        upstream.send(subscription: second)
        #expect(second.events == [.cancelled])
        let secondGate = SelectionSubscription()
        gate.send(subscription: secondGate)
        #expect(secondGate.events == [.cancelled])
    }

    // MARK: Identity and reflection

    @Test func describesItselfAsDropUntilOutputToBothPublishers() {
        let upstream = FlowPublisher<Int, Never>()
        let gate = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.drop(untilOutputFrom: gate).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "DropUntilOutput")
        #expect(upstream.subscriberDescription == "DropUntilOutput")
        #expect(gate.subscriberDescription == "DropUntilOutput")
        let mirror = Mirror(reflecting: subscriber.subscription!)
        #expect(mirror.children.isEmpty)
    }

    @Test func isEquatableWhenBothPublishersAre() {
        let a = Just(1).drop(untilOutputFrom: Just(2))
        #expect(a == Just(1).drop(untilOutputFrom: Just(2)))
        #expect(a != Just(1).drop(untilOutputFrom: Just(3)))
    }

    // MARK: Threads

    /// The gate opens on one thread while upstream sends on another: what goes down is every value
    /// from some point on, in order, and TSan sees no race.
    @Test func theGateOpensFromAnotherThread() {
        for _ in 0..<50 {
            let upstream = PassthroughSubject<Int, Never>()
            let gate = PassthroughSubject<Void, Never>()
            let received = Mutex<[Int]>([])
            let cancellable = upstream.drop(untilOutputFrom: gate).sink { value in
                received.withLock { $0.append(value) }
            }
            runOnThreads(2) { thread in
                if thread == 0 {
                    for value in 0..<200 { upstream.send(value) }
                } else {
                    gate.send()
                }
            }
            let values = received.withLock { $0 }
            if let first = values.first {
                #expect(values == Array(first..<200))
            }
            cancellable.cancel()
        }
    }

    /// Upstream and the gate complete on different threads at once: both completions go down, as in
    /// Combine, but one after the other.
    @Test func completionsFromBothSidesNeverOverlap() {
        for _ in 0..<100 {
            let upstream = PassthroughSubject<Int, Never>()
            let gate = PassthroughSubject<Int, Never>()
            let detector = ReentryDetector()
            let completions = Mutex(0)
            let cancellable = upstream.drop(untilOutputFrom: gate).sink(
                receiveCompletion: { _ in
                    detector.enter(spin: 2_000) { completions.withLock { $0 += 1 } }
                },
                receiveValue: { _ in })
            runOnThreads(2) { thread in
                if thread == 0 {
                    upstream.send(completion: .finished)
                } else {
                    gate.send(completion: .finished)
                }
            }
            #expect(detector.overlaps == 0)
            #expect(completions.withLock { $0 } >= 1)
            cancellable.cancel()
        }
    }

    @Test func aCompletionSentFromInsideDeliveryGoesDownNested() {
        let upstream = PassthroughSubject<Int, Never>()
        let gate = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.drop(untilOutputFrom: gate).subscribe(subscriber)
        gate.send(0)
        subscriber.onReceiveValue { _ in upstream.send(completion: .finished) }
        upstream.send(1)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    // MARK: Memory

    @Test func releasesEverythingAfterCancel() {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        weak var weakUpstream: PassthroughSubject<Int, Never>?
        let gate = PassthroughSubject<Int, Never>()
        do {
            let upstream = PassthroughSubject<Int, Never>()
            weakUpstream = upstream
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.drop(untilOutputFrom: gate).subscribe(subscriber)
            upstream.send(1)
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
        #expect(weakUpstream == nil)
    }

    @Test func releasesEverythingAfterCancelOnceTheGateHasOpened() {
        #expect(
            subscriberIsReleased { upstream, gate, subscriber in
                gate.send(0)
                upstream.send(1)
                subscriber.cancel()
            })
    }

    @Test func releasesEverythingAfterUpstreamFinishesOnceTheGateHasOpened() {
        #expect(
            subscriberIsReleased { upstream, gate, _ in
                gate.send(0)
                upstream.send(completion: .finished)
            })
    }

    @Test func releasesEverythingAfterUpstreamFinishes() {
        #expect(subscriberIsReleased { upstream, _, _ in upstream.send(completion: .finished) })
    }

    @Test func releasesEverythingAfterTheGateFinishesFirst() {
        #expect(subscriberIsReleased { _, gate, _ in gate.send(completion: .finished) })
    }

    /// Subscribes a subscriber to `upstream.drop(untilOutputFrom: gate)`, runs `scenario`, lets go of
    /// the subscriber and tells whether the operator let go of it too.
    private func subscriberIsReleased(
        after scenario: (
            _ upstream: PassthroughSubject<Int, Never>, _ gate: PassthroughSubject<Int, Never>,
            _ subscriber: TestSubscriber<Int, Never>
        ) -> Void
    ) -> Bool {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        let upstream = PassthroughSubject<Int, Never>()
        let gate = PassthroughSubject<Int, Never>()
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.drop(untilOutputFrom: gate).subscribe(subscriber)
            scenario(upstream, gate, subscriber)
        }
        return weakSubscriber == nil
    }
}
