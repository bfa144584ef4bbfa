import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct JustTests {
    @Test func reflectsThePendingValueAsOneUnlabelledChild() throws {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Just(42).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        let children = Array(Mirror(reflecting: subscription).children)
        #expect(children.count == 1)
        #expect(children.first?.label == nil)
        #expect(children.first?.value as? Int == 42)
        subscription.cancel()
        #expect(Mirror(reflecting: subscription).children.map { $0.value as? Int } == [42], "kept, as in Combine")
    }

    @Test func theSubscriptionKeepsItsValueAfterDeliveringIt() {
        final class Value {}
        weak var weakValue: Value?
        var subscription: (any Subscription)?
        var events: [String] = []
        do {
            let value = Value()
            weakValue = value
            Just(value).subscribe(
                AnySubscriber(
                    receiveSubscription: {
                        subscription = $0
                        $0.request(.max(1))
                    },
                    receiveValue: { _ in
                        events.append("value")
                        return .none
                    },
                    receiveCompletion: { _ in events.append("finished") }))
        }
        #expect(events == ["value", "finished"])
        #expect(weakValue != nil, "as in Combine, the subscription keeps its value for as long as it lives")
        #expect(subscription != nil)
        subscription = nil
        #expect(weakValue == nil)
    }

    @Test func deliversItsValueThenFinishes() {
        let subscriber = TestSubscriber<Int, Never>()
        Just(42).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
    }

    @Test func waitsForDemandBeforeSendingAnything() {
        let subscriber = TestSubscriber<String, Never>(initialDemand: .none)
        Just("hello").subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value("hello"), .completion(.finished)])
    }

    @Test func laterRequestsDeliverNothingMore() throws {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Just(7).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        subscription.request(.max(1))
        subscription.request(.max(5))
        subscription.request(.unlimited)
        #expect(subscriber.events == [.subscription, .value(7), .completion(.finished)])
    }

    @Test func eachSubscriberGetsTheValue() {
        let just = Just([1, 2])
        let first = TestSubscriber<[Int], Never>()
        let second = TestSubscriber<[Int], Never>(initialDemand: .none)
        just.subscribe(first)
        just.subscribe(second)
        #expect(first.values == [[1, 2]])
        #expect(second.values == [])
        second.request(.max(1))
        #expect(second.events == [.subscription, .value([1, 2]), .completion(.finished)])
    }

    @Test func cancelBeforeRequestSendsNothing() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Just(1).subscribe(subscriber)
        let subscription = subscriber.subscription
        subscriber.cancel()
        subscription?.request(.max(1))
        #expect(subscriber.events == [.subscription])
    }

    @Test func reentrantRequestFromReceiveDoesNotRedeliver() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        var calls = 0
        subscriber.onReceiveValue { _ in
            calls += 1
            subscriber.request(.max(1))
        }
        Just(3).subscribe(subscriber)
        #expect(calls == 1)
        #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
    }

    @Test func cancelFromReceiveStillFinishes() {
        // Combine's Just has already committed to finishing once it sends its value.
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        Just(5).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
    }

    @Test func subscriptionIsNamedJust() throws {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Just(1).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Just")
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Just")
    }

    @Test func subscriptionReleasesTheSubscriberOnCancel() {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Just(1).subscribe(subscriber)
            subscription = subscriber.subscription
            weakSubscriber = subscriber
        }
        // The subscriber and the subscription keep each other alive until the stream ends.
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        #expect(weakSubscriber == nil)
    }

    @Test func subscriptionReleasesTheSubscriberOnCompletion() {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        weak var weakSubscription: AnyObject?
        do {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Just(1).subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            weakSubscriber = subscriber
            subscriber.request(.max(1))
            #expect(subscriber.completion == .finished)
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
    }

    @Test func concurrentRequestsDeliverExactlyOnce() {
        for _ in 0..<20 {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Just(9).subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 16) { _ in
                subscriber.request(.max(1))
            }
            #expect(subscriber.events == [.subscription, .value(9), .completion(.finished)])
        }
    }

    @Test func equatableComparesOutput() {
        #expect(Just(1) == Just(1))
        #expect(Just(1) != Just(2))
        #expect(Just(1).output == 1)
    }

    @Test func zeroDemandIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Just(1).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectTrapMessage(trap1, contains: "A subscription's demand must be greater than zero, got max(0)")
    }
}
