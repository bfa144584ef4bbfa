import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct ThrottleTests {
    // MARK: Values at exact virtual times

    @Test func latestPublishesTheFirstValueAtOnceThenTheLatestOfEachInterval() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        let arrivals = pacingArrivals(of: subscriber, on: scheduler, since: start)

        subject.send(1)  // t = 0: scheduled at once...
        #expect(subscriber.values == [])
        scheduler.advance()  // ...and delivered when the scheduler runs, still at t = 0.
        #expect(subscriber.values == [1])

        scheduler.advance(by: .milliseconds(200))
        subject.send(2)  // t = 200: waits until t = 1000
        scheduler.advance(by: .milliseconds(300))
        subject.send(3)  // t = 500: replaces 2
        scheduler.advance(by: .milliseconds(499))
        #expect(subscriber.values == [1])
        scheduler.advance(by: .milliseconds(1))  // t = 1000
        #expect(subscriber.values == [1, 3])

        subject.send(4)  // t = 1000: waits until t = 2000
        subject.send(5)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 3, 5])
        #expect(arrivals.values == [0, 1_000, 2_000])
    }

    @Test func firstKeepsTheFirstValueOfEachInterval() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: false).subscribe(subscriber)
        let arrivals = pacingArrivals(of: subscriber, on: scheduler, since: start)

        subject.send(1)
        subject.send(2)  // Dropped: 1 is waiting.
        scheduler.advance()
        #expect(subscriber.values == [1])

        scheduler.advance(by: .milliseconds(200))
        subject.send(3)  // t = 200: waits until t = 1000
        scheduler.advance(by: .milliseconds(300))
        subject.send(4)  // Dropped.
        scheduler.advance(by: .milliseconds(500))
        #expect(subscriber.values == [1, 3])
        #expect(arrivals.values == [0, 1_000])
    }

    @Test func valuesBeforeTheFirstDeliveryRunCollapse() {
        for (latest, expected) in [(true, 3), (false, 1)] {
            let scheduler = DispatchQueue.test
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>()
            subject.throttle(for: .seconds(1337), scheduler: scheduler, latest: latest).subscribe(subscriber)
            subject.send(1)
            subject.send(2)
            subject.send(3)
            #expect(scheduler.scheduledCount == 1)
            scheduler.advance()
            #expect(subscriber.values == [expected])
        }
    }

    @Test func aValueAfterAQuietGapGoesOutAtOnce() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.throttle(for: .seconds(60), scheduler: scheduler, latest: false).subscribe(subscriber)
        let arrivals = pacingArrivals(of: subscriber, on: scheduler, since: start)

        subject.send(0)
        scheduler.advance()
        scheduler.advance(by: .seconds(45))
        subject.send(1)  // t = 45 s: waits until 60 s, one interval after 0 went out.
        scheduler.advance(by: .seconds(15))
        #expect(subscriber.values == [0, 1])
        scheduler.advance(by: .seconds(61))
        subject.send(2)  // t = 121 s: the interval has passed, so at once.
        scheduler.advance()
        #expect(subscriber.values == [0, 1, 2])
        #expect(arrivals.values == [0, 60_000, 121_000])
    }

    @Test func immediateSchedulerPublishesAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.throttle(for: .seconds(60), scheduler: ImmediateScheduler.shared, latest: true).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func theDocumentationExampleHolds() {
        let scheduler = DispatchQueue.test
        let taps = PassthroughSubject<Int, Never>()
        var printed: [Int] = []
        let cancellable =
            taps
            .throttle(for: .seconds(1), scheduler: scheduler, latest: true)
            .sink { printed.append($0) }
        taps.send(1)
        scheduler.advance()
        taps.send(2)
        scheduler.advance(by: .milliseconds(500))
        taps.send(3)
        scheduler.advance(by: .milliseconds(500))
        #expect(printed == [1, 3])
        cancellable.cancel()
    }

    // MARK: Completion and failure

    @Test func aCompletionWithNothingWaitingGoesOutOnTheScheduler() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, PacingError>()
        let subscriber = TestSubscriber<Int, PacingError>()
        subject.throttle(for: .seconds(60), scheduler: scheduler, latest: true).subscribe(subscriber)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription])
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    @Test func aCompletionWaitsForTheWaitingValueAndGoesOutWithIt() {
        for completion in [Subscribers.Completion<PacingError>.finished, .failure(.oops)] {
            let scheduler = DispatchQueue.test
            let start = scheduler.now
            let subject = PassthroughSubject<Int, PacingError>()
            let subscriber = TestSubscriber<Int, PacingError>()
            subject.throttle(for: .seconds(60), scheduler: scheduler, latest: true).subscribe(subscriber)
            let arrivals = pacingArrivals(of: subscriber, on: scheduler, since: start)
            subject.send(-1)
            scheduler.advance()
            subject.send(1000)  // Waits until 60 s.
            subject.send(completion: completion)
            subject.send(completion: .finished)
            scheduler.advance(by: .seconds(59))
            #expect(subscriber.events == [.subscription, .value(-1)])
            scheduler.advance(by: .seconds(1))
            #expect(subscriber.events == [.subscription, .value(-1), .value(1000), .completion(completion)])
            #expect(arrivals.values == [0, 60_000])
        }
    }

    @Test func ignoresEventsAfterCompletion() {
        let scheduler = DispatchQueue.test
        let upstream = PacingUpstream<Int, PacingError>()
        let subscriber = TestSubscriber<Int, PacingError>()
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        upstream.send(completion: .failure(.oops))
        upstream.send(completion: .finished)
        #expect(upstream.send(5) == Subscribers.Demand.none)
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    // MARK: Demand

    @Test func asksUpstreamForEverythingBeforeHandingDownTheSubscription() {
        let upstream = PacingUpstream<Int, Never>()
        var upstreamEventsOnArrival: [PacingUpstreamEvent]?
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        let probe = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in
                upstreamEventsOnArrival = upstream.events
                subscriber.receive(subscription: subscription)
            },
            receiveValue: { subscriber.receive($0) },
            receiveCompletion: { subscriber.receive(completion: $0) })
        upstream.throttle(for: .seconds(1), scheduler: DispatchQueue.test, latest: true).subscribe(probe)
        #expect(upstreamEventsOnArrival == [.requested(.unlimited)])
        subscriber.request(.max(3))
        #expect(upstream.events == [.requested(.unlimited)])
    }

    @Test func valuesArrivingWithoutDemandAreDropped() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .seconds(2))
        subscriber.request(.max(1))
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.values == [])  // 1 came without demand and is gone.
        subject.send(2)
        scheduler.advance()
        #expect(subscriber.values == [2])
    }

    @Test func demandIsTakenWhenAValueIsScheduledSoLaterOnesCannotReplaceIt() {
        // As in Combine: with demand for one, the first value takes it and later ones are dropped
        // before `latest` is considered.
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        scheduler.advance()
        #expect(subscriber.values == [1])
    }

    @Test func boundedDemandIsHonouredAcrossIntervals() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        subject.throttle(for: .seconds(1337), scheduler: scheduler, latest: false).subscribe(subscriber)
        subject.send(1)
        subject.send(5)
        scheduler.advance()
        subject.send(2)
        scheduler.advance(by: .seconds(1337))
        #expect(subscriber.values == [1, 2])
        subject.send(3)
        #expect(scheduler.scheduledCount == 0)  // No demand: nothing is scheduled.
        scheduler.advance(by: .seconds(2000))
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(1))
        subject.send(4)
        scheduler.advance()
        #expect(subscriber.values == [1, 2, 4])
    }

    @Test func requestingNoneIsIgnored() throws {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        subject.throttle(for: .seconds(10), scheduler: scheduler, latest: true).subscribe(subscriber)
        subscriber.request(.none)
        subject.send(1)
        scheduler.advance()
        #expect(subscriber.values == [])
        subscriber.request(.max(1))
        subject.send(2000)
        scheduler.advance()
        #expect(subscriber.values == [2000])
    }

    // MARK: Cancellation and lifetime

    @Test func readsTheClockWhenCombineDoes() {
        let scheduler = CountingScheduler(DispatchQueue.test)
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        // Once as the operator's subscriber is made, once at the subscription.
        #expect(scheduler.nowCount == 2)
        subject.send(1)
        #expect(scheduler.nowCount == 3)
        // An element going out alone reads it again, to start the next window.
        scheduler.base.advance()
        #expect(scheduler.nowCount == 4)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(scheduler.nowCount == 6)
        // An element going out with the completion does not.
        scheduler.base.advance(by: .seconds(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(scheduler.nowCount == 6)
    }

    @Test func theClockIsNotReadOnceCancelled() {
        let scheduler = CountingScheduler(DispatchQueue.test)
        let upstream = PacingUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        let reads = scheduler.nowCount
        scheduler.base.advance()
        _ = upstream.send(2)
        upstream.send(completion: .finished)
        #expect(scheduler.nowCount == reads)
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancellingDropsTheWaitingValueAndReachesUpstream() {
        let scheduler = DispatchQueue.test
        let upstream = PacingUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.throttle(for: .seconds(60), scheduler: scheduler, latest: true).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        scheduler.advance(by: .seconds(120))
        #expect(subscriber.events == [.subscription])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        #expect(upstream.send(2) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        scheduler.advance(by: .seconds(120))
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancellingAfterUpstreamFinishedStillReachesUpstreamAndSuppressesTheCompletion() throws {
        let scheduler = DispatchQueue.test
        let upstream = PacingUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.throttle(for: .seconds(60), scheduler: scheduler, latest: true).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        upstream.send(completion: .finished)
        subscription.cancel()
        subscription.cancel()
        scheduler.advance()
        #expect(subscriber.events == [.subscription])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
    }

    @Test func scheduledWorkDoesNotKeepTheSubscriptionAlive() {
        let scheduler = DispatchQueue.test
        weak var weakInner: AnyObject?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        weak var weakSubject: PassthroughSubject<Int, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.throttle(for: .seconds(60), scheduler: scheduler, latest: true).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(42)  // An emission is scheduled.
            subscriber.cancel()
        }
        #expect(scheduler.scheduledCount == 1)
        #expect(weakInner == nil)
        #expect(weakSubscriber == nil)
        #expect(weakSubject == nil)
        scheduler.advance()
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func releasesEverythingAfterTheCompletionIsDelivered() {
        let scheduler = DispatchQueue.test
        weak var weakInner: AnyObject?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        let subject = PassthroughSubject<Int, Never>()
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.throttle(for: .seconds(1), scheduler: scheduler, latest: false).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
            subject.send(completion: .finished)
            scheduler.advance()
            #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        }
        #expect(weakInner == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let upstream = PacingUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.throttle(for: .seconds(60), scheduler: ImmediateScheduler.shared, latest: true).subscribe(subscriber)
        let second = PacingSubscription()
        upstream.send(subscription: second)
        #expect(second.events == [.cancelled])
        upstream.send(subscription: upstream.subscription)
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        subscriber.cancel()
        #expect(upstream.events == [.requested(.unlimited), .cancelled, .cancelled])
    }

    // MARK: Re-entrancy

    @Test func valuesSentFromInsideReceiveOnAnImmediateSchedulerArriveInOrder() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        var remaining = 5
        subscriber.onReceiveValue { _ in
            guard remaining > 0 else { return }
            remaining -= 1
            subject.send(-1)
        }
        subject.throttle(for: .seconds(60), scheduler: ImmediateScheduler.shared, latest: true).subscribe(subscriber)
        subject.send(0)
        #expect(subscriber.values == [0, -1, -1, -1, -1, -1])
    }

    @Test func completingFromInsideTheCompletionIsHarmless() {
        let subject = PassthroughSubject<Int, Never>()
        var completions = 0
        let cancellable =
            subject
            .throttle(for: .seconds(60), scheduler: ImmediateScheduler.shared, latest: true)
            .sink(
                receiveCompletion: { _ in
                    completions += 1
                    subject.send(completion: .finished)
                },
                receiveValue: { _ in })
        subject.send(completion: .finished)
        #expect(completions == 1)
        cancellable.cancel()
    }

    @Test func cancellingFromInsideReceiveStopsEverything() {
        let scheduler = DispatchQueue.test
        let upstream = PacingUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        upstream.throttle(for: .seconds(60), scheduler: scheduler, latest: true).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance()
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        upstream.send(2)
        scheduler.advance(by: .seconds(120))
        #expect(subscriber.values == [1])
    }

    @Test func requestingFromInsideReceiveKeepsValuesComing() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        for value in 1...3 {
            subject.send(value)
            scheduler.advance(by: .seconds(1))
        }
        #expect(subscriber.values == [1, 2, 3])
    }

    // MARK: How it uses its scheduler

    @Test func schedulesAtOnceOrAfterTheIntervalWithTheMinimumTolerance() {
        let scheduler = PacingRecordingScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.throttle(for: .nanoseconds(100), scheduler: scheduler, latest: true).subscribe(subscriber)
        subject.send(1)
        scheduler.base.advance()
        subject.send(2)
        subject.send(3)
        subject.send(completion: .finished)
        scheduler.base.advance(by: .nanoseconds(100))
        #expect(scheduler.calls == [.now(options: nil), .after(100, tolerance: 7, options: nil)])
        #expect(subscriber.events == [.subscription, .value(1), .value(3), .completion(.finished)])
    }

    // MARK: Description

    @Test func describesItselfAsCombineDoes() throws {
        let subscriber = TestSubscriber<String, Never>()
        PassthroughSubject<String, Never>()
            .throttle(for: .seconds(60), scheduler: ImmediateScheduler.shared, latest: true)
            .subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Throttle")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Throttle")
        #expect(Mirror(reflecting: subscription).children.isEmpty)
    }

    @Test func keepsItsConfiguration() {
        let throttle = Empty<Int, Never>().throttle(
            for: .seconds(2), scheduler: ImmediateScheduler.shared, latest: false)
        #expect(throttle.interval == .seconds(2))
        #expect(throttle.latest == false)
    }

    // MARK: Real schedulers and threads

    @Test func throttlesOnARealDispatchQueue() {
        let queue = DispatchQueue(label: "throttle")
        let subject = PassthroughSubject<Int, Never>()
        let received = PacingCounter<Int>()
        let cancellable =
            subject
            .throttle(for: .seconds(60), scheduler: queue, latest: true)
            .sink { received.append($0) }
        // The burst is sent from the queue itself, so the first emission runs after all of it.
        queue.sync {
            for value in 1...100 { subject.send(value) }
        }
        #expect(received.wait(forCount: 1))
        #expect(received.values == [100])
        cancellable.cancel()
    }

    @Test func valuesFromManyThreadsAtOneInstantGiveOneValue() throws {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        // A plain subscriber sees the sends in the order the subject took them, one at a time.
        let everything = TestSubscriber<Int, Never>()
        subject.subscribe(everything)
        subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 0..<200 { subject.send(thread * 200 + value) }
        }
        #expect(scheduler.scheduledCount == 1)
        scheduler.advance(by: .seconds(5))
        #expect(Set(everything.values) == Set(0..<1_600))
        // The one value is the latest of them all.
        #expect(subscriber.values == [try #require(everything.values.last)])
    }
}
