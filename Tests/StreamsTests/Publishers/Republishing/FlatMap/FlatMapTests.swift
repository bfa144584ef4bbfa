import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct FlatMapTests {
    // MARK: Values and ordering

    @Test func flattensSequencesInOrder() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.flatMap { [$0, $0 * 10].publisher }.subscribe(subscriber)
        #expect(
            subscriber.events == [
                .subscription, .value(1), .value(10), .value(2), .value(20), .value(3), .value(30),
                .completion(.finished),
            ])
    }

    @Test func maxOnePublisherRunsThemOneAfterAnother() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        [first, second].publisher.flatMap(maxPublishers: .max(1)) { $0 }.subscribe(subscriber)
        first.send(1)
        second.send(99)
        first.send(2)
        first.send(completion: .finished)
        second.send(3)
        second.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func maxOnePublisherKeepsOrderWithBoundedDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        (1...5).publisher.flatMap(maxPublishers: .max(1)) { n in (0..<3).map { n * 10 + $0 }.publisher }
            .subscribe(subscriber)
        #expect(subscriber.values == (1...5).flatMap { n in (0..<3).map { n * 10 + $0 } })
        #expect(subscriber.completion == .finished)
    }

    @Test func valuesFromSeveralLivePublishersInterleaveAsSent() {
        let upstream = PassthroughSubject<PassthroughSubject<Int, FlowError>, FlowError>()
        let a = PassthroughSubject<Int, FlowError>()
        let b = PassthroughSubject<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(a)
        upstream.send(b)
        a.send(1)
        b.send(2)
        a.send(3)
        #expect(subscriber.values == [1, 2, 3])
    }

    // MARK: Demand

    @Test func asksUpstreamForMaxPublishers() {
        let bounded = FlowPublisher<Int, Never>()
        bounded.flatMap(maxPublishers: .max(2)) { Just($0) }.subscribe(TestSubscriber<Int, Never>())
        #expect(bounded.subscription?.history == [.requested(.max(2))])
        let unbounded = FlowPublisher<Int, Never>()
        unbounded.flatMap { Just($0) }.subscribe(TestSubscriber<Int, Never>())
        #expect(unbounded.subscription?.history == [.requested(.unlimited)])
    }

    @Test func asksUpstreamForOneMoreWhenAPublisherFinishes() {
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.flatMap(maxPublishers: .max(2)) { [$0].publisher }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.subscription?.history == [.requested(.max(2)), .requested(.max(1)), .requested(.max(1))])
        #expect(subscriber.values == [1, 2])
        let unbounded = FlowPublisher<Int, Never>()
        unbounded.flatMap { [$0].publisher }.subscribe(TestSubscriber<Int, Never>())
        unbounded.send(1)
        #expect(unbounded.subscription?.history == [.requested(.unlimited)])
    }

    @Test func childrenAreAskedForOneValueAtATime() {
        let upstream = PassthroughSubject<FlowPublisher<Int, Never>, Never>()
        let first = FlowPublisher<Int, Never>()
        let second = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(first)
        upstream.send(second)
        #expect(first.subscription?.history == [.requested(.max(1))])
        #expect(second.subscription?.history == [.requested(.max(1))])
        #expect(first.send(1) == .max(1))
        #expect(first.send(2) == .max(1))
        #expect(first.send(3) == Subscribers.Demand.none)
        #expect(first.send(4) == Subscribers.Demand.none)
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(10))
        #expect(subscriber.values == [1, 2, 3, 4])
        #expect(first.subscription?.history == [.requested(.max(1)), .requested(.max(1)), .requested(.max(1))])
        #expect(second.subscription?.history == [.requested(.max(1))])
    }

    @Test func unlimitedDemandUnleashesEveryChild() {
        let upstream = PassthroughSubject<FlowPublisher<Int, Never>, Never>()
        let early = FlowPublisher<Int, Never>()
        let late = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(early)
        #expect(early.subscription?.history == [.requested(.max(1))])
        subscriber.request(.unlimited)
        #expect(early.subscription?.history == [.requested(.max(1)), .requested(.unlimited)])
        upstream.send(late)
        #expect(late.subscription?.history == [.requested(.unlimited)])
        #expect(late.send(5) == Subscribers.Demand.none)
        #expect(subscriber.values == [5])
    }

    @Test func bufferedValuesWaitForDemand() {
        let upstream = PassthroughSubject<Int, Never>()
        let child = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.flatMap { _ in child }.subscribe(subscriber)
        upstream.send(0)
        child.send(1)
        child.send(2)
        #expect(subscriber.values == [])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        #expect(child.subscription?.history == [.requested(.max(1)), .requested(.max(1)), .requested(.max(1))])
    }

    @Test func reentrantRequestDoesNotRecurse() {
        let upstream = PassthroughSubject<Int, Never>()
        let child = FlowPublisher<Int, Never>()
        let depth = ReentryDetector()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { value in
            depth.enter {
                if value == 0 { subscriber.request(.max(3)) }
            }
        }
        upstream.flatMap(maxPublishers: .max(1)) { _ in child }.subscribe(subscriber)
        upstream.send(0)
        for value in 0..<7 { child.send(value) }
        #expect(subscriber.values == [0, 1, 2, 3])
        subscriber.request(.max(10))
        #expect(subscriber.values == [0, 1, 2, 3, 4, 5, 6])
        #expect(depth.overlaps == 0)
    }

    @Test func childValueSentDuringDeliveryIsDeliveredInsideIt() {
        let upstream = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let depth = ReentryDetector()
        var order: [String] = []
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { value in
            depth.enter {
                order.append("begin \(value)")
                if value == 1 { second.send(2) }
                order.append("end \(value)")
            }
        }
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(first)
        upstream.send(second)
        first.send(1)
        #expect(subscriber.values == [1, 2])
        // As in Combine, a value sent from inside a delivery on the same thread goes down at once.
        #expect(order == ["begin 1", "begin 2", "end 2", "end 1"])
        #expect(depth.overlaps == 1)
    }

    @Test func childValueSentDuringDeliveryReturnsItsDemandInsteadOfRequesting() {
        let upstream = FlowPublisher<FlowPublisher<Int, Never>, Never>()
        let first = FlowPublisher<Int, Never>()
        let second = FlowPublisher<Int, Never>()
        var returned: [Subscribers.Demand] = []
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        subscriber.onReceiveValue { value in
            if value == 1 { returned.append(second.send(2)) }
        }
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(first)
        upstream.send(second)
        #expect(first.send(1) == .max(1))
        #expect(returned == [.max(1)])
        #expect(subscriber.values == [1, 2])
        #expect(upstream.subscription?.history == [.requested(.unlimited)])
        #expect(first.subscription?.history == [.requested(.max(1))])
        #expect(second.subscription?.history == [.requested(.max(1))])
    }

    // MARK: Completion

    @Test func finishesOnlyWhenUpstreamAndEveryChildFinished() {
        let upstream = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(first)
        upstream.send(second)
        upstream.send(completion: .finished)
        first.send(1)
        first.send(completion: .finished)
        #expect(subscriber.completion == nil)
        second.send(2)
        second.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func childrenFinishingBeforeUpstreamWaitForIt() {
        let upstream = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.flatMap { Just($0) }.subscribe(subscriber)
        upstream.send(1)
        #expect(subscriber.events == [.subscription, .value(1)])
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func bufferedValuesDelayCompletion() {
        let upstream = PassthroughSubject<Int, Never>()
        let child = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.flatMap { _ in child }.subscribe(subscriber)
        upstream.send(0)
        child.send(1)
        child.send(2)
        upstream.send(completion: .finished)
        child.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func emptyUpstreamFinishesAtOnce() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Empty<Int, Never>().flatMap { Just($0) }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    // MARK: Failure

    @Test func childFailureCancelsTheOtherChildrenButNotUpstream() {
        let upstream = FlowPublisher<FlowPublisher<Int, FlowError>, FlowError>()
        let first = FlowPublisher<Int, FlowError>()
        let failing = FlowPublisher<Int, FlowError>()
        let third = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(first)
        upstream.send(failing)
        upstream.send(third)
        failing.send(completion: .failure(FlowError(4)))
        #expect(first.subscription?.history == [.requested(.unlimited), .cancelled])
        #expect(failing.subscription?.history == [.requested(.unlimited)])
        #expect(third.subscription?.history == [.requested(.unlimited), .cancelled])
        // As in Combine, upstream is let go but not cancelled; what it sends next is ignored.
        #expect(upstream.subscription?.history == [.requested(.unlimited)])
        let late = FlowPublisher<Int, FlowError>()
        #expect(upstream.send(late) == .none)
        #expect(late.subscribeCount == 0)
        third.send(completion: .failure(FlowError(5)))
        #expect(subscriber.events == [.subscription, .completion(.failure(FlowError(4)))])
        // A value sent after the failure has been delivered is dropped.
        #expect(first.send(1) == .none)
        #expect(subscriber.events == [.subscription, .completion(.failure(FlowError(4)))])
    }

    @Test func valueSentFromInsideTheFailureGoesDownWhenThereIsDemand() {
        let upstream = FlowPublisher<FlowPublisher<Int, FlowError>, FlowError>()
        let child = FlowPublisher<Int, FlowError>()
        var events: [String] = []
        var subscription: (any Subscription)?
        let subscriber = AnySubscriber<Int, FlowError>(
            receiveSubscription: { subscription = $0 },
            receiveValue: { value in
                events.append("value \(value)")
                return .none
            },
            receiveCompletion: { _ in
                events.append("failure")
                child.send(1)
            })
        upstream.flatMap(maxPublishers: .max(1)) { $0 }.subscribe(subscriber)
        upstream.send(child)
        subscription?.request(.max(5))
        child.send(completion: .failure(FlowError(1)))
        #expect(events == ["failure", "value 1"])
        #expect(upstream.subscription?.history == [.requested(.max(1))])
        #expect(child.subscription?.history == [.requested(.max(1))])
    }

    @Test func valueFromAFinishedChildStillGoesDown() {
        let upstream = FlowPublisher<FlowPublisher<Int, Never>, Never>()
        let first = FlowPublisher<Int, Never>()
        let second = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(first)
        upstream.send(second)
        upstream.send(completion: .finished)
        first.send(1)
        first.send(completion: .finished)
        #expect(first.send(2) == .none)
        second.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func everyChildCompletionAsksUpstreamForOneMorePublisher() {
        let upstream = FlowPublisher<FlowPublisher<Int, Never>, Never>()
        let child = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.flatMap(maxPublishers: .max(1)) { $0 }.subscribe(subscriber)
        var depth = 3
        upstream.subscription?.onRequest { _ in
            guard depth > 0 else { return }
            depth -= 1
            child.send(completion: .finished)
        }
        upstream.send(child)
        child.send(completion: .finished)
        #expect(upstream.subscription?.history == Array(repeating: .requested(.max(1)), count: 5))
        #expect(subscriber.events == [.subscription])
    }

    @Test func completionBeforeTheSubscriptionIsPassedOn() {
        let subscriber = TestSubscriber<Int, Never>()
        let flatMap = FlowClosurePublisher<Int, Never> { $0.receive(completion: .finished) }
            .flatMap { Just($0) }
        flatMap.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func subscriptionGoesDownBeforeSubscribingUpstreamAndNoPublishersAreAskedAsGiven() {
        let upstream = FlowPublisher<FlowPublisher<Int, Never>, Never>()
        var upstreamSubscribedFirst = false
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.onSubscribe { upstreamSubscribedFirst = subscriber.subscriptionCount == 0 }
        upstream.flatMap(maxPublishers: .none) { $0 }.subscribe(subscriber)
        #expect(!upstreamSubscribedFirst)
        #expect(upstream.subscription?.history == [.requested(.none)])
    }

    @Test func upstreamCallingFromInsideTheCancellationItsFailureCausesIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = FlowPublisher<FlowPublisher<Int, FlowError>, FlowError>()
            let child = FlowPublisher<Int, FlowError>()
            let subscriber = TestSubscriber<Int, FlowError>()
            upstream.flatMap { $0 }.subscribe(subscriber)
            upstream.send(child)
            child.subscription?.onCancel { upstream.send(completion: .failure(FlowError(2))) }
            upstream.send(completion: .failure(FlowError(1)))
        }
        expectTrapMessage(
            trap1,
            contains: "FlatMap's upstream sent an event while its failure was still cancelling the new publishers")
    }

    @Test func upstreamFailureCancelsChildrenAndDropsBufferedValues() {
        let upstream = PassthroughSubject<PassthroughSubject<Int, FlowError>, FlowError>()
        let child = PassthroughSubject<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .max(1))
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(child)
        child.send(1)
        child.send(2)
        upstream.send(completion: .failure(FlowError(3)))
        subscriber.request(.max(5))
        child.send(4)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(FlowError(3)))])
    }

    @Test func failureDuringDeliveryWaitsForTheDeliveryToEnd() {
        let upstream = PassthroughSubject<PassthroughSubject<Int, FlowError>, FlowError>()
        let child = PassthroughSubject<Int, FlowError>()
        let other = PassthroughSubject<Int, FlowError>()
        var order: [String] = []
        let subscriber = TestSubscriber<Int, FlowError>()
        subscriber.onReceiveValue { value in
            order.append("begin \(value)")
            other.send(completion: .failure(FlowError(8)))
            order.append("end \(value)")
        }
        upstream.flatMap { $0 }.subscribe(subscriber)
        upstream.send(child)
        upstream.send(other)
        child.send(1)
        #expect(order == ["begin 1", "end 1"])
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(FlowError(8)))])
    }

    // MARK: Cancellation

    @Test func cancelCancelsUpstreamAndChildren() {
        let upstream = FlowPublisher<Int, Never>()
        let child = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.flatMap { _ in child }.subscribe(subscriber)
        upstream.send(0)
        subscriber.cancel()
        #expect(upstream.subscription?.history == [.requested(.unlimited), .cancelled])
        #expect(child.subscription?.history == [.requested(.unlimited), .cancelled])
        #expect(child.send(1) == Subscribers.Demand.none)
        upstream.send(1)
        #expect(child.subscribeCount == 1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelFromReceiveValueStopsDelivery() {
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        [1, 2].publisher.flatMap { [$0, $0].publisher }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func cancelBeforeUpstreamSubscribesCancelsItOnArrival() {
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        let flatMap = upstream.flatMap { Just($0) }
        upstream.onSubscribe { subscriber.cancel() }
        flatMap.subscribe(subscriber)
        #expect(upstream.subscription?.history == [.cancelled])
    }

    // MARK: Threads

    @Test func childrenOnManyThreadsWithUnlimitedDemand() {
        let merging = ManyThreadsMerging(threads: 8, perThread: 500)
        let children = (0..<merging.threads).map { _ in PassthroughSubject<Int, Never>() }
        children.publisher.flatMap { $0 }.subscribe(merging.subscriber)
        DispatchQueue.concurrentPerform(iterations: merging.threads) { thread in
            for value in merging.values(of: thread) { children[thread].send(value) }
            children[thread].send(completion: .finished)
        }
        merging.expectEverythingArrived()
    }

    @Test func childrenOnManyThreadsWithBoundedDemand() {
        let merging = ManyThreadsMerging(threads: 6, perThread: 300, bounded: true)
        let sources = (0..<merging.threads).map { _ in ThreadedSource() }
        sources.publisher.flatMap { $0 }.subscribe(merging.subscriber)
        DispatchQueue.concurrentPerform(iterations: merging.threads) { thread in
            sources[thread].run(Array(merging.values(of: thread)))
        }
        merging.expectEverythingArrived()
    }

    @Test func concurrentRequestsAndChildValues() {
        let threads = 4
        let perThread = 250
        let children = (0..<threads).map { _ in PassthroughSubject<Int, Never>() }
        let detector = ReentryDetector()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        subscriber.onReceiveValue { _ in detector.enter(spin: 2_000) {} }
        children.publisher.flatMap { $0 }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: threads * 2) { task in
            if task < threads {
                for index in 0..<perThread { children[task].send(task * perThread + index) }
            } else {
                for _ in 0..<perThread { subscriber.request(.max(1)) }
            }
        }
        // Each child subject only sends while it has demand, so fewer values may arrive than were sent,
        // but never more than were requested, and never two at once.
        let values = subscriber.values
        #expect(values.count <= threads * perThread)
        #expect(Set(values).count == values.count)
        #expect(detector.overlaps == 0)
        subscriber.request(.unlimited)
        for child in children { child.send(-1) }
        #expect(subscriber.values.filter { $0 == -1 }.count == threads)
    }

    // MARK: Types, naming, lifetime

    @Test func overloadsMatchCombine() {
        let failing = PassthroughSubject<Int, FlowError>()
        let never = PassthroughSubject<Int, Never>()
        let sameFailure: Publishers.FlatMap<Fail<Int, FlowError>, PassthroughSubject<Int, FlowError>> =
            failing.flatMap { _ in Fail<Int, FlowError>(error: FlowError()) }
        let upstreamNever:
            Publishers.FlatMap<
                Fail<Int, FlowError>, Publishers.SetFailureType<PassthroughSubject<Int, Never>, FlowError>
            > =
                never.flatMap { _ in Fail<Int, FlowError>(error: FlowError()) }
        let childNever:
            Publishers.FlatMap<Publishers.SetFailureType<Just<Int>, FlowError>, PassthroughSubject<Int, FlowError>> =
                failing.flatMap { Just($0) }
        let bothNever: Publishers.FlatMap<Just<Int>, PassthroughSubject<Int, Never>> = never.flatMap { Just($0) }
        #expect(sameFailure.maxPublishers == .unlimited)
        #expect(upstreamNever.maxPublishers == .unlimited)
        #expect(childNever.maxPublishers == .unlimited)
        #expect(bothNever.flatMap(maxPublishers: .max(3)) { Just($0) }.maxPublishers == .max(3))

        let subscriber = TestSubscriber<Int, FlowError>()
        never.flatMap { value in
            value > 0
                ? Just(value).setFailureType(to: FlowError.self).eraseToAnyPublisher()
                : Fail(error: FlowError(value)).eraseToAnyPublisher()
        }
        .subscribe(subscriber)
        never.send(1)
        never.send(0)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(FlowError(0)))])
    }

    @Test func givesTheSubscriptionDownstreamBeforeSubscribingUpstream() {
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        var subscriberHadSubscription: Bool?
        upstream.onSubscribe { subscriberHadSubscription = subscriber.subscriptionCount == 1 }
        upstream.flatMap { Just($0) }.subscribe(subscriber)
        #expect(subscriberHadSubscription == true)
    }

    @Test func describesItselfAsFlatMap() {
        let upstream = FlowPublisher<Int, Never>()
        let child = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.flatMap { _ in child }.subscribe(subscriber)
        upstream.send(0)
        #expect(subscriber.subscription.map { String(describing: $0) } == "FlatMap")
        #expect(upstream.subscriberDescription == "FlatMap")
        #expect(child.subscriberDescription == "FlatMap")
    }

    @Test func releasesTheTransformAndSubscriberAfterCancel() {
        let upstream = PassthroughSubject<Int, Never>()
        let child = PassthroughSubject<Int, Never>()
        weak var weakToken: FlowToken?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let token = FlowToken()
            weakToken = token
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.flatMap { _ in withExtendedLifetime(token) { child } }.subscribe(subscriber)
            upstream.send(0)
            subscriber.cancel()
        }
        #expect(weakToken == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func releasesTheSubscriberAfterCompletion() {
        let upstream = PassthroughSubject<Int, Never>()
        let child = PassthroughSubject<Int, Never>()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            upstream.flatMap { _ in child }.subscribe(subscriber)
            upstream.send(0)
            upstream.send(completion: .finished)
            child.send(completion: .finished)
            #expect(subscriber.completion == .finished)
        }
        #expect(weakSubscriber == nil)
    }
}
