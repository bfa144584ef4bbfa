import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct MeasureIntervalTests {
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride

    @Test func measuresFromTheSubscriptionThenBetweenValues() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<String, Never>()
        scheduler.advance(by: .seconds(3))
        let subscriber = TestSubscriber<Stride, Never>()
        subject.measureInterval(using: scheduler).subscribe(subscriber)
        scheduler.advance(by: .milliseconds(250))
        subject.send("a")
        #expect(subscriber.values == [.milliseconds(250)])
        scheduler.advance(by: .seconds(1))
        subject.send("b")
        subject.send("c")
        scheduler.advance(by: .microseconds(7))
        subject.send("d")
        subject.send(completion: .finished)
        #expect(
            subscriber.events == [
                .subscription, .value(.milliseconds(250)), .value(.seconds(1)), .value(.zero),
                .value(.microseconds(7)), .completion(.finished),
            ])
    }

    @Test func valuesAndCompletionPassThroughWithoutScheduling() {
        let scheduler = CountingScheduler(DispatchQueue.test)
        let subscriber = TestSubscriber<Stride, Never>()
        [1, 2].publisher.measureInterval(using: scheduler).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(.zero), .value(.zero), .completion(.finished)])
        #expect(scheduler.immediateCount + scheduler.delayedCount + scheduler.repeatingCount == 0)
    }

    @Test func failurePassesThroughAtOnce() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, TimeTestError>()
        let subscriber = TestSubscriber<Stride, TimeTestError>()
        subject.measureInterval(using: scheduler).subscribe(subscriber)
        scheduler.advance(by: .milliseconds(5))
        subject.send(1)
        subject.send(completion: .failure(TimeTestError(code: 2)))
        subject.send(2)
        #expect(
            subscriber.events == [
                .subscription, .value(.milliseconds(5)), .completion(.failure(TimeTestError(code: 2))),
            ])
    }

    @Test func aClockThatGoesBackwardsGivesNegativeIntervals() {
        let scheduler = ManualClockScheduler()
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Stride, Never>()
        scheduler.set(nanoseconds: 3)
        upstream.measureInterval(using: scheduler).subscribe(subscriber)
        scheduler.set(nanoseconds: 14)
        upstream.send(1)
        scheduler.set(nanoseconds: 10)
        upstream.send(2)
        scheduler.set(nanoseconds: 21)
        upstream.send(3)
        #expect(subscriber.values == [.nanoseconds(11), .nanoseconds(-4), .nanoseconds(11)])
    }

    // MARK: Demand

    @Test func downstreamDemandIsRequestedUpstreamAfterEachValue() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Stride, Never>(initialDemand: .max(13), demandPerValue: .max(1))
        upstream.measureInterval(using: scheduler).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        subscriber.request(.max(2))
        subscriber.request(.none)
        #expect(
            upstream.subscription.events == [
                .request(.max(13)), .request(.max(1)), .request(.max(1)), .request(.max(2)), .request(.none),
            ])
    }

    @Test func noDemandMeansNoRequest() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Stride, Never>(initialDemand: .max(1))
        upstream.measureInterval(using: scheduler).subscribe(subscriber)
        upstream.send(1)
        #expect(upstream.subscription.events == [.request(.max(1))])
    }

    @Test func boundedDemandIsHonoured() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Stride, Never>(initialDemand: .max(1))
        subject.measureInterval(using: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        subject.send(2)
        #expect(subscriber.values == [.seconds(1)])
        subscriber.request(.max(1))
        scheduler.advance(by: .seconds(1))
        subject.send(3)
        // The dropped value never reached the operator: the interval counts from value 1.
        #expect(subscriber.values == [.seconds(1), .seconds(2)])
    }

    @Test func requestsFromWithinAnUpstreamRequestDeliverInOrder() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Stride, Never>(initialDemand: .none, demandPerValue: .max(1))
        upstream.measureInterval(using: scheduler).subscribe(subscriber)
        var remaining = 5
        upstream.subscription.onRequest { _ in
            guard remaining > 0 else { return }
            remaining -= 1
            upstream.send(0)
        }
        upstream.send(0)
        #expect(subscriber.values == Array(repeating: .zero, count: 6))
        #expect(upstream.subscription.events == Array(repeating: .request(.max(1)), count: 6))
    }

    // MARK: Cancellation

    @Test func cancelStopsEverything() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Stride, Never>(initialDemand: .none)
        upstream.measureInterval(using: scheduler).subscribe(subscriber)
        let subscription = subscriber.subscription
        subscription?.cancel()
        subscription?.request(.max(1_000))
        subscription?.cancel()
        #expect(upstream.send(1) == .none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.subscription.events == [.cancel])
    }

    @Test func theClockIsNotReadOnceCancelledAsInCombine() {
        let scheduler = CountingScheduler(DispatchQueue.test)
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Stride, Never>()
        upstream.measureInterval(using: scheduler).subscribe(subscriber)
        #expect(scheduler.nowCount == 1)
        upstream.send(1)
        #expect(scheduler.nowCount == 2)
        subscriber.cancel()
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(scheduler.nowCount == 2)
        #expect(subscriber.values == [.zero])
    }

    @Test func cancelFromWithinDeliveryStopsTheRest() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Stride, Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        subject.measureInterval(using: scheduler).subscribe(subscriber)
        scheduler.advance(by: .milliseconds(250))
        subject.send(1)
        scheduler.advance(by: .milliseconds(100))
        subject.send(2)
        #expect(subscriber.values == [.milliseconds(250)])
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let scheduler = DispatchQueue.test
        let subscriber = TestSubscriber<Stride, Never>()
        let publisher = Publishers.MeasureInterval(upstream: TimeTestPublisher<Int, Never>(), scheduler: scheduler)
        publisher.subscribe(subscriber)
        let second = TimeTestSubscription()
        publisher.upstream.send(subscription: second)
        #expect(second.events == [.cancel])
        #expect(publisher.upstream.subscription.events == [.request(.unlimited)])
    }

    // MARK: Identity and lifetime

    @Test func describesItselfAsCombineDoes() {
        let subscriber = TestSubscriber<Stride, Never>()
        TimeTestPublisher<Int, Never>().measureInterval(using: DispatchQueue.test).subscribe(subscriber)
        let subscription = subscriber.subscription
        #expect((subscription as? any CustomStringConvertible)?.description == "MeasureInterval")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "MeasureInterval")
        #expect(subscription.map { Mirror(reflecting: $0).children.count } == 0)
    }

    @Test func publisherKeepsItsParts() {
        let scheduler = DispatchQueue.test
        let publisher = Just(1).measureInterval(using: scheduler, options: .init(qos: .utility))
        #expect(publisher.upstream.output == 1)
        #expect(publisher.scheduler === scheduler)
    }

    @Test func cancelledOperatorIsReleased() {
        weak var weakInner: AnyObject?
        weak var weakSubject: PassthroughSubject<Int, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let subscriber = TestSubscriber<Stride, Never>()
            subject.measureInterval(using: DispatchQueue.test).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
            subscriber.cancel()
        }
        #expect(weakInner == nil)
        #expect(weakSubject == nil)
    }

    @Test func concurrentSendersAllGetMeasured() {
        let subject = PassthroughSubject<Int, Never>()
        let count = TimeTestBox(0)
        let cancellable = subject.measureInterval(using: DispatchQueue.global()).sink { _ in
            count.withValue { $0 += 1 }
        }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for value in 0..<1_000 { subject.send(value) }
        }
        #expect(count.value == 4_000)
        _ = cancellable
    }
}

/// A scheduler whose clock the test sets, even backwards; it runs nothing.
// @unchecked Sendable: `time` is guarded by `lock`.
private final class ManualClockScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    typealias SchedulerOptions = Never

    private let lock = NSLock()
    private var time = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1))

    func set(nanoseconds: UInt64) {
        lock.withLock { time = .init(DispatchTime(uptimeNanoseconds: nanoseconds)) }
    }

    var now: SchedulerTimeType { lock.withLock { time } }
    var minimumTolerance: SchedulerTimeType.Stride { .zero }

    func schedule(options: Never?, _ action: @escaping () -> Void) {}

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {}

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        AnyCancellable {}
    }
}
