import Streams
import StreamsTesting
import Testing

@Suite struct EmptyTests {
    @Test func finishesImmediatelyWithoutDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Empty<Int, Never>().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func neverCompletesWhenAskedNotTo() {
        let subscriber = TestSubscriber<Int, CreateTestError>()
        Empty<Int, CreateTestError>(completeImmediately: false).subscribe(subscriber)
        subscriber.request(.max(3))
        #expect(subscriber.events == [.subscription])
    }

    @Test func typedInitializerMatchesTheDefaultOne() {
        let typed = Empty(completeImmediately: false, outputType: String.self, failureType: CreateTestError.self)
        #expect(typed == Empty<String, CreateTestError>(completeImmediately: false))
        #expect(typed != Empty<String, CreateTestError>())
        #expect(!typed.completeImmediately)
        #expect(Empty<String, CreateTestError>().completeImmediately)
    }

    @Test func subscriptionIsTheEmptySubscription() throws {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Empty<Int, Never>(completeImmediately: false).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Empty")
        #expect(String(describing: Subscriptions.empty) == "Empty")
        #expect(subscription.combineIdentifier == Subscriptions.empty.combineIdentifier)
        // Requests and cancels on the empty subscription do nothing.
        subscription.request(.max(1))
        subscription.cancel()
        subscription.request(.unlimited)
        #expect(subscriber.events == [.subscription])
    }

    @Test func everySubscriberCompletes() {
        let empty = Empty<Int, Never>()
        let subscribers = (0..<3).map { _ in TestSubscriber<Int, Never>() }
        for subscriber in subscribers { empty.subscribe(subscriber) }
        for subscriber in subscribers {
            #expect(subscriber.events == [.subscription, .completion(.finished)])
        }
    }

    @Test func doesNotKeepTheSubscriber() {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            Empty<Int, Never>(completeImmediately: false).subscribe(subscriber)
            weakSubscriber = subscriber
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
    }
}
