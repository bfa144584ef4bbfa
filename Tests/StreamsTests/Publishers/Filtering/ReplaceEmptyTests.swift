import Streams
import StreamsTesting
import Testing

@Suite struct ReplaceEmptyTests {
    @Test func emptyUpstreamPublishesTheReplacementThenFinishes() {
        let subscriber = TestSubscriber<Int, Never>()
        Empty<Int, Never>().replaceEmpty(with: 42).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
    }

    @Test func valuesPassThroughUnchanged() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.replaceEmpty(with: 42).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func failurePassesThroughWithoutReplacement() {
        let subscriber = TestSubscriber<Int, FlowError>()
        Fail<Int, FlowError>(error: FlowError(7)).replaceEmpty(with: 42).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(FlowError(7)))])
    }

    @Test func replacementWaitsForDemand() {
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.replaceEmpty(with: 42).subscribe(subscriber)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
        subscriber.request(.max(1))
        #expect(subscriber.values == [42])
    }

    @Test func replacementGoesAtOnceWhenDemandWasRequested() {
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.replaceEmpty(with: 42).subscribe(subscriber)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
    }

    @Test func mirrorHasNoChildren() {
        let subscriber = TestSubscriber<Int, Never>()
        FlowPublisher<Int, Never>().replaceEmpty(with: 42).subscribe(subscriber)
        #expect(subscriber.subscription.map { Mirror(reflecting: $0).children.count } == 0)
    }

    @Test func asksUpstreamForEverythingAndPassesRequestsOnLikeCombine() {
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(4))
        upstream.replaceEmpty(with: 42).subscribe(subscriber)
        #expect(upstream.subscription?.history == [.requested(.max(1)), .requested(.unlimited)])
        #expect(upstream.send(1) == .max(4))
        #expect(upstream.send(2) == .max(4))
        subscriber.request(.max(3))
        #expect(upstream.subscription?.history == [.requested(.max(1)), .requested(.unlimited), .requested(.max(3))])
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])

        let sequenceSubscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        [1, 2, 3].publisher.replaceEmpty(with: 42).subscribe(sequenceSubscriber)
        #expect(sequenceSubscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func aCancelBeforeTheSubscriptionArrivesIsIgnored() {
        let upstream = IdentifyingPublisher<Int, Never>(sendsSubscription: false)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.replaceEmpty(with: 42).subscribe(subscriber)
        upstream.subscriberAsSubscription?.cancel()
        let subscription = FlowSubscription()
        upstream.send(subscription: subscription)
        #expect(subscription.history == [.requested(.unlimited)])
        #expect(subscriber.events == [.subscription])
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let upstream = IdentifyingPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.replaceEmpty(with: 42).subscribe(subscriber)
        let second = FlowSubscription()
        upstream.send(subscription: second)
        #expect(second.history == [.cancelled])
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func completionsAfterTheEndAreIgnored() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        upstream.replaceEmpty(with: 33).subscribe(subscriber)
        upstream.send(completion: .finished)
        upstream.send(completion: .finished)
        upstream.send(completion: .failure(FlowError()))
        #expect(subscriber.events == [.subscription, .value(33), .completion(.finished)])
    }

    @Test func cancelStopsEverythingIncludingTheReplacement() {
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.replaceEmpty(with: 42).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.subscription?.history == [.requested(.unlimited), .requested(.unlimited), .cancelled])
        #expect(upstream.send(1) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelWhileTheReplacementWaitsDropsIt() {
        let upstream = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        let publisher = upstream.replaceEmpty(with: 42)
        publisher.subscribe(subscriber)
        let subscription = subscriber.subscription
        upstream.send(completion: .finished)
        subscription?.cancel()
        subscription?.request(.max(1))
        #expect(subscriber.events == [.subscription])
    }

    @Test func reentrantCancelFromReceiveValue() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        subject.replaceEmpty(with: 42).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func describesItselfAsReplaceEmpty() {
        let subscriber = TestSubscriber<Int, Never>()
        Empty<Int, Never>(completeImmediately: false).replaceEmpty(with: 1).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "ReplaceEmpty")
        let upstream = FlowPublisher<Int, Never>()
        upstream.replaceEmpty(with: 1).subscribe(TestSubscriber<Int, Never>())
        #expect(upstream.subscriberDescription == "ReplaceEmpty")
    }

    @Test func releasesTheSubscriberAfterCancel() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.replaceEmpty(with: 0).subscribe(subscriber)
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
    }

    @Test func releasesTheSubscriberAfterCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.replaceEmpty(with: 0).subscribe(subscriber)
            subject.send(completion: .finished)
            #expect(subscriber.values == [0])
        }
        #expect(weakSubscriber == nil)
    }

    @Test func justIsReturnedUnchanged() {
        let just: Just<Int> = Just(1).replaceEmpty(with: 2)
        #expect(just.output == 1)
    }
}
