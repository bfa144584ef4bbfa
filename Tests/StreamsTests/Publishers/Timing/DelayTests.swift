import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct DelayTests {
    // MARK: Virtual time

    @Test func eachValueArrivesExactlyTheIntervalAfterItWasSent() {
        let (scheduler, start) = makeTimeTestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        var deliveredAt: [Int] = []
        subscriber.onReceiveValue { _ in deliveredAt.append(elapsedMilliseconds(scheduler, since: start)) }
        subject.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subject.send(1)
        scheduler.advance(by: .milliseconds(400))
        subject.send(2)
        scheduler.advance(by: .milliseconds(599))
        #expect(subscriber.values == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.values == [1])
        scheduler.advance(by: .milliseconds(399))
        #expect(subscriber.values == [1])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.values == [1, 2])
        #expect(deliveredAt == [1_000, 1_400])
    }

    @Test func finishingIsDelayedToo() {
        let (scheduler, start) = makeTimeTestScheduler()
        let subject = PassthroughSubject<Int, TimeTestError>()
        let subscriber = TestSubscriber<Int, TimeTestError>()
        subject.delay(for: .milliseconds(500), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .milliseconds(100))
        subject.send(completion: .finished)
        subject.send(2)
        scheduler.advance(by: .milliseconds(499))
        #expect(subscriber.events == [.subscription, .value(1)])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(elapsedMilliseconds(scheduler, since: start) == 600)
    }

    @Test func failureIsDelayedToo() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, TimeTestError>()
        let subscriber = TestSubscriber<Int, TimeTestError>()
        subject.delay(for: .milliseconds(200), scheduler: scheduler).subscribe(subscriber)
        subject.send(completion: .failure(TimeTestError(code: 4)))
        scheduler.advance(by: .milliseconds(199))
        #expect(subscriber.events == [.subscription])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.events == [.subscription, .completion(.failure(TimeTestError(code: 4)))])
    }

    @Test func theSubscriptionIsNotDelayed() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        upstream.delay(for: .seconds(5), scheduler: scheduler).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.subscription.events == [.request(.max(3))])
    }

    @Test func zeroDelayStillWaitsForTheScheduler() {
        let scheduler = DispatchQueue.test
        let subscriber = TestSubscriber<Int, Never>()
        Just(7).delay(for: .zero, scheduler: scheduler).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value(7), .completion(.finished)])
    }

    @Test func schedulesOneActionPerEventWithTheGivenToleranceAndOptions() {
        let scheduler = CountingScheduler(DispatchQueue.test)
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(scheduler.delayedCount == 3)
        #expect(scheduler.immediateCount == 0)
        scheduler.base.advance(by: .seconds(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func publisherKeepsItsParts() {
        let scheduler = DispatchQueue.test
        let defaulted = Just(1).delay(for: .seconds(2), scheduler: scheduler)
        #expect(defaulted.interval == .seconds(2))
        #expect(defaulted.tolerance == scheduler.minimumTolerance)
        #expect(defaulted.options == nil)
        let explicit = Just(1).delay(
            for: .milliseconds(3), tolerance: .milliseconds(1), scheduler: scheduler, options: .init(qos: .utility))
        #expect(explicit.interval == .milliseconds(3))
        #expect(explicit.tolerance == .milliseconds(1))
        #expect(explicit.options?.qos == .utility)
        #expect(explicit.scheduler === scheduler)
        #expect(explicit.upstream.output == 1)
    }

    // MARK: Demand

    @Test func demandPassesThroughAndFollowsEachDelivery() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(100), demandPerValue: .max(12))
        upstream.delay(for: .nanoseconds(200), scheduler: scheduler).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        subscriber.request(.max(4))
        subscriber.request(.none)
        #expect(upstream.subscription.events == [.request(.max(100)), .request(.max(4)), .request(.none)])
        scheduler.advance(by: .nanoseconds(200))
        #expect(
            upstream.subscription.events == [
                .request(.max(100)), .request(.max(4)), .request(.none), .request(.max(12)), .request(.max(12)),
            ])
    }

    @Test func boundedDemandIsHonoured() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        subject.send(3)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 3])
    }

    // MARK: Cancellation

    @Test func cancelledPendingValuesAreNeverDelivered() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance(by: .milliseconds(500))
        upstream.send(2)
        subscriber.cancel()
        #expect(upstream.subscription.events == [.request(.unlimited), .cancel])
        #expect(upstream.send(3) == .none)
        upstream.send(completion: .finished)
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.events == [.subscription])
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func cancelFromWithinDeliveryStopsTheRest() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { if $0 == 2 { subscriber.cancel() } }
        subject.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        for value in 1...4 { subject.send(value) }
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 2])
    }

    @Test func onceUpstreamHasCompletedCancelLetsTheRestThroughAsInCombine() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        let subscription = subscriber.subscription
        upstream.send(1)
        upstream.send(completion: .finished)
        subscription?.cancel()
        #expect(upstream.subscription.events == [.request(.unlimited)])
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func requestAndCancelAfterCancelDoNothing() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        let subscription = subscriber.subscription
        subscription?.cancel()
        subscription?.request(.max(42))
        subscription?.cancel()
        #expect(upstream.subscription.events == [.request(.unlimited), .cancel])
    }

    // MARK: Ordering and re-entrancy

    @Test func deliveriesKeepUpstreamsOrderWhateverOrderTheSchedulerRunsActionsIn() {
        let scheduler = ReversingScheduler()
        let subject = PassthroughSubject<Int, TimeTestError>()
        let subscriber = TestSubscriber<Int, TimeTestError>()
        subject.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        for value in 1...5 { subject.send(value) }
        subject.send(completion: .failure(TimeTestError(code: 9)))
        #expect(scheduler.waiting == 6)
        scheduler.runNewestFirst()
        #expect(
            subscriber.events == [
                .subscription, .value(1), .value(2), .value(3), .value(4), .value(5),
                .completion(.failure(TimeTestError(code: 9))),
            ])
    }

    @Test func valuesSentFromWithinDeliveryAreDelayedInTheirTurn() {
        let (scheduler, start) = makeTimeTestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        var deliveredAt: [Int] = []
        subscriber.onReceiveValue { value in
            deliveredAt.append(elapsedMilliseconds(scheduler, since: start))
            if value < 3 { subject.send(value + 1) }
        }
        subject.delay(for: .milliseconds(100), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 2, 3])
        #expect(deliveredAt == [100, 200, 300])
    }

    @Test func immediateSchedulerDeliversRecursiveSendsInOrderWithoutNesting() {
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited, demandPerValue: .max(418))
        var depth = 0
        var maxDepth = 0
        var remaining = 5
        subscriber.onReceiveValue { _ in
            depth += 1
            maxDepth = max(maxDepth, depth)
            if remaining > 0 {
                remaining -= 1
                upstream.send(-1)
            }
            depth -= 1
        }
        upstream.delay(for: .nanoseconds(123), scheduler: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(upstream.send(0) == .none)
        #expect(subscriber.values == [0, -1, -1, -1, -1, -1])
        #expect(maxDepth == 1)
        #expect(
            upstream.subscription.events == [.request(.unlimited)] + Array(repeating: .request(.max(418)), count: 6))
    }

    @Test func nothingIsDeliveredInsideReceiveSubscription() {
        #expect(
            subscriptionOrderLog([1, 2].publisher.delay(for: .seconds(1), scheduler: ImmediateScheduler.shared)) == [
                "subscription begins", "subscription ends", "value 1", "value 2", "completion",
            ])
    }

    // MARK: Subscription handling

    @Test func aSecondSubscriptionIsCancelled() {
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.delay(for: .seconds(1), scheduler: DispatchQueue.test).subscribe(subscriber)
        let second = TimeTestSubscription()
        upstream.send(subscription: second)
        #expect(second.events == [.cancel])
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func likeCombinesItsSubscriptionDoesNotCustomizeItsDescription() throws {
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.delay(for: .seconds(1), scheduler: DispatchQueue.test).subscribe(subscriber)
        let subscription: any Subscription = try #require(subscriber.subscription)
        #expect(!(subscription is any CustomStringConvertible))
        #expect(!(subscription is any CustomReflectable))
        #expect(!(subscription is any CustomPlaygroundDisplayConvertible))
        #expect(String(describing: subscription).contains("Delay"))
        #expect(upstream.subscriber === subscription as AnyObject)
    }

    // MARK: Lifetime

    @Test func cancelledOperatorIsReleasedOnceItsPendingActionsRun() {
        let scheduler = DispatchQueue.test
        weak var weakInner: AnyObject?
        weak var weakSubject: PassthroughSubject<Int, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let subscriber = TestSubscriber<Int, Never>()
            subject.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
            subscriber.cancel()
        }
        #expect(weakSubject == nil)
        #expect(weakInner != nil)
        scheduler.advance(by: .seconds(1))
        #expect(weakInner == nil)
    }

    @Test func completedOperatorIsReleased() {
        let scheduler = DispatchQueue.test
        weak var weakInner: AnyObject?
        let subscriber = TestSubscriber<Int, Never>()
        do {
            [1, 2].publisher.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
        }
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(weakInner == nil)
    }

    // MARK: Real queues

    @Test func valuesArriveOnTheQueueNoSoonerThanTheInterval() {
        let marked = TimeMarkedQueue("delay.serial")
        let subject = PassthroughSubject<DispatchTime, Never>()
        let early = TimeTestBox(0)
        let offQueue = TimeTestBox(0)
        let count = TimeTestBox(0)
        let done = DispatchSemaphore(value: 0)
        let interval = 20_000_000  // 20 ms
        let cancellable = subject.delay(for: .nanoseconds(interval), scheduler: marked.queue).sink(
            receiveCompletion: { _ in done.signal() },
            receiveValue: { sentAt in
                let now = DispatchTime.now().uptimeNanoseconds
                if now < sentAt.uptimeNanoseconds + UInt64(interval) { early.withValue { $0 += 1 } }
                if !marked.isCurrent { offQueue.withValue { $0 += 1 } }
                count.withValue { $0 += 1 }
            })
        for _ in 0..<5 { subject.send(.now()) }
        subject.send(completion: .finished)
        #expect(done.wait(timeout: timeTestDeadline()) == .success)
        #expect(count.value == 5)
        #expect(early.value == 0)
        #expect(offQueue.value == 0)
        _ = cancellable
    }

    @Test func aConcurrentQueueStillDeliversInOrderAndOneAtATime() {
        let marked = TimeMarkedQueue("delay.concurrent", attributes: .concurrent)
        let subject = PassthroughSubject<Int, Never>()
        let detector = TimeOverlapDetector()
        let received = TimeTestBox<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let count = 2_000
        let cancellable = subject.delay(for: .zero, scheduler: marked.queue).sink(
            receiveCompletion: { _ in done.signal() },
            receiveValue: { value in
                detector.enter { received.withValue { $0.append(value) } }
            })
        for value in 0..<count { subject.send(value) }
        subject.send(completion: .finished)
        #expect(done.wait(timeout: timeTestDeadline()) == .success)
        #expect(received.value == Array(0..<count))
        #expect(detector.overlaps == 0)
        _ = cancellable
    }
}
