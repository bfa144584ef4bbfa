import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct CombineLatestTests {
    // MARK: Values

    @Test func publishesOnceEveryUpstreamHasSentAValue() {
        let a = PassthroughSubject<Int, FlowError>()
        let b = PassthroughSubject<String, FlowError>()
        let subscriber = TestSubscriber<(Int, String), FlowError>()
        a.combineLatest(b).subscribe(subscriber)
        a.send(1)
        a.send(2)
        #expect(subscriber.values.isEmpty)
        b.send("x")
        a.send(3)
        b.send("y")
        #expect(subscriber.values.map { "\($0.0)\($0.1)" } == ["2x", "3x", "3y"])
        #expect(subscriber.completion == nil)
    }

    @Test func combinesThreeAndFourPublishers() {
        let p = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let three = TestSubscriber<(Int, Int, Int), Never>()
        let four = TestSubscriber<Int, Never>()
        p[0].combineLatest(p[1], p[2]).subscribe(three)
        p[0].combineLatest(p[1], p[2], p[3]) { $0 * $1 * $2 * $3 }.subscribe(four)
        p[0].send(1)
        p[0].send(2)
        p[1].send(2)
        p[2].send(9)
        p[3].send(1)
        p[0].send(3)
        p[1].send(12)
        p[0].send(13)
        p[2].send(19)
        #expect(
            three.values.map { [$0.0, $0.1, $0.2] } == [
                [2, 2, 9], [3, 2, 9], [3, 12, 9], [13, 12, 9], [13, 12, 19],
            ])
        #expect(four.values == [36, 54, 324, 1404, 2964])
    }

    @Test func transformingOverloadsMapTheCombinedPublisher() {
        let two: Publishers.Map<Publishers.CombineLatest<Just<Int>, Just<Int>>, Int> =
            Just(1).combineLatest(Just(2)) { $0 + $1 }
        let three: Publishers.Map<Publishers.CombineLatest3<Just<Int>, Just<Int>, Just<Int>>, Int> =
            Just(1).combineLatest(Just(2), Just(3)) { $0 + $1 + $2 }
        let four: Publishers.Map<Publishers.CombineLatest4<Just<Int>, Just<Int>, Just<Int>, Just<Int>>, Int> =
            Just(1).combineLatest(Just(2), Just(3), Just(4)) { $0 + $1 + $2 + $3 }
        #expect(collect(two) == [3])
        #expect(collect(three) == [6])
        #expect(collect(four) == [10])
        #expect(two.upstream.b == Just(2))
        #expect(four.upstream.d == Just(4))
    }

    @Test func sequencesCombineTheLastOfTheFirstWithEachOfTheSecond() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2].publisher.combineLatest([10, 20].publisher) { $0 + $1 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(12), .value(22), .completion(.finished)])
    }

    @Test func combinesWithACurrentValueSubject() {
        let subject = CurrentValueSubject<String, Never>("now")
        let subscriber = TestSubscriber<(Int, String), Never>()
        [42].publisher.combineLatest(subject).subscribe(subscriber)
        #expect(subscriber.values.map { "\($0.0) \($0.1)" } == ["42 now"])
        subject.send("later")
        #expect(subscriber.values.map { "\($0.0) \($0.1)" } == ["42 now", "42 later"])
        #expect(subscriber.completion == nil)
    }

    @Test func equatableWhenTheUpstreamsAre() {
        #expect(Just(1).combineLatest(Just("A")) == Publishers.CombineLatest(Just(1), Just("A")))
        #expect(Just(1).combineLatest(Just("A")) != Publishers.CombineLatest(Just(1), Just("B")))
        #expect(Just(1).combineLatest(Just("A"), Just(2.0)) == Publishers.CombineLatest3(Just(1), Just("A"), Just(2.0)))
        #expect(Just(1).combineLatest(Just("A"), Just(2.0)) != Publishers.CombineLatest3(Just(1), Just("A"), Just(3.0)))
        let four = Publishers.CombineLatest4(Just(1), Just("A"), Just(2.0), Just(true))
        #expect(Just(1).combineLatest(Just("A"), Just(2.0), Just(true)) == four)
        #expect(Just(1).combineLatest(Just("A"), Just(2.0), Just(false)) != four)
        #expect(four.a == Just(1) && four.b == Just("A") && four.c == Just(2.0) && four.d == Just(true))
    }

    // MARK: Demand

    @Test func everyRequestGoesToEveryUpstream() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        a.combineLatest(b) { $0 * 10 + $1 }.subscribe(subscriber)
        #expect(a.subscription?.history == [.requested(.max(1))])
        #expect(b.subscription?.history == [.requested(.max(1))])
        #expect(a.send(1) == .none)
        #expect(b.send(2) == .none)
        #expect(subscriber.values == [12])
        #expect(a.subscription?.history == [.requested(.max(1))])
        subscriber.request(.max(2))
        #expect(a.subscription?.history == [.requested(.max(1)), .requested(.max(2))])
        #expect(b.subscription?.history == [.requested(.max(1)), .requested(.max(2))])
    }

    @Test func requestsAfterUnlimitedArePassedOnToo() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let c = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.combineLatest(b, c) { $0 + $1 + $2 }.subscribe(subscriber)
        subscriber.request(.max(2))
        for upstream in [a, b, c] {
            #expect(upstream.subscription?.history == [.requested(.unlimited), .requested(.max(2))])
        }
    }

    @Test func valuesBeyondDemandOnlyReplaceTheLatest() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        a.combineLatest(b) { $0 + $1 }.subscribe(subscriber)
        #expect(a.send(100) == .none)
        #expect(b.send(1) == .none)
        #expect(subscriber.values == [101])
        #expect(a.send(200) == .none)
        #expect(a.send(300) == .none)
        #expect(b.send(2) == .none)
        #expect(b.send(3) == .none)
        subscriber.request(.max(1))
        // Demand alone sends nothing: the next value does, with the latest of the other upstream.
        #expect(subscriber.values == [101])
        #expect(a.send(400) == .none)
        #expect(subscriber.values == [101, 403])
    }

    @Test func demandReturnedForAValueIsPassedOnToEveryUpstream() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        a.combineLatest(b) { $0 * 10 + $1 }.subscribe(subscriber)
        #expect(a.send(1) == .none)
        #expect(b.send(2) == .max(1))
        #expect(a.subscription?.history == [.requested(.max(1)), .requested(.max(1))])
        #expect(b.subscription?.history == [.requested(.max(1))])
        #expect(a.send(3) == .max(1))
        #expect(b.subscription?.history == [.requested(.max(1)), .requested(.max(1))])
        #expect(subscriber.values == [12, 32])
    }

    @Test func demandReturnedUnderUnlimitedDemandIsNotPassedOn() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited, demandPerValue: .max(1))
        a.combineLatest(b) { $0 + $1 }.subscribe(subscriber)
        a.send(1)
        #expect(b.send(2) == .none)
        #expect(a.subscription?.history == [.requested(.unlimited)])
    }

    @Test func anUpstreamSubscribingLateIsAskedForEverythingRequested() {
        let late = LatePublisher()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        late.combineLatest(b) { $0 + $1 }.subscribe(subscriber)
        subscriber.request(.max(3))
        let subscription = late.attach()
        #expect(subscription.history == [.requested(.max(5))])
        #expect(late.send(1) == .none)
        #expect(b.send(2) == .none)
        #expect(subscriber.values == [3])
    }

    @Test func requestingNothingStopsTheProgram() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<(Int, Int), Never>(initialDemand: .none)
            PassthroughSubject<Int, Never>().combineLatest(PassthroughSubject<Int, Never>()).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectTrapMessage(trap1, contains: "A subscription's demand must be greater than zero, got max(0)")
    }

    // MARK: Completion and failure

    @Test func finishesOnlyOnceEveryUpstreamFinished() {
        let a = PassthroughSubject<Int, FlowError>()
        let b = PassthroughSubject<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        a.combineLatest(b) { $0 + $1 }.subscribe(subscriber)
        a.send(100)
        a.send(300)
        b.send(1)
        a.send(completion: .finished)
        b.send(2)
        b.send(3)
        #expect(subscriber.completion == nil)
        b.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(301), .value(302), .value(303), .completion(.finished)])
    }

    @Test func anUpstreamFinishingWithoutAValueDoesNotEndTheStream() {
        for finishing in 0..<3 {
            let upstreams = (0..<3).map { _ in FlowPublisher<Int, Never>() }
            let subscriber = TestSubscriber<Int, Never>()
            upstreams[0].combineLatest(upstreams[1], upstreams[2]) { $0 + $1 + $2 }.subscribe(subscriber)
            upstreams[finishing].send(completion: .finished)
            #expect(subscriber.events == [.subscription])
            for (index, upstream) in upstreams.enumerated() where index != finishing {
                #expect(upstream.send(1) == .none)
                #expect(upstream.subscription?.history == [.requested(.unlimited)])
            }
            #expect(subscriber.events == [.subscription])
            for (index, upstream) in upstreams.enumerated() where index != finishing {
                upstream.send(completion: .finished)
            }
            #expect(subscriber.events == [.subscription, .completion(.finished)])
        }
    }

    @Test func aRepeatedFinishDoesNotCountTwice() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.combineLatest(b) { $0 + $1 }.subscribe(subscriber)
        a.send(completion: .finished)
        a.send(completion: .finished)
        #expect(subscriber.completion == nil)
        b.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func aFailureFromAnyUpstreamCancelsTheOthers() {
        for failing in 0..<4 {
            let upstreams = (0..<4).map { _ in FlowPublisher<Int, FlowError>() }
            let subscriber = TestSubscriber<Int, FlowError>()
            upstreams[0].combineLatest(upstreams[1], upstreams[2], upstreams[3]) { $0 + $1 + $2 + $3 }
                .subscribe(subscriber)
            for upstream in upstreams { upstream.send(1) }
            upstreams[failing].send(completion: .failure(FlowError(failing)))
            #expect(subscriber.events == [.subscription, .value(4), .completion(.failure(FlowError(failing)))])
            for (index, upstream) in upstreams.enumerated() {
                let expected: [FlowSubscription.Event] =
                    index == failing ? [.requested(.unlimited)] : [.requested(.unlimited), .cancelled]
                #expect(upstream.subscription?.history == expected)
            }
            for upstream in upstreams {
                #expect(upstream.send(2) == .none)
                upstream.send(completion: .finished)
                upstream.send(completion: .failure(FlowError(9)))
            }
            #expect(subscriber.events.count == 3)
        }
    }

    @Test func aFailureAfterFinishingIsIgnored() {
        let a = FlowPublisher<Int, FlowError>()
        let b = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        a.combineLatest(b) { $0 + $1 }.subscribe(subscriber)
        a.send(completion: .finished)
        b.send(completion: .finished)
        a.send(completion: .failure(FlowError()))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func aCompletionBeforeDownstreamIsSubscribedFollowsTheSubscription() {
        let finished = TestSubscriber<(Int, Int), Never>(initialDemand: .none)
        Empty<Int, Never>().combineLatest(Empty<Int, Never>()).subscribe(finished)
        #expect(finished.events.map(\.description) == ["subscription", "finished"])

        let b = FlowPublisher<Int, FlowError>()
        let failed = TestSubscriber<Int, FlowError>(initialDemand: .none)
        Fail<Int, FlowError>(error: FlowError(3)).combineLatest(b) { $0 + $1 }.subscribe(failed)
        #expect(failed.events == [.subscription, .completion(.failure(FlowError(3)))])
        #expect(b.subscription?.history == [.cancelled])
    }

    // MARK: Cancellation

    @Test func cancelCancelsEveryUpstream() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.combineLatest(b) { $0 + $1 }.subscribe(subscriber)
        b.send(1)
        b.send(completion: .finished)
        subscriber.cancel()
        #expect(a.subscription?.history == [.requested(.unlimited), .cancelled])
        #expect(b.subscription?.history == [.requested(.unlimited)])
        #expect(a.send(1) == .none)
        a.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
    }

    @Test func aSecondSubscriptionFromAnUpstreamIsCancelled() {
        let first = FlowSubscription()
        let second = FlowSubscription()
        let a = FlowClosurePublisher<Int, Never> { subscriber in
            subscriber.receive(subscription: first)
            subscriber.receive(subscription: second)
            subscriber.receive(subscription: first)
        }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        a.combineLatest(Just(1)) { $0 + $1 }.subscribe(subscriber)
        #expect(second.history == [.cancelled])
        #expect(first.history == [.cancelled, .requested(.max(1))])
        subscriber.cancel()
        #expect(first.history == [.cancelled, .requested(.max(1)), .cancelled])
    }

    @Test func anUpstreamSubscribingAfterCancelIsCancelled() {
        let late = LatePublisher()
        let subscriber = TestSubscriber<Int, Never>()
        late.combineLatest(Just(1)) { $0 + $1 }.subscribe(subscriber)
        subscriber.cancel()
        #expect(late.attach().history == [.cancelled])
    }

    @Test func cancelFromInsideDeliveryStopsTheRest() {
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        Just(0).combineLatest([1, 2, 3].publisher) { $0 + $1 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    // MARK: Re-entrancy

    @Test func aValueSentFromInsideDeliveryIsKeptButNotSent() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        var answered: Subscribers.Demand?
        subscriber.onReceiveValue { value in
            if value == 12 { answered = a.send(5) }
        }
        a.combineLatest(b) { $0 * 10 + $1 }.subscribe(subscriber)
        a.send(1)
        b.send(2)
        #expect(answered == Subscribers.Demand.none)
        #expect(subscriber.values == [12])
        b.send(3)
        #expect(subscriber.values == [12, 53])
    }

    @Test func aRequestFromInsideDeliveryIsPassedOnAtOnce() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(10))
        var seenInside: [FlowSubscription.Event]?
        subscriber.onReceiveValue { _ in
            subscriber.request(.max(666))
            seenInside = a.subscription?.history
        }
        a.combineLatest(b) { $0 + $1 }.subscribe(subscriber)
        a.send(1)
        #expect(b.send(1) == .none)
        #expect(seenInside == [.requested(.max(10)), .requested(.max(666))])
        #expect(b.subscription?.history == [.requested(.max(10)), .requested(.max(666))])
    }

    @Test func aCompletionFromInsideDeliveryFollowsIt() {
        let a = FlowPublisher<Int, FlowError>()
        let b = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        var completedInside: Bool?
        subscriber.onReceiveValue { _ in
            a.send(completion: .finished)
            b.send(completion: .finished)
            completedInside = subscriber.completion != nil
        }
        a.combineLatest(b) { $0 + $1 }.subscribe(subscriber)
        a.send(1)
        b.send(2)
        #expect(completedInside == false)
        #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
    }

    @Test func aFailureFromInsideDeliveryCancelsTheOthersAndFollowsIt() {
        let a = FlowPublisher<Int, FlowError>()
        let b = FlowPublisher<Int, FlowError>()
        let subscriber = TestSubscriber<Int, FlowError>()
        subscriber.onReceiveValue { _ in b.send(completion: .failure(FlowError(7))) }
        a.combineLatest(b) { $0 + $1 }.subscribe(subscriber)
        a.send(1)
        b.send(2)
        #expect(subscriber.events == [.subscription, .value(3), .completion(.failure(FlowError(7)))])
        #expect(a.subscription?.history == [.requested(.unlimited), .cancelled])
        #expect(b.subscription?.history == [.requested(.unlimited)])
    }

    // MARK: Naming and lifetime

    @Test func describesItselfAsCombineLatest() {
        let a = FlowPublisher<Int, Never>()
        let b = FlowPublisher<Int, Never>()
        let subscriber = TestSubscriber<(Int, Int), Never>(initialDemand: .max(3))
        a.combineLatest(b).subscribe(subscriber)
        a.send(7)
        #expect(a.subscriberDescription == "CombineLatest")
        let subscription = try! #require(subscriber.subscription)
        #expect(String(describing: subscription) == "CombineLatest")
        let playground = (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription
        #expect(playground as? String == "CombineLatest")
        let children = Array(Mirror(reflecting: subscription).children)
        #expect(children.map(\.label) == ["downstream", "upstreamSubscriptions", "demand", "buffers"])
        #expect(children[2].value as? Subscribers.Demand == .max(3))
        #expect((children[3].value as? [Any?])?.map { $0 as? Int } == [7, nil])
        #expect((children[1].value as? [(any Subscription)?])?.count == 2)
    }

    @Test func releasesEverythingAfterCancel() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<FlowToken, Never>()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        weak var weakSubscription: AnyObject?
        weak var weakToken: FlowToken?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            a.combineLatest(b) { value, _ in value }.subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            let token = FlowToken()
            weakToken = token
            b.send(token)
            a.send(1)
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
        #expect(weakToken == nil)
    }

    @Test func releasesEverythingAfterFinishingOrFailing() {
        for fails in [false, true] {
            let a = PassthroughSubject<Int, FlowError>()
            let b = PassthroughSubject<Int, FlowError>()
            weak var weakSubscriber: TestSubscriber<Int, FlowError>?
            weak var weakSubscription: AnyObject?
            do {
                let subscriber = TestSubscriber<Int, FlowError>()
                weakSubscriber = subscriber
                a.combineLatest(b) { $0 + $1 }.subscribe(subscriber)
                weakSubscription = subscriber.subscription as AnyObject?
                a.send(1)
                b.send(2)
                if fails {
                    b.send(completion: .failure(FlowError()))
                } else {
                    a.send(completion: .finished)
                    b.send(completion: .finished)
                }
                #expect(subscriber.completion != nil)
            }
            #expect(weakSubscriber == nil)
            #expect(weakSubscription == nil)
        }
    }

    /// Subscribes with unlimited demand and returns the values, checking that the publisher finished.
    private func collect<P: Publisher>(_ publisher: P) -> [P.Output] where P.Failure == Never {
        let subscriber = TestSubscriber<P.Output, Never>()
        publisher.subscribe(subscriber)
        #expect(subscriber.completion == .finished)
        return subscriber.values
    }
}

extension CombineLatestTests {
    // MARK: Threads

    @Test func upstreamsOnManyThreadsEndWithTheLastValueOfEach() {
        let perThread = 2_000
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let detector = ReentryDetector()
        let subscriber = TestSubscriber<(Int, Int, Int, Int), Never>()
        subscriber.onReceiveValue { _ in detector.enter(spin: 500) {} }
        subjects[0].combineLatest(subjects[1], subjects[2], subjects[3]).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: subjects.count) { thread in
            for value in 0..<perThread { subjects[thread].send(value) }
            subjects[thread].send(completion: .finished)
        }
        let values = subscriber.values.map { [$0.0, $0.1, $0.2, $0.3] }
        #expect(values.last == [perThread - 1, perThread - 1, perThread - 1, perThread - 1])
        #expect(subscriber.completion == .finished)
        #expect(detector.overlaps == 0)
        for index in 0..<4 {
            let component = values.map { $0[index] }
            #expect(component == component.sorted())
        }
    }

    @Test func upstreamsOnManyThreadsWithBoundedDemand() {
        let perThread = 300
        let sources = (0..<3).map { _ in ThreadedSource() }
        let detector = ReentryDetector()
        let subscriber = TestSubscriber<(Int, Int, Int), Never>(initialDemand: .max(1), demandPerValue: .max(1))
        subscriber.onReceiveValue { _ in detector.enter(spin: 500) {} }
        sources[0].combineLatest(sources[1], sources[2]).subscribe(subscriber)
        // Threads of their own: each source blocks until it has demand, which a value from another
        // source may bring.
        let returned = runOnThreads(sources.count) { thread in sources[thread].run(Array(0..<perThread)) }
        #expect(returned)
        let values = subscriber.values.map { [$0.0, $0.1, $0.2] }
        #expect(values.last == [perThread - 1, perThread - 1, perThread - 1])
        #expect(subscriber.completion == .finished)
        #expect(detector.overlaps == 0)
        for index in 0..<3 {
            let component = values.map { $0[index] }
            #expect(component == component.sorted())
        }
    }

    @Test func concurrentRequestsValuesAndFailure() {
        let threads = 3
        let perThread = 300
        let subjects = (0..<threads).map { _ in PassthroughSubject<Int, FlowError>() }
        let detector = ReentryDetector()
        let subscriber = TestSubscriber<Int, FlowError>(initialDemand: .none)
        subscriber.onReceiveValue { _ in detector.enter(spin: 200) {} }
        subjects[0].combineLatest(subjects[1], subjects[2]) { $0 + $1 + $2 }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: threads * 2 + 1) { task in
            if task < threads {
                for value in 0..<perThread { subjects[task].send(value) }
            } else if task < threads * 2 {
                for _ in 0..<perThread { subscriber.request(.max(1)) }
            } else {
                subjects[1].send(completion: .failure(FlowError(9)))
            }
        }
        let events = subscriber.events
        #expect(events.last == .completion(.failure(FlowError(9))))
        #expect(events.filter { $0.completion != nil }.count == 1)
        #expect(subscriber.values.count <= threads * perThread)
        #expect(detector.overlaps == 0)
    }

    @Test func cancelRacingValuesFromManyThreads() {
        let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        let detector = ReentryDetector()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        subscriber.onReceiveValue { _ in detector.enter(spin: 200) {} }
        subjects[0].combineLatest(subjects[1], subjects[2]) { $0 + $1 + $2 }.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: subjects.count + 1) { task in
            if task < subjects.count {
                for value in 0..<500 { subjects[task].send(value) }
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
}

/// A publisher whose subscriber receives its subscription only when the test calls ``attach()``.
final class LatePublisher: Publisher, @unchecked Sendable {
    // @unchecked: used from one thread.
    typealias Output = Int
    typealias Failure = Never

    private var subscriber: AnySubscriber<Int, Never>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        self.subscriber = AnySubscriber(subscriber)
    }

    /// Gives the subscriber a fresh subscription and returns it.
    func attach() -> FlowSubscription {
        let subscription = FlowSubscription()
        subscriber?.receive(subscription: subscription)
        return subscription
    }

    func send(_ value: Int) -> Subscribers.Demand {
        subscriber?.receive(value) ?? .none
    }
}
