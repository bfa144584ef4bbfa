import Streams
import StreamsTesting
import Testing

@Suite struct OptionalPublisherTests {
    @Test func valueWaitsForDemandThenFinishes() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Optional(3).publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
    }

    @Test func nilFinishesAtOnceWithTheEmptySubscription() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        let none: Int? = nil
        none.publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        var description: String?
        Optional<Int>.Publisher(nil).subscribe(AnySubscriber(receiveSubscription: { description = "\($0)" }))
        #expect(description == "Empty")
    }

    @Test func subscriptionIsNamedOptional() throws {
        let subscriber = TestSubscriber<String, Never>(initialDemand: .none)
        Optional("a").publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Optional")
        subscriber.cancel()
    }

    @Test func outputAndEquality() {
        #expect(Optional(2).publisher.output == 2)
        #expect(Optional<Int>.Publisher(nil).output == nil)
        #expect(Optional(2).publisher == Optional<Int>.Publisher(2))
        #expect(Optional(2).publisher != Optional<Int>.Publisher(nil))
    }

    @Test func cancelBeforeDemandSendsNothing() throws {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Optional(1).publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        subscription.cancel()
        subscription.request(.max(1))
        #expect(subscriber.events == [.subscription])
    }

    @Test func reentrantRequestDeliversOnce() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        Optional(4).publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(4), .completion(.finished)])
    }

    @Test func releasesTheSubscriberOnCompletion() {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        weak var weakSubscription: AnyObject?
        do {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Optional(1).publisher.subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            weakSubscriber = subscriber
            subscriber.request(.max(1))
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
    }

    @Test func zeroDemandIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Optional(1).publisher.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectTrapMessage(trap1, contains: "A subscription's demand must be greater than zero, got max(0)")
    }
}
