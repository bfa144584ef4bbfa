import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct ZipTests {
    // MARK: Values

    @Test func pairsValuesInTheOrderTheyArrive() {
        let numbers = PassthroughSubject<Int, FlowError>()
        let letters = PassthroughSubject<String, FlowError>()
        let subscriber = TestSubscriber<(Int, String), FlowError>()
        numbers.zip(letters).subscribe(subscriber)
        numbers.send(1)
        numbers.send(2)
        #expect(subscriber.values.isEmpty)
        letters.send("a")
        letters.send("b")
        letters.send("c")
        #expect(subscriber.values.map { "\($0.0)\($0.1)" } == ["1a", "2b"])
        numbers.send(3)
        #expect(subscriber.values.map { "\($0.0)\($0.1)" } == ["1a", "2b", "3c"])
        #expect(subscriber.completion == nil)
    }

    @Test func aLongBacklogPairsInOrderAndLetsEachValueGoOnceUsed() {
        let a = PassthroughSubject<FlowToken, Never>()
        let b = PassthroughSubject<Int, Never>()
        var paired: [(ObjectIdentifier, Int)] = []
        weak var lastPairedToken: FlowToken?
        let cancellable = a.zip(b).sink { token, number in
            lastPairedToken = token
            paired.append((ObjectIdentifier(token), number))
        }
        var sent: [ObjectIdentifier] = []
        weak var firstToken: FlowToken?
        do {
            let tokens = (0..<40).map { _ in FlowToken() }
            firstToken = tokens[0]
            sent = tokens.map(ObjectIdentifier.init)
            for token in tokens { a.send(token) }
        }
        #expect(firstToken != nil)
        for number in 0..<40 {
            b.send(number)
            #expect(paired.count == number + 1)
            #expect(lastPairedToken == nil)
        }
        #expect(paired.map(\.0) == sent)
        #expect(paired.map(\.1) == Array(0..<40))
        // Once the backlog is used up, values pair one at a time again.
        b.send(40)
        a.send(FlowToken())
        #expect(paired.count == 41)
        #expect(paired.last?.1 == 40)
        cancellable.cancel()
    }

    @Test func zipsThreeAndFourPublishers() {
        let three: Publishers.Zip3<Publishers.Sequence<[Int], Never>, Just<String>, Just<Bool>> =
            [1, 2].publisher.zip(Just("a"), Just(true))
        let threeSubscriber = TestSubscriber<(Int, String, Bool), Never>()
        three.subscribe(threeSubscriber)
        #expect(threeSubscriber.values.map { "\($0.0)\($0.1)\($0.2)" } == ["1atrue"])
        #expect(threeSubscriber.completion == .finished)
        #expect(three.c == Just(true))

        let four: Publishers.Zip4<Just<Int>, Just<Int>, Just<Int>, Just<Int>> = Just(1).zip(Just(2), Just(3), Just(4))
        let fourSubscriber = TestSubscriber<(Int, Int, Int, Int), Never>()
        four.subscribe(fourSubscriber)
        #expect(fourSubscriber.values.map { [$0.0, $0.1, $0.2, $0.3] } == [[1, 2, 3, 4]])
        #expect(fourSubscriber.completion == .finished)
        #expect(four.d == Just(4))
    }

    @Test func transformOverloadsMapTheZippedPublisher() {
        let two: Publishers.Map<Publishers.Zip<Just<Int>, Just<Int>>, Int> = Just(1).zip(Just(2)) { $0 * 10 + $1 }
        let three: Publishers.Map<Publishers.Zip3<Just<Int>, Just<Int>, Just<Int>>, Int> =
            Just(1).zip(Just(2), Just(3)) { $0 + $1 + $2 }
        let four: Publishers.Map<Publishers.Zip4<Just<Int>, Just<Int>, Just<Int>, Just<Int>>, Int> =
            Just(1).zip(Just(2), Just(3), Just(4)) { $0 * $1 * $2 * $3 }
        #expect(collect(two) == [12])
        #expect(collect(three) == [6])
        #expect(collect(four) == [24])
        #expect(two.upstream.b == Just(2))
    }

    @Test func sequencesOfDifferentLengthsZipToTheShorter() {
        let subscriber = TestSubscriber<String, Never>()
        [1, 2, 3].publisher.zip(["a", "b"].publisher) { "\($0)\($1)" }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value("1a"), .value("2b"), .finished])
    }

    @Test func equatableAndSendableWhenTheUpstreamsAre() {
        #expect(Just(1).zip(Just(2)) == Publishers.Zip(Just(1), Just(2)))
        #expect(Just(1).zip(Just(2)) != Publishers.Zip(Just(1), Just(3)))
        #expect(Just(1).zip(Just(2), Just(3)) == Publishers.Zip3(Just(1), Just(2), Just(3)))
        #expect(Just(1).zip(Just(2), Just(3), Just(4)) != Publishers.Zip4(Just(1), Just(2), Just(3), Just(5)))
        requireSendable(Just(1).zip(Just(2)))
        requireSendable(Just(1).zip(Just(2), Just(3)))
        requireSendable(Just(1).zip(Just(2), Just(3), Just(4)))
    }

    // MARK: Demand

    @Test func everyRequestIsPassedOnToEveryUpstreamAsItIs() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<(Int, Int), Never>(initialDemand: .none)
        a.zip(b).subscribe(subscriber)
        #expect(a.subscription?.history == [])
        subscriber.request(.max(1))
        subscriber.request(.unlimited)
        subscriber.request(.max(2))
        let expected: [FlowSubscription.Event] = [.requested(.max(1)), .requested(.unlimited), .requested(.max(2))]
        #expect(a.subscription?.history == expected)
        #expect(b.subscription?.history == expected)
    }

    @Test func aCompleteTupleGoesDownWhateverTheOutstandingDemand() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        a.zip(b, +).subscribe(subscriber)
        #expect(a.send(100) == .none)
        #expect(b.send(1) == .none)
        // Beyond what was asked for: the upstreams broke the contract, and zip passes the tuple on.
        #expect(a.send(200) == .none)
        #expect(b.send(2) == .none)
        #expect(subscriber.values == [101, 202])
        #expect(a.subscription?.history == [.requested(.max(1))])
    }

    @Test func demandReturnedByDownstreamGoesBackThroughTheUpstreamThatCompletedTheTuple() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let c = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        a.zip(b, c) { $0 + $1 + $2 }.subscribe(subscriber)
        #expect(b.send(1) == .none)
        #expect(c.send(1) == .none)
        #expect(a.send(1) == .max(1))
        #expect(subscriber.values == [3])
        #expect(a.subscription?.history == [.requested(.max(1))])
        #expect(b.subscription?.history == [.requested(.max(1)), .requested(.max(1))])
        #expect(c.subscription?.history == [.requested(.max(1)), .requested(.max(1))])
    }

    @Test func aRequestDuringDeliveryGoesBackThroughTheUpstreamThatCompletedTheTuple() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(5)) }
        a.zip(b, +).subscribe(subscriber)
        #expect(a.send(1) == .none)
        #expect(b.send(1) == .max(5))
        #expect(a.subscription?.history == [.requested(.max(1)), .requested(.max(5))])
        #expect(b.subscription?.history == [.requested(.max(1))])
        // Outside a delivery, a request goes to both again.
        subscriber.request(.max(2))
        #expect(b.subscription?.history == [.requested(.max(1)), .requested(.max(2))])
    }

    @Test func anUpstreamSubscribingLateIsAskedForEverythingRequestedSoFar() {
        let a = FlowPublisher<Int, Never>()
        var late: AnySubscriber<Int, Never>?
        let b = FlowClosurePublisher<Int, Never> { late = $0 }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        a.zip(b, +).subscribe(subscriber)
        subscriber.request(.max(2))
        #expect(a.subscription?.history == [.requested(.max(1)), .requested(.max(2))])
        let subscription = FlowSubscription()
        late?.receive(subscription: subscription)
        #expect(subscription.history == [.requested(.max(3))])
        #expect(a.send(1) == .none)
        #expect(late?.receive(2) == Subscribers.Demand.none)
        #expect(subscriber.values == [3])
    }

    @Test func requestingNothingStopsTheProgram() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<(Int, Int), Never>(initialDemand: .none)
            Just(1).zip(Just(2)).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectTrapMessage(trap1, contains: "A subscription's demand must be greater than zero, got max(0)")
    }

    // MARK: Completion and failure

    @Test func finishesWhenAnUpstreamFinishesWithNothingWaiting() {
        for finishing in 0..<3 {
            let upstreams = (0..<3).map { _ in FlowPublisher<Int, Never>() }
            let subscriber = TestSubscriber<Int, Never>()
            upstreams[0].zip(upstreams[1], upstreams[2]) { $0 + $1 + $2 }.subscribe(subscriber)
            upstreams[(finishing + 1) % 3].send(7)
            upstreams[finishing].send(completion: .finished)
            #expect(subscriber.events == [.subscription, .finished])
            for (index, upstream) in upstreams.enumerated() {
                let expected: [FlowSubscription.Event] =
                    index == finishing ? [.requested(.unlimited)] : [.requested(.unlimited), .cancelled]
                #expect(upstream.subscription?.history == expected)
            }
        }
    }

    @Test func anUpstreamFinishingWithValuesWaitingFinishesOnceTheyAreUsed() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.zip(b, +).subscribe(subscriber)
        a.send(100)
        a.send(200)
        a.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        b.send(1)
        #expect(subscriber.events == [.subscription, .value(101)])
        b.send(2)
        #expect(subscriber.events == [.subscription, .value(101), .value(202), .finished])
        #expect(a.subscription?.history == [.requested(.unlimited)])
        #expect(b.subscription?.history == [.requested(.unlimited), .cancelled])
        b.send(3)
        b.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(101), .value(202), .finished])
    }

    @Test func everyUpstreamFinishingWithValuesWaitingFinishesWhenTheLastFinishes() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.zip(b, +).subscribe(subscriber)
        a.send(1)
        a.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        b.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .finished])
        #expect(a.subscription?.history == [.requested(.unlimited)])
        #expect(b.subscription?.history == [.requested(.unlimited)])
    }

    @Test func failureFromAnyUpstreamCancelsEveryRunningUpstream() {
        for failing in 0..<4 {
            let upstreams = (0..<4).map { _ in FlowPublisher<Int, FlowError>() }
            let subscriber = TestSubscriber<Int, FlowError>()
            upstreams[0].zip(upstreams[1], upstreams[2], upstreams[3]) { $0 + $1 + $2 + $3 }
                .subscribe(subscriber)
            let finishing = (failing + 1) % 4
            upstreams[finishing].send(5)
            upstreams[finishing].send(completion: .finished)
            upstreams[failing].send(completion: .failure(FlowError(failing)))
            #expect(subscriber.events == [.subscription, .failure(FlowError(failing))])
            for (index, upstream) in upstreams.enumerated() {
                let expected: [FlowSubscription.Event] =
                    index == finishing ? [.requested(.unlimited)] : [.requested(.unlimited), .cancelled]
                #expect(upstream.subscription?.history == expected)
            }
        }
    }

    @Test func nothingGoesDownAfterTheStreamEnds() {
        let a = FlowPublisher<Int, FlowError>()
        let b = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        a.zip(b, +).subscribe(subscriber)
        a.send(1)
        a.send(completion: .failure(FlowError(1)))
        #expect(b.send(1) == .none)
        b.send(completion: .failure(FlowError(2)))
        a.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .failure(FlowError(1))])

        let c = FlowPublisher<Int, FlowError>()
        let d = FlowPublisher<Int, FlowError>()
        let finished = TestSubscriber<Int, FlowError>()
        c.zip(d, +).subscribe(finished)
        c.send(completion: .finished)
        d.send(1)
        d.send(completion: .failure(FlowError(3)))
        #expect(finished.events == [.subscription, .finished])
    }

    @Test func aRepeatedCompletionFromOneUpstreamCountsOnce() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.zip(b, +).subscribe(subscriber)
        a.send(1)
        a.send(completion: .finished)
        a.send(completion: .finished)
        a.send(2)
        #expect(subscriber.events == [.subscription])
        b.send(10)
        #expect(subscriber.events == [.subscription, .value(11), .finished])
    }

    // MARK: Cancellation

    @Test func cancelCancelsEveryRunningUpstream() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let c = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.zip(b, c) { $0 + $1 + $2 }.subscribe(subscriber)
        c.send(1)
        c.send(completion: .finished)
        subscriber.cancel()
        #expect(a.subscription?.history == [.requested(.unlimited), .cancelled])
        #expect(b.subscription?.history == [.requested(.unlimited), .cancelled])
        #expect(c.subscription?.history == [.requested(.unlimited)])
        a.send(1)
        b.send(1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func aSecondSubscriptionFromAnUpstreamIsCancelled() {
        let a = FlowPublisher<Int, Never>()
        var side: AnySubscriber<Int, Never>?
        let b = FlowClosurePublisher<Int, Never> { side = $0 }
        let subscriber = TestSubscriber<Int, Never>()
        a.zip(b, +).subscribe(subscriber)
        let first = FlowSubscription()
        let second = FlowSubscription()
        side?.receive(subscription: first)
        side?.receive(subscription: second)
        #expect(first.history == [.requested(.unlimited)])
        #expect(second.history == [.cancelled])
        subscriber.cancel()
        #expect(first.history == [.requested(.unlimited), .cancelled])
        let third = FlowSubscription()
        side?.receive(subscription: third)
        #expect(third.history == [.cancelled])
    }

    @Test func cancelFromInsideDeliveryStopsTheRest() {
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        [1, 2, 3].publisher.zip([10, 20, 30].publisher, +).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(11)])
    }

    // MARK: Re-entrancy

    @Test func aTupleCompletedFromInsideDeliveryGoesDownRightAfterIt() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        var answered: [Subscribers.Demand] = []
        var seenInside: [Int] = []
        subscriber.onReceiveValue { value in
            guard value == 11 else { return }
            answered.append(a.send(2))
            answered.append(b.send(20))
            seenInside = subscriber.values
        }
        a.zip(b, +).subscribe(subscriber)
        a.send(1)
        b.send(10)
        #expect(seenInside == [11])
        #expect(answered == [.none, .none])
        #expect(subscriber.values == [11, 22])
    }

    @Test func completionFromInsideDeliveryFollowsIt() {
        let a = FlowPublisher<Int, FlowError>()
        let b = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        subscriber.onReceiveValue { _ in a.send(completion: .finished) }
        a.zip(b, +).subscribe(subscriber)
        a.send(1)
        a.send(2)
        b.send(10)
        // `a` finished with 2 still waiting: the next tuple uses it, then the stream finishes.
        #expect(subscriber.events == [.subscription, .value(11)])
        b.send(20)
        #expect(subscriber.events == [.subscription, .value(11), .value(22), .finished])

        let c = FlowPublisher<Int, FlowError>()
        let d = FlowPublisher<Int, FlowError>()
        let failing = TestSubscriber<Int, FlowError>()
        var seenInside: [TestEvent<Int, FlowError>] = []
        failing.onReceiveValue { _ in
            d.send(completion: .failure(FlowError(4)))
            seenInside = failing.events
        }
        c.zip(d, +).subscribe(failing)
        c.send(1)
        c.send(2)
        d.send(10)
        #expect(seenInside == [.subscription, .value(11)])
        #expect(failing.events == [.subscription, .value(11), .failure(FlowError(4))])
        #expect(c.subscription?.history == [.requested(.unlimited), .cancelled])
    }

    // MARK: Threads

    @Test func upstreamsOnManyThreadsPairValuesInOrder() {
        let perThread = 2_000
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let detector = ReentryDetector()
        let subscriber = TestSubscriber<[Int], Never>()
        subscriber.onReceiveValue { _ in detector.enter(spin: 500) {} }
        subjects[0].zip(subjects[1], subjects[2], subjects[3]) { [$0, $1, $2, $3] }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: subjects.count) { thread in
            for value in 0..<perThread { subjects[thread].send(value) }
            subjects[thread].send(completion: .finished)
        }
        #expect(subscriber.values == (0..<perThread).map { [$0, $0, $0, $0] })
        #expect(subscriber.completion == .finished)
        #expect(detector.overlaps == 0)
    }

    @Test func upstreamsOnManyThreadsWithBoundedDemand() {
        let perThread = 500
        let sources = (0..<3).map { _ in ThreadedSource() }
        let detector = ReentryDetector()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1), demandPerValue: .max(1))
        subscriber.onReceiveValue { _ in detector.enter(spin: 500) {} }
        sources[0].zip(sources[1], sources[2]) { [$0, $1, $2] }.subscribe(subscriber)
        // Each source blocks until it has demand, which needs the others' values: one thread each.
        let returned = runOnThreads(sources.count) { thread in
            sources[thread].run((0..<perThread).map { $0 * 3 + thread })
        }
        #expect(returned)
        #expect(subscriber.values == (0..<perThread).map { [$0 * 3, $0 * 3 + 1, $0 * 3 + 2] })
        #expect(subscriber.completion == .finished)
        #expect(detector.overlaps == 0)
    }

    @Test func concurrentRequestsValuesAndFailure() {
        let perThread = 500
        let subjects = (0..<2).map { _ in PassthroughSubject<Int, FlowError>() }
        let detector = ReentryDetector()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .none)
        subscriber.onReceiveValue { _ in detector.enter(spin: 200) {} }
        subjects[0].zip(subjects[1], +).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 5) { task in
            switch task {
            case 0, 1:
                for value in 0..<perThread { subjects[task].send(value) }
            case 2, 3:
                for _ in 0..<perThread { subscriber.request(.max(1)) }
            default:
                for _ in 0..<50 { _ = detector.overlaps }
                subjects[1].send(completion: .failure(FlowError(9)))
            }
        }
        let events = subscriber.events
        #expect(events.last == .failure(FlowError(9)))
        #expect(events.filter { if case .completion = $0 { true } else { false } }.count == 1)
        #expect(detector.overlaps == 0)
    }

    @Test func cancelRacingValuesFromManyThreads() {
        let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        let detector = ReentryDetector()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { _ in detector.enter(spin: 200) {} }
        subjects[0].zip(subjects[1], subjects[2]) { $0 + $1 + $2 }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: subjects.count + 1) { task in
            if task < subjects.count {
                for value in 0..<1_000 { subjects[task].send(value) }
            } else {
                for _ in 0..<100 { _ = detector.overlaps }
                subscriber.cancel()
            }
        }
        let delivered = subscriber.values.count
        for subject in subjects { subject.send(-1) }
        #expect(subscriber.values.count == delivered)
        #expect(subscriber.values == (0..<delivered).map { $0 * 3 })
        #expect(subscriber.completion == nil)
        #expect(detector.overlaps == 0)
    }

    // MARK: Naming and lifetime

    @Test func givesTheSubscriptionDownstreamBeforeSubscribingUpstream() {
        let a = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<(Int, Int), Never>(initialDemand: .none)
        var subscriberHadSubscription: Bool?
        a.onSubscribe { subscriberHadSubscription = subscriber.subscriptionCount == 1 }
        Just(0).zip(a).subscribe(subscriber)
        #expect(subscriberHadSubscription == true)
    }

    @Test func describesItselfAsZip() throws {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<(Int, Int), Never>()
        a.zip(b).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Zip")
        #expect(Mirror(reflecting: subscription).children.isEmpty)
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Zip")
        #expect(a.subscriberDescription == "Zip")
        #expect(b.subscriberDescription == "Zip")
    }

    @Test func releasesEverythingAfterCancel() {
        let a = PassthroughSubject<FlowToken, Never>()
        let b = PassthroughSubject<Int, Never>()
        weak var weakSubscriber: TestSubscriber<(FlowToken, Int), Never>?
        weak var weakSubscription: AnyObject?
        weak var weakToken: FlowToken?
        do {
            let subscriber = TestSubscriber<(FlowToken, Int), Never>()
            weakSubscriber = subscriber
            a.zip(b).subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            let token = FlowToken()
            weakToken = token
            a.send(token)
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
        #expect(weakToken == nil)
    }

    @Test func releasesEverythingAfterCompletion() {
        for fails in [false, true] {
            let a = PassthroughSubject<FlowToken, FlowError>()
            let b = PassthroughSubject<Int, FlowError>()
            let c = PassthroughSubject<Int, FlowError>()
            weak var weakSubscriber: TestSubscriber<(FlowToken, Int, Int), FlowError>?
            weak var weakSubscription: AnyObject?
            weak var weakToken: FlowToken?
            do {
                let subscriber = TestSubscriber<(FlowToken, Int, Int), FlowError>()
                weakSubscriber = subscriber
                a.zip(b, c).subscribe(subscriber)
                weakSubscription = subscriber.subscription as AnyObject?
                let token = FlowToken()
                weakToken = token
                a.send(token)
                if fails {
                    b.send(completion: .failure(FlowError()))
                } else {
                    c.send(completion: .finished)
                }
                #expect(subscriber.completion != nil)
            }
            #expect(weakSubscriber == nil)
            #expect(weakSubscription == nil)
            #expect(weakToken == nil)
        }
    }

    /// Subscribes with unlimited demand and returns the values, checking that the publisher finished.
    private func collect<P: Publisher>(_ publisher: P) -> [P.Output] where P.Failure == Never {
        let subscriber = TestSubscriber<P.Output, Never>()
        publisher.subscribe(subscriber)
        #expect(subscriber.completion == .finished)
        return subscriber.values
    }

    private func requireSendable<T: Sendable>(_: T) {}
}
