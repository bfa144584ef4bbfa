import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct DropTests {
    // MARK: Values and demand

    @Test func dropsTheFirstElementsAndAddsThemToTheFirstRequest() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(42), demandPerValue: .max(3))
        upstream.dropFirst(2).subscribe(subscriber)
        #expect(upstream.events == [.requested(.max(44))])
        #expect(upstream.send(1) == Subscribers.Demand.none)
        #expect(upstream.send(2) == Subscribers.Demand.none)
        #expect(upstream.send(3) == .max(3))
        #expect(upstream.send(4) == .max(3))
        #expect(upstream.send(5) == .max(3))
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(3), .value(4), .value(5), .completion(.finished)])
        #expect(upstream.events == [.requested(.max(44))])
    }

    @Test func dropsOneByDefault() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.dropFirst().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(2), .value(3), .completion(.finished)])
    }

    @Test func requestsTheDroppedElementsEvenWithoutDownstreamDemand() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.dropFirst(3).subscribe(subscriber)
        #expect(upstream.events == [.requested(.max(3))])
        subscriber.request(.max(2))
        #expect(upstream.events == [.requested(.max(3)), .requested(.max(2))])
    }

    @Test func droppingNothingPassesDemandThrough() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none, demandPerValue: .max(1))
        upstream.dropFirst(0).subscribe(subscriber)
        #expect(upstream.events == [])
        subscriber.request(.max(42))
        #expect(upstream.events == [.requested(.max(42))])
        for value in 1...3 { #expect(upstream.send(value) == .max(1)) }
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func honoursBoundedDemandFromASequence() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...10).publisher.dropFirst(3).subscribe(subscriber)
        #expect(subscriber.values == [4, 5])
        subscriber.request(.max(1))
        #expect(subscriber.values == [4, 5, 6])
        subscriber.request(.unlimited)
        #expect(subscriber.values == [4, 5, 6, 7, 8, 9, 10])
        #expect(subscriber.completion == .finished)
    }

    @Test func droppingMoreThanUpstreamHasJustFinishes() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2].publisher.dropFirst(5).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    /// Like Combine, Drop keeps no end state: every completion, and any value after one, is passed on.
    @Test func everyCompletionAndLaterValuePassesThrough() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<Int, SelectionTestError>()
        upstream.dropFirst().subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(.oops))
        upstream.send(completion: .finished)
        #expect(upstream.send(3) == Subscribers.Demand.none)
        #expect(
            subscriber.events == [
                .subscription, .value(2), .completion(.failure(.oops)), .completion(.finished), .value(3),
            ])
        #expect(upstream.events == [.requested(.unlimited)])
    }

    @Test func aSubscriptionAfterCompletionIsAcceptedAndAskedForTheGatheredDemand() throws {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none, demandPerValue: .max(2))
        upstream.dropFirst(3).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(upstream.events == [.requested(.max(3))])
        #expect(upstream.send(1) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        subscription.cancel()
        subscription.request(.max(5))
        subscription.request(.max(6))
        #expect(upstream.events == [.requested(.max(3))])
        let next = SelectionSubscription()
        upstream.send(subscription: next)
        #expect(next.events == [.requested(.max(13))])
        #expect(upstream.send(2) == Subscribers.Demand.none)
        #expect(upstream.send(3) == Subscribers.Demand.none)
        #expect(upstream.send(4) == .max(2))
        #expect(subscriber.events == [.subscription, .completion(.finished), .value(4)])
        subscription.cancel()
        #expect(next.events == [.requested(.max(13)), .cancelled])
    }

    // MARK: Subscription order

    @Test func givesDownstreamItsSubscriptionBeforeSubscribingUpstream() {
        let upstream = SelectionUpstream<Int, Never>()
        let probe = SubscriptionProbe<Int, Never>(watching: upstream.subscription)
        upstream.dropFirst().subscribe(probe)
        #expect(probe.arrival?.description == "Drop")
        #expect(probe.arrival?.upstreamEvents == [])
        #expect(upstream.events == [.requested(.max(1))])
    }

    @Test func requestsMadeBeforeUpstreamSubscribesAreAddedUp() {
        let upstream = SelectionUpstream<Int, Never>(sendsSubscription: false)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(10))
        upstream.dropFirst(4).subscribe(subscriber)
        subscriber.request(.max(3))
        #expect(subscriber.events == [.subscription])
        let late = SelectionSubscription()
        upstream.send(subscription: late)
        #expect(late.events == [.requested(.max(17))])
        subscriber.request(.max(1))
        #expect(late.events == [.requested(.max(17)), .requested(.max(1))])
    }

    /// As in Combine, there is nothing to cancel yet, so the late subscription is accepted.
    @Test func cancelBeforeUpstreamSubscribesDoesNothing() {
        let upstream = SelectionUpstream<Int, Never>(sendsSubscription: false)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(10))
        upstream.dropFirst(4).subscribe(subscriber)
        subscriber.cancel()
        let late = SelectionSubscription()
        upstream.send(subscription: late)
        #expect(late.events == [.requested(.max(14))])
    }

    @Test func secondSubscriptionIsCancelled() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.dropFirst().subscribe(subscriber)
        let second = SelectionSubscription()
        upstream.send(subscription: second)
        #expect(second.events == [.cancelled])
        #expect(upstream.events == [.requested(.max(3))])
        #expect(subscriber.subscriptionCount == 1)
    }

    // MARK: Cancellation and re-entrancy

    /// Cancel reaches upstream once; like Combine, Drop does not filter what a misbehaving upstream
    /// sends afterwards.
    @Test func cancelReachesUpstreamOnce() throws {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.dropFirst().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        subscription.cancel()
        subscription.request(.unlimited)
        subscription.cancel()
        #expect(upstream.events == [.requested(.max(1)), .cancelled])
        #expect(upstream.send(1) == Subscribers.Demand.none)
        #expect(upstream.send(2) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(2), .completion(.finished)])
        #expect(upstream.events == [.requested(.max(1)), .cancelled])
    }

    @Test func cancelFromInsideReceiveStopsTheSequence() {
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        (1...5).publisher.dropFirst(2).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(3)])
    }

    @Test func requestFromInsideReceiveKeepsValuesFlowing() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        (1...5).publisher.dropFirst(2).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(3), .value(4), .value(5), .completion(.finished)])
    }

    // MARK: Lifetime and description

    @Test func releasesEverythingAfterCancel() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let subscriber = TestSubscriber<Int, Never>()
            subject.dropFirst(42).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(31)
            subscriber.cancel()
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
    }

    @Test func releasesInnerAfterCompletion() {
        weak var weakInner: AnyObject?
        let subject = PassthroughSubject<Int, Never>()
        do {
            let subscriber = TestSubscriber<Int, Never>()
            subject.dropFirst().subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
            subject.send(2)
            subject.send(completion: .finished)
            #expect(subscriber.events == [.subscription, .value(2), .completion(.finished)])
        }
        #expect(weakInner == nil)
    }

    @Test func describesItselfAsCombineDoes() throws {
        let subscriber = TestSubscriber<Int, Never>()
        Empty<Int, Never>(completeImmediately: false).dropFirst(42).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Drop")
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Drop")
        #expect(Mirror(reflecting: subscription).children.isEmpty)
    }

    // MARK: Concurrency

    @Test func dropsExactlyTheFirstElementsSentFromManyThreads() {
        let subject = PassthroughSubject<Int, Never>()
        // The subject delivers one send at a time to all its subscribers, so a plain subscriber sees
        // the order in which the sends were taken: the one through dropFirst must see all but the
        // first 100 of them.
        let everything = TestSubscriber<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(everything)
        subject.dropFirst(100).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 0..<250 { subject.send(thread * 250 + value) }
        }
        #expect(Set(everything.values) == Set(0..<2_000))
        #expect(subscriber.values == Array(everything.values.dropFirst(100)))
    }

    // MARK: Misuse and equality

    @Test func negativeCountIsAProgrammerErrorOnSubscribe() async {
        _ = Empty<Int, Never>().dropFirst(-1)
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Empty<Int, Never>().dropFirst(-1).subscribe(TestSubscriber<Int, Never>())
        }
        expectTrapMessage(trap1, contains: "dropFirst(_:) needs a non-negative count, got -1")
    }

    @Test func requestingZeroIsAProgrammerError() async {
        let trap2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Empty<Int, Never>(completeImmediately: false).dropFirst().subscribe(subscriber)
            subscriber.request(.none)
        }
        expectTrapMessage(trap2, contains: "A subscription's demand must be greater than zero, got max(0)")
    }

    @Test func equatableWhenUpstreamIs() {
        let upstream = Empty<Int, Never>()
        #expect(upstream.dropFirst() == upstream.dropFirst(1))
        #expect(upstream.dropFirst(2) != upstream.dropFirst(3))
    }
}
