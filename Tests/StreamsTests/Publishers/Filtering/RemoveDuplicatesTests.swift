import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

private struct Reading: Equatable {
    var sensor: String
    var level: Int
}

@Suite(.timeLimit(.minutes(3))) struct RemoveDuplicatesTests {
    @Test func dropsConsecutiveEqualValues() {
        let subscriber = TestSubscriber<Int, Never>()
        [0, 1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 0].publisher.removeDuplicates().subscribe(subscriber)
        #expect(subscriber.values == [0, 1, 2, 3, 4, 0])
        #expect(subscriber.events.last == .completion(.finished))
    }

    @Test func predicateGetsThePreviousThenTheCurrentValue() {
        let pairs = Mutex<[[Int]]>([])
        let subscriber = TestSubscriber<Int, Never>()
        [3, 1, 5, 4, 6].publisher.removeDuplicates { previous, current in
            pairs.withLock { $0.append([previous, current]) }
            return previous > current
        }.subscribe(subscriber)
        #expect(subscriber.values == [3, 5, 6])
        #expect(pairs.withLock { $0 } == [[3, 1], [3, 5], [5, 4], [5, 6]])
    }

    /// Apple documents the comparison as between the current and the previously published element.
    @Test func comparesWithTheLastPublishedValue() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3, 4, 10, 11].publisher.removeDuplicates { abs($0 - $1) <= 1 }.subscribe(subscriber)
        #expect(subscriber.values == [1, 3, 10])
    }

    @Test func predicateComparesByAProperty() {
        let subscriber = TestSubscriber<Reading, Never>()
        let readings = [
            Reading(sensor: "a", level: 1), Reading(sensor: "b", level: 1), Reading(sensor: "c", level: 2),
            Reading(sensor: "d", level: 2), Reading(sensor: "e", level: 1),
        ]
        readings.publisher.removeDuplicates { $0.level == $1.level }.subscribe(subscriber)
        #expect(subscriber.values.map(\.sensor) == ["a", "c", "e"])
    }

    @Test func asksForOneMoreForEachDuplicate() {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(5))
        upstream.removeDuplicates().subscribe(subscriber)
        #expect(upstream.calls == [.request(.max(2))])
        #expect(upstream.send(1) == .max(5))
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(5))
        #expect(upstream.send(2) == .max(1))
        #expect(subscriber.values == [1, 2])
    }

    @Test func honoursBoundedDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        [1, 1, 2, 2, 3, 3, 4].publisher.removeDuplicates().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(
            subscriber.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
    }

    @Test func forwardsTheUpstreamFailure() {
        let upstream = TransformTestPublisher<Int, TransformTestError>()
        let subscriber = TestSubscriber<Int, TransformTestError>()
        upstream.removeDuplicates().subscribe(subscriber)
        upstream.send(1)
        upstream.send(1)
        upstream.send(completion: .failure(.upstream))
        upstream.send(completion: .finished)
        #expect(upstream.send(2) == Subscribers.Demand.none)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.upstream))])
    }

    @Test func cancelReachesUpstreamAndStopsDelivery() {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.removeDuplicates().subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        #expect(upstream.send(2) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
        #expect(upstream.calls == [.request(.unlimited), .cancel])
    }

    @Test func requestAndCancelAfterCancelDoNothing() throws {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.removeDuplicates().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        subscription.cancel()
        subscription.request(.max(3))
        subscription.cancel()
        #expect(upstream.calls == [.request(.max(1)), .cancel])
    }

    @Test func cancelFromInsideReceiveStopsDelivery() {
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { value in
            if value == 2 { subscriber.cancel() }
        }
        [1, 1, 2, 2, 3, 4].publisher.removeDuplicates().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    }

    @Test func requestFromInsideReceiveDeliversInOrder() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        [5, 5, 6, 6, 6, 5].publisher.removeDuplicates().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(5), .value(6), .value(5), .completion(.finished)])
    }

    @Test func cancelsASecondSubscription() {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.removeDuplicates().subscribe(subscriber)
        let second = TransformCountingSubscription()
        upstream.send(subscription: second)
        #expect(second.cancels == 1)
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func interposesASubscriptionNamedRemoveDuplicates() throws {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.removeDuplicates().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(!(subscription is TransformTestSubscription))
        let reflection = TransformReflection(of: subscription)
        #expect(reflection.description == "RemoveDuplicates")
        #expect(reflection.playgroundDescription == "RemoveDuplicates")
        #expect(reflection.childLabels == ["downstream", "last"])
    }

    @Test func mirrorShowsTheLastPublishedValue() throws {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.removeDuplicates().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        func last() -> String? {
            Mirror(reflecting: subscription).children.first { $0.label == "last" }.map { String(describing: $0.value) }
        }
        #expect(last() == "nil")
        upstream.send(4)
        upstream.send(4)
        #expect(last() == "Optional(4)")
        upstream.send(7)
        #expect(last() == "Optional(7)")
    }

    @Test func eachSubscriptionStartsWithoutAPreviousValue() {
        let subject = PassthroughSubject<Int, Never>()
        let deduplicated = subject.removeDuplicates()
        let first = TestSubscriber<Int, Never>()
        deduplicated.subscribe(first)
        subject.send(7)
        let second = TestSubscriber<Int, Never>()
        deduplicated.subscribe(second)
        subject.send(7)
        subject.send(8)
        #expect(first.values == [7, 8])
        #expect(second.values == [7, 8])
    }

    @Test func releasesEverythingAfterCancel() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>()
            subject.removeDuplicates().subscribe(subscriber)
            weakSubject = subject
            weakSubscriber = subscriber
            weakInner = subscriber.subscription.map { $0 as AnyObject }
            #expect(weakInner != nil)
            subject.send(1)
            subscriber.cancel()
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func releasesEverythingAfterCompletion() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>()
            subject.removeDuplicates().subscribe(subscriber)
            weakSubject = subject
            weakSubscriber = subscriber
            weakInner = subscriber.subscription.map { $0 as AnyObject }
            #expect(weakInner != nil)
            subject.send(completion: .finished)
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func concurrentDistinctSendsAllPass() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.removeDuplicates().subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<500 { subject.send(thread * 500 + index) }
        }
        #expect(subscriber.values.count == 4_000)
        #expect(Set(subscriber.values) == Set(0..<4_000))
    }

    @Test func concurrentEqualSendsPassOnce() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.removeDuplicates().subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 { subject.send(42) }
        }
        #expect(subscriber.values == [42])
    }
}
