import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct MergeTests {
    // MARK: Values and ordering

    @Test func interleavesValuesAsTheyAreSent() {
        let odds = PassthroughSubject<Int, FlowError>()
        let evens = PassthroughSubject<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        odds.merge(with: evens).subscribe(subscriber)
        odds.send(1)
        evens.send(2)
        evens.send(4)
        odds.send(3)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(4), .value(3)])
    }

    @Test func mergesPublishersOfDifferentTypes() {
        let subscriber = TestSubscriber<Int, Never>()
        let merged: Publishers.Merge<Just<Int>, Publishers.Sequence<[Int], Never>> = Just(1).merge(
            with: [2, 3].publisher)
        merged.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func mergingAPublisherOfTheSameTypeMakesMergeMany() {
        let subscriber = TestSubscriber<Int, Never>()
        let merged: Publishers.MergeMany<Just<Int>> = Just(1).merge(with: Just(2))
        #expect(merged.publishers == [Just(1), Just(2)])
        merged.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func mergesUpToEightPublishers() {
        let p = (0..<8).map { [$0].publisher }
        let three: Publishers.Merge3 = Just(0).merge(with: Just(1), Just(2))
        let four: Publishers.Merge4 = Just(0).merge(with: Just(1), Just(2), Just(3))
        let five: Publishers.Merge5 = Just(0).merge(with: Just(1), Just(2), Just(3), Just(4))
        let six: Publishers.Merge6 = Just(0).merge(with: Just(1), Just(2), Just(3), Just(4), Just(5))
        let seven: Publishers.Merge7 = Just(0).merge(with: Just(1), Just(2), Just(3), Just(4), Just(5), Just(6))
        let eight: Publishers.Merge8 = p[0].merge(with: p[1], p[2], p[3], p[4], p[5], p[6], p[7])
        #expect(collect(three) == [0, 1, 2])
        #expect(collect(four) == [0, 1, 2, 3])
        #expect(collect(five) == Array(0..<5))
        #expect(collect(six) == Array(0..<6))
        #expect(collect(seven) == Array(0..<7))
        #expect(collect(eight) == Array(0..<8))
        #expect(three.c == Just(2))
        #expect(eight.h.sequence == [7])
    }

    @Test func mergedPublishersMergeWithMorePublishers() {
        let two = Publishers.Merge(Just(0), Just(1))
        let three: Publishers.Merge3<Just<Int>, Just<Int>, Just<Int>> = two.merge(with: Just(2))
        let eightFromTwo:
            Publishers.Merge8<Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>> =
                two.merge(with: Just(2), Just(3), Just(4), Just(5), Just(6), Just(7))
        let fiveFromThree: Publishers.Merge5 = three.merge(with: Just(3), Just(4))
        let eightFromFive: Publishers.Merge8 = fiveFromThree.merge(with: Just(5), Just(6), Just(7))
        let sevenFromFour: Publishers.Merge7 = three.merge(with: Just(3)).merge(with: Just(4), Just(5), Just(6))
        let eightFromSeven: Publishers.Merge8 = sevenFromFour.merge(with: Just(7))
        let eightFromSix: Publishers.Merge8 = Publishers.Merge6(Just(0), Just(1), Just(2), Just(3), Just(4), Just(5))
            .merge(with: Just(6), Just(7))
        #expect(collect(three) == [0, 1, 2])
        #expect(collect(eightFromTwo) == Array(0..<8))
        #expect(collect(eightFromFive) == Array(0..<8))
        #expect(collect(eightFromSeven) == Array(0..<8))
        #expect(collect(eightFromSix) == Array(0..<8))
        #expect(eightFromTwo == eightFromFive)
    }

    @Test func mergeManyTakesVariadicArgumentsOrASequence() {
        let variadic = Publishers.MergeMany(Just(1), Just(2))
        let sequence = Publishers.MergeMany((1...2).lazy.map { Just($0) })
        #expect(variadic == sequence)
        #expect(variadic.publishers == [Just(1), Just(2)])
        let longer = variadic.merge(with: Just(3))
        #expect(longer.publishers == [Just(1), Just(2), Just(3)])
        #expect(longer != variadic)
        #expect(collect(longer) == [1, 2, 3])
    }

    @Test func equatableWhenTheUpstreamsAre() {
        #expect(Just(1).merge(with: Empty()) == Just(1).merge(with: Empty()))
        #expect(Just(1).merge(with: Just(2), Just(3)) != Just(1).merge(with: Just(2), Just(4)))
    }

    // MARK: Demand

    @Test func asksEachUpstreamForOneValueAtATime() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(5))
        a.merge(with: b).subscribe(subscriber)
        #expect(a.subscription?.history == [.requested(.max(1))])
        #expect(b.subscription?.history == [.requested(.max(1))])
        #expect(a.send(1) == .max(1))
        #expect(b.send(2) == .max(1))
        #expect(subscriber.values == [1, 2])
    }

    @Test func unlimitedDemandIsPassedOnToEveryUpstream() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        a.merge(with: b).subscribe(TestSubscriber<Int, Never>())
        #expect(a.subscription?.history == [.requested(.unlimited)])
        #expect(b.subscription?.history == [.requested(.unlimited)])
        #expect(a.send(1) == .none)

        let c = FlowPublisher<Int, Never>()
        let d = FlowPublisher<Int, Never>()
        let later = TestSubscriber<Int, Never>(initialDemand: .none)
        c.merge(with: d).subscribe(later)
        later.request(.max(1))
        later.request(.unlimited)
        later.request(.max(1))
        #expect(c.subscription?.history == [.requested(.max(1)), .requested(.unlimited)])
        #expect(d.subscription?.history == [.requested(.max(1)), .requested(.unlimited)])
    }

    @Test func valuesBeyondDemandWaitAndGoDownInUpstreamOrder() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        a.merge(with: b).subscribe(subscriber)
        #expect(a.send(1) == .max(1))
        #expect(b.send(2) == .none)
        #expect(a.send(3) == .none)
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 3])
        #expect(a.subscription?.history == [.requested(.max(1)), .requested(.max(1))])
        #expect(b.subscription?.history == [.requested(.max(1))])
        subscriber.request(.max(3))
        #expect(subscriber.values == [1, 3, 2])
        #expect(b.subscription?.history == [.requested(.max(1)), .requested(.max(1))])
        #expect(b.send(4) == .max(1))
        #expect(subscriber.values == [1, 3, 2, 4])
    }

    @Test func demandReturnedByDownstreamIsAdded() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        a.merge(with: b).subscribe(subscriber)
        for value in 0..<4 {
            #expect(a.send(value) == .max(1))
            #expect(b.send(value + 10) == .max(1))
        }
        #expect(subscriber.values == [0, 10, 1, 11, 2, 12, 3, 13])
    }

    @Test func demandReturnedForAValueGoesToOneThatArrivedDuringItsDelivery() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        var answered: Subscribers.Demand?
        subscriber.onReceiveValue { value in
            // No demand is left while 1 is being delivered: 2 waits, then takes the demand returned for 1.
            if value == 1 { answered = b.send(2) }
        }
        a.merge(with: b).subscribe(subscriber)
        #expect(a.send(1) == .max(1))
        #expect(answered == Subscribers.Demand.none)
        #expect(subscriber.values == [1, 2])
        #expect(b.subscription?.history == [.requested(.max(1)), .requested(.max(1))])
        // The demand returned for 2 is there for the next value.
        #expect(a.send(3) == .max(1))
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func aValueSentOverTheWaitingOneReplacesIt() {
        let a = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Publishers.MergeMany(a).subscribe(subscriber)
        a.send(1)
        a.send(2)
        subscriber.request(.max(2))
        #expect(subscriber.values == [2])
    }

    @Test func requestingNothingIsIgnored() {
        let a = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Publishers.MergeMany(a).subscribe(subscriber)
        subscriber.request(.none)
        #expect(a.send(1) == .none)
        #expect(subscriber.values == [])
    }

    // MARK: Completion and failure

    @Test func finishesOnlyWhenEveryUpstreamFinished() {
        let a = PassthroughSubject<Int, FlowError>()
        let b = PassthroughSubject<Int, FlowError>()
        let c = PassthroughSubject<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        a.merge(with: b, c).subscribe(subscriber)
        a.send(completion: .finished)
        c.send(completion: .finished)
        b.send(1)
        #expect(subscriber.completion == nil)
        b.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func aRepeatedFinishDoesNotCountTwice() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.merge(with: b).subscribe(subscriber)
        a.send(completion: .finished)
        a.send(completion: .finished)
        #expect(subscriber.completion == nil)
        b.send(completion: .finished)
        #expect(subscriber.completion == .finished)
    }

    @Test func aWaitingValueDelaysCompletion() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        a.merge(with: b).subscribe(subscriber)
        a.send(1)
        a.send(completion: .finished)
        b.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(a.subscription?.history == [.requested(.max(1))])
    }

    @Test func mergeManyOfNothingFinishesOnceAsked() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Publishers.MergeMany<Just<Int>>([]).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func failureCancelsTheOtherUpstreamsAndDropsWaitingValues() {
        let a = FlowPublisher<Int, FlowError>()
        let b = FlowPublisher<Int, FlowError>()
        let c = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .none)
        a.merge(with: b, c).subscribe(subscriber)
        a.send(1)
        c.send(completion: .finished)
        b.send(completion: .failure(FlowError(2)))
        #expect(subscriber.events == [.subscription, .completion(.failure(FlowError(2)))])
        #expect(a.subscription?.history == [.requested(.max(1)), .cancelled])
        #expect(b.subscription?.history == [.requested(.max(1))])
        #expect(c.subscription?.history == [.requested(.max(1))])
        subscriber.request(.unlimited)
        a.send(3)
        a.send(completion: .failure(FlowError(3)))
        #expect(subscriber.events == [.subscription, .completion(.failure(FlowError(2)))])
    }

    @Test func nothingGoesDownAfterFinishing() {
        let a = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        Publishers.MergeMany(a).subscribe(subscriber)
        a.send(completion: .finished)
        a.send(1)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    // MARK: Cancellation

    @Test func cancelCancelsEveryUpstream() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.merge(with: b).subscribe(subscriber)
        b.send(completion: .finished)
        subscriber.cancel()
        #expect(a.subscription?.history == [.requested(.unlimited), .cancelled])
        #expect(b.subscription?.history == [.requested(.unlimited)])
        a.send(1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func anUpstreamSubscribingAfterCancelIsCancelled() {
        let a = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        Just(0).merge(with: a).subscribe(subscriber)
        #expect(subscriber.values == [0])
        #expect(a.subscription?.history == [.cancelled])
    }

    @Test func cancelFromInsideDeliveryStopsTheRest() {
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        [1, 2, 3].publisher.merge(with: [4].publisher).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    // MARK: Re-entrancy

    @Test func aValueSentFromInsideDeliveryGoesDownInsideIt() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        var answered: Subscribers.Demand?
        var seenInside: [Int] = []
        subscriber.onReceiveValue { value in
            if value == 1 {
                answered = b.send(10)
                seenInside = subscriber.values
            }
        }
        a.merge(with: b).subscribe(subscriber)
        a.send(1)
        #expect(seenInside == [1, 10])
        #expect(answered == .max(1))
        #expect(b.send(11) == .none)
        #expect(subscriber.values == [1, 10])
    }

    @Test func completionFromInsideDeliveryFollowsIt() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { _ in
            b.send(completion: .finished)
            a.send(completion: .finished)
        }
        a.merge(with: b).subscribe(subscriber)
        a.send(1)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func requestFromInsideDeliveryDrainsAfterIt() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        subscriber.onReceiveValue { value in
            if value == 1 { subscriber.request(.max(1)) }
        }
        a.merge(with: b).subscribe(subscriber)
        a.send(1)
        b.send(2)
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
    }

    // MARK: Threads

    @Test func upstreamsOnManyThreadsWithUnlimitedDemand() {
        let merging = ManyThreadsMerging(threads: 8, perThread: 500)
        let subjects = (0..<merging.threads).map { _ in PassthroughSubject<Int, Never>() }
        Publishers.MergeMany(subjects).subscribe(merging.subscriber)
        DispatchQueue.concurrentPerform(iterations: merging.threads) { thread in
            for value in merging.values(of: thread) { subjects[thread].send(value) }
            subjects[thread].send(completion: .finished)
        }
        merging.expectEverythingArrived()
    }

    @Test func upstreamsOnManyThreadsWithBoundedDemand() {
        let merging = ManyThreadsMerging(threads: 6, perThread: 300, bounded: true)
        let sources = (0..<merging.threads).map { _ in ThreadedSource() }
        sources[0].merge(with: sources[1], sources[2], sources[3], sources[4], sources[5]).subscribe(merging.subscriber)
        DispatchQueue.concurrentPerform(iterations: merging.threads) { thread in
            sources[thread].run(Array(merging.values(of: thread)))
        }
        merging.expectEverythingArrived()
    }

    @Test func concurrentRequestsValuesAndFailure() {
        let threads = 4
        let perThread = 250
        let subjects = (0..<threads).map { _ in PassthroughSubject<Int, FlowError>() }
        let detector = ReentryDetector()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .none)
        subscriber.onReceiveValue { _ in detector.enter(spin: 500) {} }
        Publishers.MergeMany(subjects).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: threads * 2 + 1) { task in
            if task < threads {
                for index in 0..<perThread { subjects[task].send(task * perThread + index) }
            } else if task < threads * 2 {
                for _ in 0..<perThread { subscriber.request(.max(1)) }
            } else {
                subjects[0].send(completion: .failure(FlowError(9)))
            }
        }
        let events = subscriber.events
        #expect(events.last == .completion(.failure(FlowError(9))))
        #expect(events.filter { if case .completion = $0 { true } else { false } }.count == 1)
        #expect(Set(subscriber.values).count == subscriber.values.count)
        #expect(detector.overlaps == 0)
    }

    @Test func cancelRacingValuesFromManyThreads() {
        let threads = 4
        let subjects = (0..<threads).map { _ in PassthroughSubject<Int, Never>() }
        let detector = ReentryDetector()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        subscriber.onReceiveValue { _ in detector.enter(spin: 200) {} }
        Publishers.MergeMany(subjects).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: threads + 1) { task in
            if task < threads {
                for index in 0..<500 { subjects[task].send(index) }
            } else {
                for _ in 0..<100 { _ = detector.overlaps }
                subscriber.cancel()
            }
        }
        let delivered = subscriber.values.count
        for subject in subjects { subject.send(-1) }
        #expect(subscriber.values.count == delivered)
        #expect(subscriber.completion == nil)
        #expect(detector.overlaps == 0)
    }

    // MARK: Naming and lifetime

    @Test func givesTheSubscriptionDownstreamBeforeSubscribingUpstream() {
        let a = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        var subscriberHadSubscription: Bool?
        a.onSubscribe { subscriberHadSubscription = subscriber.subscriptionCount == 1 }
        Just(0).merge(with: a).subscribe(subscriber)
        #expect(subscriberHadSubscription == true)
    }

    @Test func describesItselfAsMerge() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.merge(with: b).subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "Merge")
        #expect(a.subscriberDescription == "Merge")
        let many = TestSubscriber<Int, Never>()
        Publishers.MergeMany(a).subscribe(many)
        #expect(many.subscription.map { String(describing: $0) } == "Merge")
        #expect(a.subscriberDescription == "Merge")
        if let subscription = many.subscription {
            #expect(Mirror(reflecting: subscription).children.isEmpty)
        }
    }

    @Test func releasesEverythingAfterCancel() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        weak var weakSubscription: AnyObject?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            a.merge(with: b).subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            a.send(1)
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
    }

    @Test func releasesEverythingAfterCompletion() {
        let a = PassthroughSubject<Int, FlowError>()
        let b = PassthroughSubject<Int, FlowError>()
        weak var weakSubscriber: TestSubscriber<Int, FlowError>?
        weak var weakSubscription: AnyObject?
        do {
            let subscriber = TestSubscriber<Int, FlowError>()
            weakSubscriber = subscriber
            a.merge(with: b).subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            a.send(completion: .finished)
            b.send(completion: .finished)
            #expect(subscriber.completion == .finished)
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
        let c = PassthroughSubject<Int, FlowError>()
        let d = PassthroughSubject<Int, FlowError>()
        do {
            let subscriber = TestSubscriber<Int, FlowError>()
            weakSubscriber = subscriber
            c.merge(with: d).subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            d.send(completion: .failure(FlowError()))
            #expect(subscriber.completion == .failure(FlowError()))
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
    }

    /// Subscribes with unlimited demand and returns the values, checking that the publisher finished.
    private func collect<P: Publisher>(_ publisher: P) -> [P.Output] where P.Failure == Never {
        let subscriber = TestSubscriber<P.Output, Never>()
        publisher.subscribe(subscriber)
        #expect(subscriber.completion == .finished)
        return subscriber.values
    }

    // MARK: Every arity

    /// `upstreams` merged with the fixed-arity operator of their count (`Merge` to `Merge8`).
    private func mergeOfArity(
        _ upstreams: [FlowPublisher<Int, FlowError>], into subscriber: TestSubscriber<Int, FlowError>
    ) {
        let u = upstreams
        switch u.count {
        case 2: u[0].merge(with: u[1]).subscribe(subscriber)
        case 3: u[0].merge(with: u[1], u[2]).subscribe(subscriber)
        case 4: u[0].merge(with: u[1], u[2], u[3]).subscribe(subscriber)
        case 5: u[0].merge(with: u[1], u[2], u[3], u[4]).subscribe(subscriber)
        case 6: u[0].merge(with: u[1], u[2], u[3], u[4], u[5]).subscribe(subscriber)
        case 7: u[0].merge(with: u[1], u[2], u[3], u[4], u[5], u[6]).subscribe(subscriber)
        case 8: u[0].merge(with: u[1], u[2], u[3], u[4], u[5], u[6], u[7]).subscribe(subscriber)
        default: Issue.record("no merge operator of arity \(u.count)")
        }
    }

    @Test(arguments: 2...8) func everyArityAsksOneValueAtATimeAndWaitsForTheLastFinish(arity: Int) {
        let upstreams = (0..<arity).map { _ in FlowPublisher<Int, FlowError>() }
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .max(arity))
        mergeOfArity(upstreams, into: subscriber)
        for upstream in upstreams {
            #expect(upstream.subscription?.history == [.requested(.max(1))])
        }
        for (index, upstream) in upstreams.enumerated().reversed() {
            #expect(upstream.send(index) == .max(1))
        }
        #expect(subscriber.values == Array((0..<arity).reversed()))
        for upstream in upstreams.dropLast() { upstream.send(completion: .finished) }
        #expect(subscriber.completion == nil)
        upstreams.last?.send(completion: .finished)
        #expect(subscriber.completion == .finished)
    }

    @Test(arguments: 2...8) func everyArityFailsOnTheFirstFailureAndCancelsTheRest(arity: Int) {
        let upstreams = (0..<arity).map { _ in FlowPublisher<Int, FlowError>() }
        let subscriber = TestSubscriber<Int, FlowError>()
        mergeOfArity(upstreams, into: subscriber)
        upstreams[0].send(completion: .finished)
        upstreams[arity - 1].send(completion: .failure(FlowError(arity)))
        #expect(subscriber.events == [.subscription, .completion(.failure(FlowError(arity)))])
        #expect(upstreams[0].subscription?.history == [.requested(.unlimited)])
        #expect(upstreams[arity - 1].subscription?.history == [.requested(.unlimited)])
        for upstream in upstreams.dropFirst().dropLast() {
            #expect(upstream.subscription?.history == [.requested(.unlimited), .cancelled])
        }
    }

    @Test(arguments: 2...8) func everyArityCancelsEveryUnfinishedUpstream(arity: Int) {
        let upstreams = (0..<arity).map { _ in FlowPublisher<Int, FlowError>() }
        let subscriber = TestSubscriber<Int, FlowError>()
        mergeOfArity(upstreams, into: subscriber)
        upstreams[1].send(7)
        upstreams[0].send(completion: .finished)
        subscriber.cancel()
        #expect(upstreams[0].subscription?.history == [.requested(.unlimited)])
        for upstream in upstreams.dropFirst() {
            #expect(upstream.subscription?.history == [.requested(.unlimited), .cancelled])
        }
        upstreams[1].send(8)
        #expect(subscriber.events == [.subscription, .value(7)])
    }
}
