import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct OutputTests {
    // MARK: Ranges

    @Test func operatorsTranslateToCountableRanges() {
        let upstream = Empty<Int, Never>()
        #expect(upstream.prefix(89).range == 0..<89)
        #expect(upstream.prefix(.max).range == 0..<Int.max)
        #expect(upstream.prefix(0).range == 0..<0)
        #expect(upstream.output(at: 89).range == 89..<90)
        #expect(upstream.output(in: ..<8).range == 0..<8)
        #expect(upstream.output(in: ...8).range == 0..<9)
        #expect(upstream.output(in: 8...).range == 8..<Int.max)
        #expect(upstream.output(in: Int.max...).range == Int.max..<Int.max)
        #expect(upstream.output(in: 4..<5).range == 4..<5)
        #expect(upstream.output(in: 4...5).range == 4..<6)
    }

    @Test func negativePrefixIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Empty<Int, Never>().prefix(-1)
        }
        expectTrapMessage(trap1, contains: "Range requires lowerBound <= upperBound")
    }

    @Test func negativeIndexIsAProgrammerError() async {
        let trap2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Empty<Int, Never>().output(at: -1)
        }
        expectTrapMessage(trap2, contains: "Index out of bounds")
    }

    @Test func maximumIndexIsAProgrammerError() async {
        let trap3 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Empty<Int, Never>().output(at: .max)
        }
        expectTrapMessage(trap3, contains: "Index out of bounds")
    }

    @Test func negativeLowerBoundIsAProgrammerError() async {
        let trap4 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Empty<Int, Never>().output(in: (-1)...)
        }
        expectTrapMessage(
            trap4, contains: "Publishers.Output needs a non-negative lower bound, got -1..<9223372036854775807")
        let trap5 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Publishers.Output(upstream: Empty<Int, Never>(), range: -1..<4)
        }
        expectTrapMessage(trap5, contains: "Publishers.Output needs a non-negative lower bound, got -1..<4")
    }

    @Test func negativeUpperBoundIsAProgrammerError() async {
        let trap6 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Publishers.Output(upstream: Empty<Int, Never>(), range: Range(uncheckedBounds: (lower: 1, upper: -1)))
        }
        expectTrapMessage(trap6, contains: "Range requires lowerBound <= upperBound")
    }

    // MARK: Values, demand and completion

    @Test func skipsBeforeTheRangePassesDemandThroughAndFinishesAfterIt() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none, demandPerValue: .max(42))
        let upstreamAtFinish = Mutex<[SelectionUpstreamEvent]>([])
        upstream.output(in: 3..<7).subscribe(
            AnySubscriber(
                receiveSubscription: { subscriber.receive(subscription: $0) },
                receiveValue: { subscriber.receive($0) },
                receiveCompletion: { completion in
                    upstreamAtFinish.withLock { $0 = upstream.events }
                    subscriber.receive(completion: completion)
                }))
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        #expect(upstream.send(3) == .max(1))
        #expect(subscriber.events == [.subscription])
        #expect(upstream.events == [])

        subscriber.request(.max(31))
        subscriber.request(.max(32))
        #expect(upstream.events == [.requested(.max(31)), .requested(.max(32))])

        for value in 4...6 { #expect(upstream.send(value) == .max(42)) }
        #expect(subscriber.events == [.subscription, .value(4), .value(5), .value(6)])
        // The last element of the range still returns the downstream's demand, and finishes at once.
        #expect(upstream.send(7) == .max(42))
        #expect(
            subscriber.events == [
                .subscription, .value(4), .value(5), .value(6), .value(7), .completion(.finished),
            ])
        #expect(upstream.send(8) == Subscribers.Demand.none)
        #expect(upstreamAtFinish.withLock { $0 } == [.requested(.max(31)), .requested(.max(32)), .cancelled])
    }

    @Test func prefixFinishesRightAfterItsLastElement() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.prefix(2).subscribe(subscriber)
        upstream.send(10)
        #expect(subscriber.events == [.subscription, .value(10)])
        #expect(upstream.events == [.requested(.unlimited)])
        upstream.send(20)
        #expect(subscriber.events == [.subscription, .value(10), .value(20), .completion(.finished)])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        upstream.send(30)
        #expect(subscriber.events == [.subscription, .value(10), .value(20), .completion(.finished)])
    }

    @Test func prefixFinishesWhenUpstreamDoes() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.prefix(3).subscribe(subscriber)
        upstream.send(10)
        upstream.send(20)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(10), .value(20), .completion(.finished)])
        #expect(upstream.events == [.requested(.unlimited)])
    }

    @Test func prefixOfASequence() {
        let subscriber = TestSubscriber<Int, Never>()
        (0...10).publisher.prefix(2).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(0), .value(1), .completion(.finished)])
    }

    @Test func prefixZeroFinishesAtTheFirstElement() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.prefix(0).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.send(1) == Subscribers.Demand.none)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    @Test func outputAtPublishesOneElement() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].publisher.output(at: 5).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(6), .completion(.finished)])
    }

    @Test func outputInPublishesTheRange() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 1, 2, 2, 2, 3, 4, 5, 6].publisher.output(in: 3...5).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(2), .value(2), .value(3), .completion(.finished)])
    }

    @Test func skippedElementsDoNotUseDownstreamDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        (0...10).publisher.output(at: 5).subscribe(subscriber)
        // The skipped elements were replaced upstream without using the downstream's one unit of
        // demand, and the publisher finishes right after the element it was asked for.
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
    }

    @Test func honoursBoundedDemandInTheRange() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        (0...10).publisher.prefix(3).subscribe(subscriber)
        #expect(subscriber.values == [0])
        subscriber.request(.max(1))
        #expect(subscriber.values == [0, 1])
        subscriber.request(.max(5))
        #expect(subscriber.events == [.subscription, .value(0), .value(1), .value(2), .completion(.finished)])
    }

    @Test func upstreamCompletionBeforeTheRangeEndsTheStream() {
        let finishing = TestSubscriber<Int, Never>()
        [1, 2].publisher.output(at: 4).subscribe(finishing)
        #expect(finishing.events == [.subscription, .completion(.finished)])

        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let failing = TestSubscriber<Int, SelectionTestError>()
        upstream.output(in: 1..<3).subscribe(failing)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(.oops))
        #expect(upstream.send(3) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        // Like Combine, Output counts what a misbehaving upstream sends after its completion.
        #expect(failing.events == [.subscription, .value(2), .completion(.failure(.oops)), .value(3)])
    }

    // MARK: Cancellation and re-entrancy

    /// Cancel reaches upstream once; like Combine, Output still counts and passes on what a
    /// misbehaving upstream sends afterwards.
    @Test func cancelReachesUpstreamOnce() throws {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited, demandPerValue: .max(3))
        upstream.output(in: 1..<3).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        subscription.cancel()
        subscription.request(.unlimited)
        subscription.cancel()
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(3))
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(2)])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    @Test func cancelFromInsideReceiveStopsTheSequence() {
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { value in
            if value == 2 { subscriber.cancel() }
        }
        (0...10).publisher.prefix(5).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(0), .value(1), .value(2)])
    }

    @Test func requestFromInsideReceiveIsPassedUpstream() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(2)) }
        upstream.prefix(3).subscribe(subscriber)
        upstream.send(1)
        #expect(upstream.events == [.requested(.max(1)), .requested(.max(2))])
    }

    @Test func secondSubscriptionIsCancelled() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.prefix(3).subscribe(subscriber)
        let second = SelectionSubscription()
        upstream.send(subscription: second)
        #expect(second.events == [.cancelled])
        #expect(subscriber.subscriptionCount == 1)
    }

    // MARK: Lifetime and description

    @Test func releasesEverythingAfterCancel() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let subscriber = TestSubscriber<Int, Never>()
            subject.output(in: 10..<42).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(31)
            subscriber.cancel()
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
    }

    @Test func releasesInnerAfterFinishingEarly() {
        weak var weakInner: AnyObject?
        let subject = PassthroughSubject<Int, Never>()
        do {
            let subscriber = TestSubscriber<Int, Never>()
            subject.prefix(1).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
            subject.send(2)
            #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        }
        #expect(weakInner == nil)
    }

    @Test func describesItselfAsCombineDoes() throws {
        let subscriber = TestSubscriber<String, Never>()
        Empty<String, Never>(completeImmediately: false).output(in: 10..<42).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Output")
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Output")
    }

    // MARK: Concurrency and equality

    @Test func selectsExactlyTheRangeFromManyThreads() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.output(in: 100..<200).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 0..<100 { subject.send(thread * 100 + value) }
        }
        let values = subscriber.values
        #expect(values.count == 100)
        #expect(Set(values).count == 100)
        #expect(subscriber.completion == .finished)
    }

    @Test func equatableWhenUpstreamIs() {
        let upstream = Empty<Int, Never>()
        #expect(upstream.prefix(3) == upstream.output(in: 0..<3))
        #expect(upstream.prefix(3) != upstream.prefix(4))
    }
}
