import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct CollectByTimeTests {
    // MARK: By time

    @Test func byTimeSendsWhatEachIntervalCollected() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        let arrivals = pacingArrivals(of: subscriber, on: scheduler, since: start)

        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .milliseconds(999))
        #expect(subscriber.values == [])
        scheduler.advance(by: .milliseconds(1))  // t = 1000
        #expect(subscriber.values == [[1, 2]])
        scheduler.advance(by: .seconds(1))  // t = 2000: nothing collected, nothing sent.
        #expect(subscriber.values == [[1, 2]])
        scheduler.advance(by: .milliseconds(500))
        subject.send(3)  // t = 2500
        scheduler.advance(by: .milliseconds(500))  // t = 3000
        subject.send(4)
        subject.send(5)
        scheduler.advance(by: .seconds(1))  // t = 4000
        #expect(subscriber.values == [[1, 2], [3], [4, 5]])
        #expect(arrivals.values == [1_000, 3_000, 4_000])
    }

    @Test func byTimeFinishingSendsTheRestThenFinishesOnTheScheduler() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, PacingError>()
        let subscriber = TestSubscriber<[Int], PacingError>()
        subject.collect(.byTime(scheduler, .seconds(2))).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .seconds(2))
        subject.send(3)
        subject.send(4)
        subject.send(5)
        scheduler.advance(by: .seconds(1))
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value([1, 2])])
        #expect(scheduler.scheduledCount == 1)  // The flush; the timer is gone.
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value([1, 2]), .value([3, 4, 5]), .completion(.finished)])
    }

    @Test func finishingWithNothingCollectedOnlyFinishes() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        subject.send(completion: .finished)
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value([1]), .completion(.finished)])
    }

    @Test func failingDropsWhatWasCollectedAndFailsOnTheScheduler() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, PacingError>()
        let subscriber = TestSubscriber<[Int], PacingError>()
        subject.collect(.byTime(scheduler, .seconds(2))).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .seconds(2))
        subject.send(3)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value([1, 2])])
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value([1, 2]), .completion(.failure(.oops))])
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.events.count == 3)
    }

    @Test func ignoresEventsAfterCompletion() {
        let scheduler = DispatchQueue.test
        let upstream = PacingUpstream<Int, PacingError>()
        let subscriber = TestSubscriber<[Int], PacingError>()
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        upstream.send(completion: .finished)
        upstream.send(completion: .failure(.oops))
        #expect(upstream.send(1) == Subscribers.Demand.none)
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    // MARK: By time or count

    @Test func byTimeOrCountAlsoSendsFullArraysOnTheScheduler() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subject.collect(.byTimeOrCount(scheduler, .seconds(2), 2)).subscribe(subscriber)
        let arrivals = pacingArrivals(of: subscriber, on: scheduler, since: start)

        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(subscriber.values == [])
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.values == [[1, 2], [3]])
        for value in 4...8 { subject.send(value) }
        scheduler.advance(by: .seconds(2))
        subject.send(completion: .finished)
        scheduler.advance()
        #expect(
            subscriber.events == [
                .subscription, .value([1, 2]), .value([3]), .value([4, 5]), .value([6, 7]), .value([8]),
                .completion(.finished),
            ])
        #expect(arrivals.values == [0, 2_000, 2_000, 2_000, 4_000])
    }

    @Test func aFullArrayStartsANewInterval() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subject.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(subscriber)
        let arrivals = pacingArrivals(of: subscriber, on: scheduler, since: start)

        scheduler.advance(by: .milliseconds(500))
        subject.send(1)
        subject.send(2)  // t = 500: full; the next interval ends at 1500, not 1000.
        scheduler.advance(by: .milliseconds(100))
        subject.send(3)
        scheduler.advance(by: .milliseconds(400))  // t = 1000
        #expect(subscriber.values == [[1, 2]])
        scheduler.advance(by: .milliseconds(499))
        #expect(subscriber.values == [[1, 2]])
        scheduler.advance(by: .milliseconds(1))  // t = 1500
        #expect(subscriber.values == [[1, 2], [3]])
        #expect(arrivals.values == [500, 1_500])
    }

    @Test func byTimeOrCountFinishingSendsTheRestInArraysOfAtMostCount() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subject.collect(.byTimeOrCount(scheduler, .seconds(1), 3)).subscribe(subscriber)
        for value in 1...4 { subject.send(value) }
        subject.send(completion: .finished)
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value([1, 2, 3]), .value([4]), .completion(.finished)])
    }

    @Test func zeroCountIsAProgrammerErrorOnSubscribe() async {
        _ = Empty<Int, Never>().collect(.byTimeOrCount(DispatchQueue.test, .seconds(1), 0))
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Empty<Int, Never>().collect(.byTimeOrCount(ImmediateScheduler.shared, .seconds(1), 0))
                .subscribe(TestSubscriber<[Int], Never>())
        }
        expectTrapMessage(trap1, contains: "collect(.byTimeOrCount(_:_:_:)) needs a count greater than zero, got 0")
    }

    @Test func negativeCountIsAProgrammerErrorOnSubscribe() async {
        _ = Empty<Int, Never>().collect(.byTimeOrCount(DispatchQueue.test, .seconds(1), -1))
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Empty<Int, Never>().collect(.byTimeOrCount(ImmediateScheduler.shared, .seconds(1), Int.min))
                .subscribe(TestSubscriber<[Int], Never>())
        }
        expectTrapMessage(
            trap1, contains: "collect(.byTimeOrCount(_:_:_:)) needs a count greater than zero, got \(Int.min)")
    }

    @Test func theDocumentationExampleHolds() {
        let scheduler = DispatchQueue.test
        let readings = PassthroughSubject<Int, Never>()
        var printed: [String] = []
        let cancellable =
            readings
            .collect(.byTimeOrCount(scheduler, .seconds(1), 3))
            .sink(receiveCompletion: { printed.append("\($0)") }, receiveValue: { printed.append("\($0)") })
        readings.send(1)
        readings.send(2)
        scheduler.advance(by: .seconds(1))
        readings.send(3)
        readings.send(4)
        readings.send(5)
        scheduler.advance()
        readings.send(6)
        readings.send(completion: .finished)
        scheduler.advance()
        #expect(printed == ["[1, 2]", "[3, 4, 5]", "[6]", "finished"])
        cancellable.cancel()
    }

    // MARK: Demand

    @Test func byTimeAsksUpstreamForOneAtATime() {
        let scheduler = DispatchQueue.test
        let upstream = PacingUpstream<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .none)
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        #expect(upstream.events == [])
        subscriber.request(.max(2))
        #expect(upstream.events == [.requested(.max(1))])
        for value in 1...3 {
            #expect(upstream.send(value) == .max(1))
        }
        subscriber.request(.max(2))
        #expect(upstream.events == [.requested(.max(1)), .requested(.max(1))])
    }

    @Test func byTimeOrCountAsksUpstreamForCountTimesTheDemand() {
        let scheduler = DispatchQueue.test
        let upstream = PacingUpstream<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(2))
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 3)).subscribe(subscriber)
        #expect(upstream.events == [.requested(.max(6))])
        subscriber.request(.unlimited)
        #expect(upstream.events == [.requested(.max(6)), .requested(.unlimited)])
    }

    @Test func demandFromFullArraysGoesUpstreamButDemandFromTimedOnesDoesNot() {
        // The sequence Combine produces (checked against Combine by CombineX): a count of two and
        // an initial demand of two; the array holding 0 asks for one more, the one holding 2 for five.
        let scheduler = DispatchQueue.test
        let upstream = PacingUpstream<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(2)) { array in
            if array.contains(0) { return .max(1) }
            if array.contains(2) { return .max(5) }
            return .none
        }
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(subscriber)
        var answered: [Subscribers.Demand] = []
        var sent = 0
        for value in 0..<100 {
            if value.isMultiple(of: 3) { scheduler.advance(by: .seconds(1)) }
            // Like a well-behaved publisher, send only what was asked for.
            guard upstream.subscription.totalDemand > sent else { continue }
            answered.append(upstream.send(value))
            sent += 1
        }
        #expect(answered == Array(repeating: Subscribers.Demand.none, count: 6))
        #expect(upstream.events == [.requested(.max(4)), .requested(.max(2))])
        #expect(subscriber.values == [[0, 1], [2], [3, 4], [5]])
    }

    @Test func anIntervalWithoutDemandKeepsWhatItCollected() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        subject.send(2)
        scheduler.advance(by: .seconds(1))  // No demand: [2] is kept.
        subject.send(3)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [[1]])
        subscriber.request(.max(1))
        #expect(subscriber.values == [[1]])  // Arrays go out at the end of an interval only.
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [[1], [2, 3]])
    }

    @Test func demandForHundredsOfValuesGivesOnlyAsManyArraysAsRequested() {
        // Combine's behaviour, checked against Combine by CombineX: demand for two arrays, and one
        // more after each array holding 0 or 5.
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(2)) { array in
            Set(array).isDisjoint(with: [0, 5]) ? .none : .max(1)
        }
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        for value in 0..<100 {
            if value.isMultiple(of: 3) { scheduler.advance(by: .seconds(1)) }
            subject.send(value)
        }
        #expect(subscriber.values == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]])
    }

    @Test func finishingWaitsForDemandToSendTheRest() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        subject.send(2)
        subject.send(3)
        subject.send(completion: .finished)
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value([1])])
        subscriber.request(.max(1))
        #expect(subscriber.events.count == 2)  // On the scheduler, not inside the request.
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value([1]), .value([2, 3]), .completion(.finished)])
    }

    @Test func demandReturnedWhileFinishingLetsTheRestOutAtOnce() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(2)) { $0 == [1] ? .none : .max(1) }
        subject.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .seconds(1))  // [1] takes one of the two.
        subject.send(2)
        subject.send(3)
        subject.send(4)
        subject.send(completion: .finished)
        scheduler.advance()  // [2, 3] takes the other, and asks for one more: [4] follows.
        #expect(
            subscriber.events == [.subscription, .value([1]), .value([2, 3]), .value([4]), .completion(.finished)])
    }

    @Test func aFailureDoesNotWaitForDemand() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, PacingError>()
        let subscriber = TestSubscriber<[Int], PacingError>(initialDemand: .max(1))
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        subject.send(2)
        subject.send(completion: .failure(.oops))
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value([1]), .completion(.failure(.oops))])
    }

    // MARK: Cancellation and lifetime

    @Test func cancellingStopsTheTimerAndReachesUpstream() {
        let scheduler = DispatchQueue.test
        let upstream = PacingUpstream<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        #expect(scheduler.scheduledCount == 1)
        upstream.send(1)
        subscriber.cancel()
        #expect(scheduler.scheduledCount == 0)
        #expect(upstream.events == [.requested(.max(1)), .cancelled])
        #expect(upstream.send(2) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancellingWithAFullArrayScheduledSendsNothing() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subject.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subscriber.cancel()
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.events == [.subscription])
    }

    @Test func releasesEverythingAfterCancel() {
        let scheduler = DispatchQueue.test
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        weak var weakSubscriber: TestSubscriber<[Int], Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let subscriber = TestSubscriber<[Int], Never>()
            weakSubscriber = subscriber
            subject.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
            subscriber.cancel()
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func releasesEverythingAfterTheCompletionIsDelivered() {
        let scheduler = DispatchQueue.test
        weak var weakInner: AnyObject?
        weak var weakSubscriber: TestSubscriber<[Int], Never>?
        let subject = PassthroughSubject<Int, Never>()
        do {
            let subscriber = TestSubscriber<[Int], Never>()
            weakSubscriber = subscriber
            subject.collect(.byTimeOrCount(scheduler, .seconds(1), 5)).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
            subject.send(completion: .finished)
            scheduler.advance()
            #expect(subscriber.values == [[1]])
        }
        #expect(scheduler.scheduledCount == 0)
        #expect(weakInner == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let upstream = PacingUpstream<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        upstream.collect(.byTime(DispatchQueue.test, .seconds(1))).subscribe(subscriber)
        let second = PacingSubscription()
        upstream.send(subscription: second)
        #expect(second.events == [.cancelled])
        #expect(subscriber.subscriptionCount == 1)
    }

    // MARK: Re-entrancy

    @Test func requestingFromInsideReceiveKeepsArraysComing() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        subject.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        scheduler.advance()
        #expect(subscriber.values == [[1, 2]])
        subject.send(3)
        subject.send(4)
        scheduler.advance()
        subject.send(5)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [[1, 2], [3, 4], [5]])
    }

    @Test func cancellingFromInsideReceiveStopsEverything() {
        let scheduler = DispatchQueue.test
        let upstream = PacingUpstream<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(subscriber)
        for value in 1...4 { upstream.send(value) }
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.values == [[1, 2]])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func sendingUpstreamFromInsideReceiveCollectsForTheNextArray() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subscriber.onReceiveValue { array in
            if array == [1] { subject.send(2) }
        }
        subject.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.values == [[1], [2]])
    }

    @Test func worksOnAnImmediateScheduler() {
        let subscriber = TestSubscriber<[Int], Never>()
        (1...5).publisher.collect(.byTimeOrCount(ImmediateScheduler.shared, .seconds(1), 2)).subscribe(subscriber)
        #expect(
            subscriber.events == [.subscription, .value([1, 2]), .value([3, 4]), .value([5]), .completion(.finished)])
    }

    // MARK: How it uses its scheduler

    @Test func schedulesARepeatingTimerAndEverythingElseWithItsOptions() {
        let scheduler = PacingRecordingScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subject.collect(.byTimeOrCount(scheduler, .nanoseconds(100), 2), options: "batch").subscribe(subscriber)
        scheduler.base.advance(by: .nanoseconds(50))
        subject.send(1)
        subject.send(2)
        subject.send(3)
        subject.send(completion: .finished)
        scheduler.base.advance()
        #expect(
            scheduler.calls == [
                .every(100, interval: 100, tolerance: 7, options: "batch"),
                .every(150, interval: 100, tolerance: 7, options: "batch"),
                .now(options: "batch"),
                .now(options: "batch"),
            ])
        #expect(subscriber.events == [.subscription, .value([1, 2]), .value([3]), .completion(.finished)])
    }

    // MARK: Description

    @Test func describesItselfAsCombineDoes() throws {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subject.collect(.byTime(DispatchQueue.test, .seconds(1))).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "CollectByTime")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "CollectByTime")
        subject.send(7)
        #expect(Mirror(reflecting: subscription).descendant("buffer") as? [Int] == [7])
    }

    @Test func keepsItsConfiguration() {
        let publisher = Empty<Int, Never>().collect(.byTimeOrCount(ImmediateScheduler.shared, .seconds(2), 4))
        guard case .byTimeOrCount(_, let stride, let count) = publisher.strategy else {
            Issue.record("Expected byTimeOrCount")
            return
        }
        #expect(stride == .seconds(2))
        #expect(count == 4)
        #expect(publisher.options == nil)
    }

    // MARK: Real schedulers and threads

    @Test func collectsOnARealDispatchQueue() {
        let queue = DispatchQueue(label: "collect")
        let subject = PassthroughSubject<Int, Never>()
        let arrays = PacingCounter<[Int]>()
        let finished = DispatchSemaphore(value: 0)
        let cancellable =
            subject
            .collect(.byTimeOrCount(queue, .seconds(60), 10))
            .sink(receiveCompletion: { _ in finished.signal() }, receiveValue: { arrays.append($0) })
        queue.sync {
            for value in 0..<25 { subject.send(value) }
            subject.send(completion: .finished)
        }
        #expect(finished.wait(timeout: .now() + pacingTimeout) == .success)
        #expect(arrays.values == [Array(0..<10), Array(10..<20), Array(20..<25)])
        cancellable.cancel()
    }

    @Test func collectsValuesSentFromManyThreads() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subject.collect(.byTimeOrCount(scheduler, .seconds(1), 7)).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 0..<250 { subject.send(thread * 250 + value) }
        }
        subject.send(completion: .finished)
        scheduler.advance(by: .seconds(1))
        let arrays = subscriber.values
        #expect(arrays.allSatisfy { $0.count <= 7 })
        #expect(arrays.dropLast().allSatisfy { $0.count == 7 })
        #expect(arrays.flatMap { $0 }.sorted() == Array(0..<2_000))
        #expect(subscriber.completion == .finished)
    }
}
