import Streams
import StreamsTesting
import Testing

@Suite struct ReplaceErrorTests {
    @Test func failureBecomesTheReplacementThenFinished() {
        let subscriber = TestSubscriber<Int, Never>()
        Fail<Int, FlowError>(error: FlowError()).replaceError(with: 42).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
    }

    @Test func valuesBeforeTheFailurePassThrough() {
        let subject = PassthroughSubject<Int, FlowError>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.replaceError(with: 42).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(FlowError()))
        subject.send(3)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(42), .completion(.finished)])
    }

    @Test func normalCompletionPassesThroughWithoutReplacement() {
        let subscriber = TestSubscriber<Int, Never>()
        [1].publisher.setFailureType(to: FlowError.self).replaceError(with: 42).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func replacementWaitsForOutstandingDemand() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.replaceError(with: 42).subscribe(subscriber)
        #expect(upstream.send(1) == Subscribers.Demand.none)
        upstream.send(completion: .failure(FlowError()))
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(42), .completion(.finished)])
    }

    @Test func replacementGoesAtOnceWhenDemandIsLeft() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        upstream.replaceError(with: 42).subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        upstream.send(completion: .failure(FlowError()))
        #expect(subscriber.events == [.subscription, .value(1), .value(42), .completion(.finished)])
    }

    @Test func demandIsForwardedUpstream() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.replaceError(with: 42).subscribe(subscriber)
        subscriber.request(.max(3))
        #expect(upstream.subscription?.history == [.requested(.max(2)), .requested(.max(3))])
    }

    @Test func cancelStopsEverythingIncludingTheReplacement() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.replaceError(with: 42).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.subscription?.history == [.requested(.unlimited), .cancelled])
        #expect(upstream.send(1) == Subscribers.Demand.none)
        upstream.send(completion: .failure(FlowError()))
        #expect(subscriber.events == [.subscription])
    }

    @Test func reentrantRequestFromReceiveValue() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        [1, 2, 3].publisher.setFailureType(to: FlowError.self).append(Fail(error: FlowError()))
            .replaceError(with: 42).subscribe(subscriber)
        #expect(
            subscriber.events == [.subscription, .value(1), .value(2), .value(3), .value(42), .completion(.finished)])
    }

    @Test func describesItselfAsReplaceError() {
        let upstream = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.replaceError(with: 1).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "ReplaceError")
        #expect(upstream.subscriberDescription == "ReplaceError")
    }

    @Test func mirrorHasNoChildren() {
        let subscriber = TestSubscriber<Int, Never>()
        FlowPublisher<Int, FlowError>().replaceError(with: 1).subscribe(subscriber)
        #expect(subscriber.subscription.map { Mirror(reflecting: $0).children.count } == 0)
    }

    @Test func releasesTheSubscriberAfterCancel() {
        let subject = PassthroughSubject<Int, FlowError>()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.replaceError(with: 0).subscribe(subscriber)
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
    }

    @Test func releasesTheSubscriberAfterFailure() {
        let subject = PassthroughSubject<Int, FlowError>()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.replaceError(with: 0).subscribe(subscriber)
            subject.send(completion: .failure(FlowError()))
            #expect(subscriber.values == [0])
        }
        #expect(weakSubscriber == nil)
    }

    @Test func justIsReturnedUnchanged() {
        let just: Just<Int> = Just(1).replaceError(with: 2)
        #expect(just.output == 1)
    }
    @Test func aValueNobodyAskedForStopsTheProgram() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = FlowPublisher<Int, FlowError>()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            upstream.replaceError(with: 0).subscribe(subscriber)
            upstream.send(1)
        }
        expectTrapMessage(trap1, contains: "ReplaceError received a value from its upstream with no outstanding demand")
    }

    @Test func aCancelBeforeTheSubscriptionArrivesIsIgnored() {
        let upstream = IdentifyingPublisher<Int, FlowError>(sendsSubscription: false)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.replaceError(with: 0).subscribe(subscriber)
        upstream.subscriberAsSubscription?.cancel()
        let subscription = FlowSubscription()
        upstream.send(subscription: subscription)
        #expect(subscription.history == [.requested(.max(2))])
        #expect(subscriber.events == [.subscription])
    }
}
