import Streams
import StreamsTesting
import Testing

@Suite struct ResultPublisherTests {
    typealias Sut = Result<Int, CreateTestError>.Publisher

    @Test func successWaitsForDemandThenFinishes() {
        let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
        Result<Int, CreateTestError>.success(3).publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
    }

    @Test func failureArrivesAtOnceWithTheEmptySubscription() {
        var description: String?
        var completion: Subscribers.Completion<CreateTestError>?
        Sut(CreateTestError(code: 2)).subscribe(
            AnySubscriber(receiveSubscription: { description = "\($0)" }, receiveCompletion: { completion = $0 }))
        #expect(description == "Empty")
        #expect(completion == .failure(CreateTestError(code: 2)))
    }

    @Test func initializersBuildTheResult() {
        #expect(Sut(5).result == .success(5))
        #expect(Sut(CreateTestError(code: 1)).result == .failure(CreateTestError(code: 1)))
        #expect(Sut(.success(6)).result == .success(6))
        #expect(Result<Int, CreateTestError>.failure(CreateTestError()).publisher == Sut(CreateTestError()))
        #expect(Sut(1) != Sut(2))
    }

    @Test func subscriptionIsNamedOnce() throws {
        let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
        Sut(1).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Once")
        subscriber.cancel()
    }

    @Test func cancelBeforeDemandSendsNothing() throws {
        let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
        Sut(1).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        subscription.cancel()
        subscription.request(.max(1))
        #expect(subscriber.events == [.subscription])
    }

    @Test func reentrantRequestDeliversOnce() {
        let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .max(1), demandPerValue: .unlimited)
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        Sut(4).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(4), .completion(.finished)])
    }

    @Test func releasesTheSubscriberOnCancel() {
        weak var weakSubscriber: TestSubscriber<Int, CreateTestError>?
        var subscription: (any Subscription)?
        do {
            let subscriber = TestSubscriber<Int, CreateTestError>(initialDemand: .none)
            Sut(1).subscribe(subscriber)
            subscription = subscriber.subscription
            weakSubscriber = subscriber
        }
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        #expect(weakSubscriber == nil)
    }

    @Test func zeroDemandIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Result<Int, Never>.success(1).publisher.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectTrapMessage(trap1, contains: "A subscription's demand must be greater than zero, got max(0)")
    }
}
