import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct DebounceTests {
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride

    // MARK: Values at exact virtual times

    @Test func publishesTheLatestValueOnlyAfterAQuietInterval() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.debounce(for: .milliseconds(300), scheduler: scheduler).subscribe(subscriber)
        let arrivals = pacingArrivals(of: subscriber, on: scheduler, since: start)

        subject.send(1)  // t = 0
        scheduler.advance(by: .milliseconds(100))
        subject.send(2)  // t = 100: replaces 1, waits until 400
        scheduler.advance(by: .milliseconds(299))
        #expect(subscriber.values == [])
        scheduler.advance(by: .milliseconds(1))  // t = 400
        #expect(subscriber.values == [2])
        #expect(arrivals.values == [400])

        scheduler.advance(by: .seconds(5))  // Nothing new: nothing more.
        #expect(subscriber.values == [2])

        subject.send(3)  // t = 5400
        scheduler.advance(by: .milliseconds(200))
        subject.send(4)  // t = 5600
        scheduler.advance(by: .milliseconds(200))
        subject.send(5)  // t = 5800
        scheduler.advance(by: .milliseconds(299))
        #expect(subscriber.values == [2])
        scheduler.advance(by: .milliseconds(1))  // t = 6100
        #expect(subscriber.values == [2, 5])
        #expect(arrivals.values == [400, 6100])
        #expect(subscriber.completion == nil)
    }

    @Test func followsTheBouncesOfAppleDocumentationExample() {
        // Values sent at 0, 0.25, 1, 1.25, 1.5 and 2 s with a half-second debounce.
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.debounce(for: .seconds(0.5), scheduler: scheduler).subscribe(subscriber)
        let arrivals = pacingArrivals(of: subscriber, on: scheduler, since: start)
        for (index, time) in [0, 250, 1_000, 1_250, 1_500, 2_000].enumerated() {
            scheduler.advance(to: start.advanced(by: .milliseconds(time)))
            subject.send(index)
        }
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 4, 5])
        #expect(arrivals.values == [750, 2_000, 2_500])
    }

    @Test func aSynchronousUpstreamFinishesBeforeAnythingIsDue() {
        let scheduler = DispatchQueue.test
        let subscriber = TestSubscriber<Int, Never>()
        (1...5).publisher.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        // A synchronous upstream finishes at once: the waiting value is dropped, as in Combine.
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func zeroDueTimePublishesAtTheNextAdvance() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>()
        subject.debounce(for: .zero, scheduler: scheduler).subscribe(subscriber)
        subject.send("a")
        subject.send("b")
        #expect(subscriber.values == [])
        scheduler.advance()
        #expect(subscriber.values == ["b"])
    }

    @Test func immediateSchedulerPublishesAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.debounce(for: .seconds(10), scheduler: ImmediateScheduler.shared).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func theDocumentationExampleSearchesWhenTypingPauses() {
        let scheduler = DispatchQueue.test
        let typing = PassthroughSubject<String, Never>()
        var printed: [String] = []
        let cancellable =
            typing
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .sink { printed.append("search: \($0)") }
        typing.send("s")
        scheduler.advance(by: .milliseconds(100))
        typing.send("sw")
        scheduler.advance(by: .milliseconds(100))
        typing.send("swi")
        scheduler.advance(by: .milliseconds(300))
        typing.send("swift")
        scheduler.advance(by: .milliseconds(300))
        #expect(printed == ["search: swi", "search: swift"])
        cancellable.cancel()
    }

    // MARK: Completion and failure

    @Test func finishingDropsTheWaitingValueAndFinishesOnTheScheduler() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, PacingError>()
        let subscriber = TestSubscriber<Int, PacingError>()
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .milliseconds(500))
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        #expect(scheduler.scheduledCount == 1)  // The completion; the timer is gone.
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func failingDropsTheWaitingValueAndFailsOnTheScheduler() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, PacingError>()
        let subscriber = TestSubscriber<Int, PacingError>()
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        subject.send(2)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1)])
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.events.count == 3)
    }

    @Test func ignoresEventsAfterCompletion() {
        let scheduler = DispatchQueue.test
        let upstream = PacingUpstream<Int, PacingError>()
        let subscriber = TestSubscriber<Int, PacingError>()
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(completion: .finished)
        upstream.send(completion: .failure(.oops))
        #expect(upstream.send(9) == Subscribers.Demand.none)
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    // MARK: Demand

    @Test func requestsUnlimitedUpstreamAfterHandingDownTheSubscription() {
        let upstream = PacingUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.debounce(for: .seconds(1), scheduler: DispatchQueue.test).subscribe(subscriber)
        #expect(upstream.events == [.requested(.unlimited)])
        #expect(upstream.send(1) == Subscribers.Demand.none)
        subscriber.request(.max(5))
        #expect(upstream.events == [.requested(.unlimited)])
    }

    @Test func aValueDueWithoutDemandIsDroppedNotKeptForLater() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [])
        subscriber.request(.max(2))
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.values == [])  // 1 is gone.
        subject.send(2)
        scheduler.advance(by: .seconds(1))
        subject.send(3)
        scheduler.advance(by: .seconds(1))
        subject.send(4)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [2, 3])  // Demand for two: 4 is dropped.
        subject.send(5)
        subscriber.request(.max(1))
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [2, 3, 5])
    }

    @Test func demandReturnedFromReceiveAddsUp() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        for value in 1...4 {
            subject.send(value)
            scheduler.advance(by: .seconds(1))
        }
        #expect(subscriber.values == [1, 2, 3, 4])
    }

    // MARK: Cancellation and lifetime

    @Test func cancellingBeforeTheDueTimeCancelsTheTimerAndUpstream() {
        let scheduler = DispatchQueue.test
        let upstream = PacingUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        #expect(scheduler.scheduledCount == 1)
        scheduler.advance(by: .milliseconds(500))
        subscriber.cancel()
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        #expect(scheduler.scheduledCount == 0)
        scheduler.advance(by: .seconds(5))
        #expect(upstream.send(2) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancellingAfterUpstreamFinishedSuppressesTheScheduledCompletion() throws {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        subject.send(completion: .finished)
        subscription.cancel()
        scheduler.advance()
        #expect(subscriber.events == [.subscription])
    }

    @Test func eachValueReplacesTheTimerOfThePreviousOne() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        for value in 1...10 {
            subject.send(value)
            scheduler.advance(by: .milliseconds(10))
        }
        #expect(scheduler.scheduledCount == 1)
        scheduler.advance(by: .seconds(1))
        #expect(scheduler.scheduledCount == 0)  // The repeating timer stops after publishing.
        #expect(subscriber.values == [10])
    }

    @Test func releasesEverythingAfterCancel() {
        let scheduler = DispatchQueue.test
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)  // A timer is waiting.
            subscriber.cancel()
        }
        #expect(weakSubject == nil)
        #expect(weakInner == nil)
        #expect(weakSubscriber == nil)
        scheduler.advance(by: .seconds(2))
    }

    @Test func releasesEverythingAfterTheCompletionIsDelivered() {
        let scheduler = DispatchQueue.test
        weak var weakInner: AnyObject?
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        let subject = PassthroughSubject<Int, Never>()
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
            scheduler.advance(by: .seconds(1))
            subject.send(completion: .finished)
        }
        #expect(weakInner != nil)  // The scheduled completion keeps it until it runs.
        scheduler.advance()
        #expect(weakInner == nil)
        #expect(weakSubscriber == nil)
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let upstream = PacingUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.debounce(for: .seconds(1), scheduler: DispatchQueue.test).subscribe(subscriber)
        let second = PacingSubscription()
        upstream.send(subscription: second)
        #expect(second.events == [.cancelled])
        #expect(subscriber.subscriptionCount == 1)
    }

    // MARK: Re-entrancy

    @Test func requestingFromInsideReceiveKeepsValuesComing() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        for value in 1...3 {
            subject.send(value)
            scheduler.advance(by: .seconds(1))
        }
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func cancellingFromInsideReceiveStopsEverything() {
        let scheduler = DispatchQueue.test
        let upstream = PacingUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        upstream.send(2)
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.values == [1])
    }

    @Test func sendingUpstreamFromInsideReceiveStartsANewWait() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        let arrivals = PacingCounter<Int>()
        subscriber.onReceiveValue { value in
            arrivals.append(scheduler.now.milliseconds(since: start))
            if value < 3 { subject.send(value + 1) }
        }
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.values == [1, 2, 3])
        #expect(arrivals.values == [1_000, 2_000, 3_000])
    }

    @Test func reentrantValuesOnAnImmediateSchedulerArriveInOrder() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { value in
            if value < 4 { subject.send(value + 1) }
        }
        subject.debounce(for: .seconds(1), scheduler: ImmediateScheduler.shared).subscribe(subscriber)
        subject.send(1)
        #expect(subscriber.values == [1, 2, 3, 4])
    }

    // MARK: How it uses its scheduler

    @Test func schedulesARepeatingTimerWithItsOptionsAndCompletesWithoutThem() {
        let scheduler = PacingRecordingScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.debounce(for: .nanoseconds(13), scheduler: scheduler, options: "fast").subscribe(subscriber)
        subject.send(1)
        scheduler.base.advance(by: .nanoseconds(4))
        subject.send(2)
        scheduler.base.advance(by: .nanoseconds(100))
        subject.send(completion: .finished)
        scheduler.base.advance()
        #expect(
            scheduler.calls == [
                .every(13, interval: 13, tolerance: 7, options: "fast"),
                .every(17, interval: 13, tolerance: 7, options: "fast"),
                .now(options: nil),
            ])
        #expect(subscriber.events == [.subscription, .value(2), .completion(.finished)])
    }

    // MARK: Description

    @Test func describesItselfAsCombineDoes() throws {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        subject.debounce(for: .seconds(1), scheduler: DispatchQueue.test).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Debounce")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Debounce")
        subject.send(42)
        let mirror = Mirror(reflecting: subscription)
        #expect(mirror.children.map(\.label) == ["downstream", "downstreamDemand", "currentValue"])
        #expect(mirror.descendant("downstreamDemand") as? Subscribers.Demand == .max(3))
        #expect(mirror.descendant("currentValue") as? Int == 42)
    }

    @Test func keepsItsConfiguration() {
        let upstream = Empty<Int, Never>()
        let scheduler = ImmediateScheduler.shared
        let debounce = upstream.debounce(for: .seconds(3), scheduler: scheduler)
        #expect(debounce.dueTime == .seconds(3))
        #expect(debounce.options == nil)
    }

    // MARK: Real schedulers and threads

    @Test func debouncesOnARealDispatchQueue() {
        let queue = DispatchQueue(label: "debounce")
        let subject = PassthroughSubject<Int, Never>()
        let received = PacingCounter<Int>()
        let cancellable =
            subject
            .debounce(for: .milliseconds(50), scheduler: queue)
            .sink { received.append($0) }
        // The burst is sent from the queue itself, so no timer can run in the middle of it.
        queue.sync {
            for value in 1...100 { subject.send(value) }
        }
        #expect(received.wait(forCount: 1))
        #expect(received.values == [100])
        cancellable.cancel()
    }

    @Test func valuesFromManyThreadsEndInOneDebouncedValue() throws {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        // A plain subscriber sees the sends in the order the subject took them, one at a time.
        let everything = TestSubscriber<Int, Never>()
        subject.subscribe(everything)
        subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for value in 0..<200 { subject.send(thread * 200 + value) }
        }
        #expect(scheduler.scheduledCount == 1)
        scheduler.advance(by: .seconds(1))
        #expect(Set(everything.values) == Set(0..<1_600))
        // The one value is the latest of them all.
        #expect(subscriber.values == [try #require(everything.values.last)])
    }
}
