import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct CollectByCountTests {
    // MARK: Values and completion

    @Test func publishesFullArraysThenTheRemainder() {
        let subscriber = TestSubscriber<[Int], Never>()
        (0...10).publisher.collect(5).subscribe(subscriber)
        #expect(
            subscriber.events == [
                .subscription, .value([0, 1, 2, 3, 4]), .value([5, 6, 7, 8, 9]), .value([10]),
                .completion(.finished),
            ])
    }

    @Test func finishingWithEmptyBufferPublishesNoEmptyArray() {
        let subscriber = TestSubscriber<[Int], Never>()
        [1, 2, 3, 4].publisher.collect(2).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value([1, 2]), .value([3, 4]), .completion(.finished)])
    }

    @Test func countOfOnePublishesEachElementAlone() {
        let subscriber = TestSubscriber<[String], Never>()
        ["a", "b"].publisher.collect(1).subscribe(subscriber)
        #expect(subscriber.values == [["a"], ["b"]])
    }

    @Test func failureDiscardsPartialArray() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<[Int], SelectionTestError>()
        upstream.collect(3).subscribe(subscriber)
        for value in 1...5 { upstream.send(value) }
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value([1, 2, 3]), .completion(.failure(.oops))])
        #expect(upstream.send(6) == Subscribers.Demand.none)
        #expect(subscriber.events.count == 3)
    }

    @Test func passesOnEveryCompletionAsCombineDoes() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<[Int], SelectionTestError>()
        upstream.collect(4).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        upstream.send(completion: .finished)
        upstream.send(completion: .failure(.oops))
        #expect(upstream.send(3) == Subscribers.Demand.none)
        subscriber.request(.max(1))
        #expect(
            subscriber.events == [
                .subscription, .value([1, 2]), .completion(.finished), .completion(.finished),
                .completion(.failure(.oops)),
            ])
        #expect(upstream.events == [.requested(.unlimited)])
    }

    @Test func everyFailureIsPassedOnWithoutThePartialArray() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<[Int], SelectionTestError>()
        upstream.collect(4).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        upstream.send(completion: .failure(.other))
        #expect(
            subscriber.events == [.subscription, .completion(.failure(.oops)), .completion(.failure(.other))])
    }

    @Test func completionBeforeTheSubscriptionIsPassedOnAndTheSubscriptionRefused() {
        let upstream = SelectionUpstream<Int, Never>(sendsSubscription: false)
        let subscriber = TestSubscriber<[Int], Never>()
        upstream.collect(2).subscribe(subscriber)
        upstream.send(completion: .finished)
        let late = SelectionSubscription()
        upstream.send(subscription: late)
        #expect(subscriber.events == [.completion(.finished)])
        #expect(late.events == [.cancelled])
    }

    // MARK: Demand

    @Test func multipliesDemandOnItsWayUpstream() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(2), demandPerValue: .max(3))
        upstream.collect(4).subscribe(subscriber)
        #expect(upstream.events == [.requested(.max(8))])
        #expect(upstream.send(1) == Subscribers.Demand.none)
        #expect(upstream.send(2) == Subscribers.Demand.none)
        #expect(upstream.send(3) == Subscribers.Demand.none)
        #expect(upstream.send(4) == .max(12))
        #expect(subscriber.events == [.subscription, .value([1, 2, 3, 4])])
        subscriber.request(.max(1))
        subscriber.request(.unlimited)
        #expect(upstream.events == [.requested(.max(8)), .requested(.max(4)), .requested(.unlimited)])
    }

    @Test func requestsNothingUntilDownstreamDoes() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .none)
        upstream.collect(3).subscribe(subscriber)
        #expect(upstream.events == [])
        subscriber.request(.max(2))
        #expect(upstream.events == [.requested(.max(6))])
    }

    @Test func hugeDemandSaturatesToUnlimited() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(Int.max / 2))
        upstream.collect(3).subscribe(subscriber)
        #expect(upstream.events == [.requested(.unlimited)])
    }

    @Test func honoursBoundedDemandFromASequence() {
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        (1...10).publisher.collect(3).subscribe(subscriber)
        #expect(subscriber.values == [[1, 2, 3]])
        subscriber.request(.max(1))
        #expect(subscriber.values == [[1, 2, 3], [4, 5, 6]])
        subscriber.request(.max(5))
        #expect(
            subscriber.events == [
                .subscription, .value([1, 2, 3]), .value([4, 5, 6]), .value([7, 8, 9]), .value([10]),
                .completion(.finished),
            ])
    }

    // MARK: Re-entrancy and cancellation

    @Test func requestFromInsideReceiveKeepsArraysFlowing() {
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        (1...7).publisher.collect(3).subscribe(subscriber)
        #expect(subscriber.values == [[1, 2, 3], [4, 5, 6], [7]])
        #expect(subscriber.completion == .finished)
    }

    @Test func cancelFromInsideReceiveStopsEverything() {
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .unlimited)
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        (1...7).publisher.collect(2).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value([1, 2])])
    }

    @Test func cancelReachesUpstreamAndDropsTheBuffer() throws {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        upstream.collect(3).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        upstream.send(1)
        subscriber.cancel()
        #expect(upstream.events == [.requested(.max(3)), .cancelled])
        #expect(upstream.send(2) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        subscription.request(.max(1))
        subscription.cancel()
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(upstream.events == [.requested(.max(3)), .cancelled])
    }

    @Test func cancelBeforeTheSubscriptionArrivesIsIgnored() throws {
        let upstream = HeldSubscriberUpstream<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        upstream.collect(3).subscribe(subscriber)
        try #require(upstream.inner).cancel()
        let subscription = SelectionSubscription()
        upstream.send(subscription: subscription)
        #expect(subscription.events == [.requested(.max(3))])
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(subscriber.events == [.subscription, .value([1, 2, 3])])
    }

    @Test func cancelAfterCancelDoesNothingMore() throws {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        upstream.collect(3).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        subscription.cancel()
        subscription.cancel()
        let second = SelectionSubscription()
        upstream.send(subscription: second)
        #expect(second.events == [.cancelled])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    @Test func secondSubscriptionIsCancelled() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        upstream.collect(2).subscribe(subscriber)
        let second = SelectionSubscription()
        upstream.send(subscription: second)
        #expect(second.events == [.cancelled])
        #expect(subscriber.subscriptionCount == 1)
    }

    // MARK: Lifetime

    @Test func releasesEverythingAfterCancel() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let subscriber = TestSubscriber<[Int], Never>()
            subject.collect(2).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
            subscriber.cancel()
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
    }

    @Test func releasesInnerAfterCompletion() {
        weak var weakInner: AnyObject?
        let subject = PassthroughSubject<Int, Never>()
        do {
            let subscriber = TestSubscriber<[Int], Never>()
            subject.collect(2).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
            subject.send(completion: .finished)
            #expect(subscriber.values == [[1]])
        }
        #expect(weakInner == nil)
    }

    // MARK: Description

    @Test func describesItselfAsCombineDoes() throws {
        let subscriber = TestSubscriber<[Int], Never>()
        Empty<Int, Never>(completeImmediately: false).collect(53).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "CollectByCount")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "CollectByCount")
        let mirror = Mirror(reflecting: subscription)
        #expect(mirror.children.map(\.label) == ["downstream", "upstreamSubscription", "buffer", "count"])
        #expect(mirror.descendant("count") as? Int == 53)
        #expect(mirror.descendant("buffer") as? [Int] == [])
    }

    // MARK: Concurrency

    @Test func groupsValuesSentFromManyThreads() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subject.collect(10).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 0..<250 { subject.send(thread * 250 + value) }
        }
        subject.send(completion: .finished)
        let arrays = subscriber.values
        #expect(arrays.count == 200)
        #expect(arrays.allSatisfy { $0.count == 10 })
        #expect(arrays.flatMap { $0 }.sorted() == Array(0..<2_000))
    }

    // MARK: Misuse and equality

    @Test func zeroCountIsAProgrammerErrorOnSubscribe() async {
        _ = Empty<Int, Never>().collect(0)
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Empty<Int, Never>().collect(0).subscribe(TestSubscriber<[Int], Never>())
        }
        expectTrapMessage(trap1, contains: "collect(_:) needs a count greater than zero, got 0")
    }

    @Test func negativeCountIsAProgrammerErrorOnSubscribe() async {
        _ = Empty<Int, Never>().collect(-1)
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Empty<Int, Never>().collect(Int.min).subscribe(TestSubscriber<[Int], Never>())
        }
        expectTrapMessage(trap1, contains: "collect(_:) needs a count greater than zero, got \(Int.min)")
    }

    @Test func requestingZeroIsAProgrammerError() async {
        let trap2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<[Int], Never>(initialDemand: .none)
            Empty<Int, Never>(completeImmediately: false).collect(2).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectTrapMessage(trap2, contains: "A subscription's demand must be greater than zero, got max(0)")
    }

    @Test func equatableWhenUpstreamIs() {
        let upstream = Empty<Int, Never>()
        #expect(upstream.collect(2) == upstream.collect(2))
        #expect(upstream.collect(2) != upstream.collect(3))
    }
}
