import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// A sequence that counts how many elements have been pulled from it.
private struct CountingSequence: Sequence {
    let limit: Int?
    let pulled: Counter

    final class Counter: Sendable {
        let value = Atomic<Int>(0)
        var count: Int { value.load(ordering: .relaxed) }
    }

    func makeIterator() -> AnyIterator<Int> {
        var next = 0
        return AnyIterator {
            if let limit, next >= limit { return nil }
            next += 1
            pulled.value.add(1, ordering: .relaxed)
            return next
        }
    }
}

@Suite(.timeLimit(.minutes(3))) struct SequenceTests {
    @Test func publishesAllElementsThenFinishes() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func sendsExactlyTheRequestedNumberPerRequest() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3, 4])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(
            subscriber.events == [
                .subscription, .value(1), .value(2), .value(3), .value(4), .value(5), .completion(.finished),
            ])
    }

    @Test func sendsNothingWithoutDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        [1, 2].publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
    }

    @Test func finishesRightAfterTheLastElementWithoutAnotherRequest() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        [10, 20, 30].publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(10), .value(20), .value(30), .completion(.finished)])
    }

    @Test func demandReturnedFromReceiveAddsUp() {
        // One at first; the first value asks for two more, the others for none.
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1)) { $0 == 1 ? .max(2) : .none }
        (1...6).publisher.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3, 4])
    }

    @Test func oneAtATimeDemandReachesTheEnd() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        (0..<100).publisher.subscribe(subscriber)
        #expect(subscriber.values == Array(0..<100))
        #expect(subscriber.completion == .finished)
    }

    @Test func emptySequenceFinishesImmediately() throws {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        [Int]().publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        var description: String?
        [Int]().publisher.subscribe(AnySubscriber(receiveSubscription: { description = "\($0)" }))
        #expect(description == "Empty")
    }

    @Test func reentrantRequestsDoNotRecurseAndKeepOrder() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        var depth = 0
        var deepest = 0
        subscriber.onReceiveValue { _ in
            depth += 1
            deepest = max(deepest, depth)
            subscriber.request(.max(1))
            depth -= 1
        }
        (1...50).publisher.subscribe(subscriber)
        #expect(deepest == 1)
        #expect(subscriber.values == Array(1...50))
        #expect(subscriber.completion == .finished)
    }

    @Test func reentrantRequestAddsToReturnedDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        subscriber.onReceiveValue { value in
            if value == 1 { subscriber.request(.max(2)) }
        }
        (1...10).publisher.subscribe(subscriber)
        // Each value returns one more, so the extra two requested from inside receive keep flowing.
        #expect(subscriber.values == Array(1...10))
    }

    @Test func cancelStopsDelivery() {
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { value in
            if value == 2 { subscriber.cancel() }
        }
        (1...5).publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    }

    @Test func requestsAfterCancelDoNothing() throws {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        (1...5).publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        subscription.cancel()
        subscription.request(.max(3))
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func pullsAtMostOneElementAheadOfDemand() {
        let counter = CountingSequence.Counter()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        Publishers.Sequence<CountingSequence, Never>(sequence: CountingSequence(limit: nil, pulled: counter))
            .subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(counter.count <= 4)
        subscriber.cancel()
    }

    @Test func unboundedSequenceHonoursDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(4))
        (1...).publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .value(4)])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3, 4, 5, 6])
        subscriber.cancel()
    }

    @Test func descriptionPrintsTheSequence() throws {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        [1, 2, 3].publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "[1, 2, 3]")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "[1, 2, 3]")
        let range = TestSubscriber<Int, Never>(initialDemand: .none)
        (1..<4).publisher.subscribe(range)
        #expect(range.subscription.map { String(describing: $0) } == "1..<4")
        subscriber.cancel()
        range.cancel()
    }

    @Test func descriptionBecomesSequenceOnceFinishedOrCancelled() throws {
        let finished = TestSubscriber<Int, Never>(initialDemand: .none)
        [1, 2].publisher.subscribe(finished)
        let finishedSubscription = try #require(finished.subscription)
        finishedSubscription.request(.max(2))
        #expect(finished.completion == .finished)
        #expect(String(describing: finishedSubscription) == "Sequence")

        let cancelled = TestSubscriber<Int, Never>(initialDemand: .none)
        [1, 2].publisher.subscribe(cancelled)
        let cancelledSubscription = try #require(cancelled.subscription)
        cancelledSubscription.cancel()
        #expect(String(describing: cancelledSubscription) == "Sequence")
    }

    @Test func everySubscriberGetsTheWholeSequence() {
        let publisher = ["a", "b"].publisher
        let first = TestSubscriber<String, Never>()
        let second = TestSubscriber<String, Never>(initialDemand: .max(1))
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(first.values == ["a", "b"])
        #expect(second.values == ["a"])
    }

    @Test func customFailureTypeNeverFails() {
        let subscriber = TestSubscriber<Int, CreateTestError>()
        Publishers.Sequence<[Int], CreateTestError>(sequence: [4, 5]).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(4), .value(5), .completion(.finished)])
    }

    @Test func releasesTheSubscriberOnCancel() {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
            [1, 2, 3].publisher.subscribe(subscriber)
            subscription = subscriber.subscription
            weakSubscriber = subscriber
        }
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        #expect(weakSubscriber == nil)
    }

    @Test func releasesTheSubscriberOnCompletion() {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
            [1, 2].publisher.subscribe(subscriber)
            subscription = subscriber.subscription
            weakSubscriber = subscriber
            subscriber.request(.max(1))
            #expect(subscriber.completion == .finished)
        }
        #expect(weakSubscriber == nil)
        withExtendedLifetime(subscription) {}
    }

    @Test func concurrentRequestsDeliverEveryElementOnceInOrder() {
        let count = 2_000
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        (0..<count).publisher.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: count) { _ in
            subscriber.request(.max(1))
        }
        #expect(subscriber.values == Array(0..<count))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func equatableComparesTheSequence() {
        #expect([1, 2].publisher == [1, 2].publisher)
        #expect([1, 2].publisher != [2, 1].publisher)
        #expect([1, 2].publisher.sequence == [1, 2])
    }

    @Test func aRequestForNoValuesIsIgnored() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        [1, 2, 3].publisher.subscribe(subscriber)
        subscriber.request(.none)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(2))
        subscriber.request(.none)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }
}
