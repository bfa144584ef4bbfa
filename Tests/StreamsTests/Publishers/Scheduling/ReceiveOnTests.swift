import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct ReceiveOnTests {
    // MARK: Virtual time

    @Test func subscriptionArrivesAtOnceAndValuesOnlyWhenTheSchedulerRuns() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, TimeTestError>()
        let subscriber = TestSubscriber<Int, TimeTestError>()
        upstream.receive(on: scheduler).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.subscription.events == [.request(.unlimited)])
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .none)
        #expect(subscriber.events == [.subscription])
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3)])
        upstream.send(4)
        #expect(subscriber.values == [1, 2, 3])
        scheduler.advance()
        #expect(subscriber.values == [1, 2, 3, 4])
    }

    @Test func deliversAtTheVirtualTimeTheSchedulerRunsIt() {
        let (scheduler, start) = makeTimeTestScheduler()
        let upstream = TimeTestPublisher<Int, Never>()
        var deliveredAt: [Int] = []
        let cancellable = upstream.receive(on: scheduler).sink { _ in
            deliveredAt.append(elapsedMilliseconds(scheduler, since: start))
        }
        scheduler.advance(by: .milliseconds(300))
        upstream.send(1)
        scheduler.advance(by: .milliseconds(200))
        upstream.send(2)
        #expect(deliveredAt == [300])
        scheduler.advance()
        #expect(deliveredAt == [300, 500])
        _ = cancellable
    }

    @Test func eachValueAndTheCompletionTakeASchedulerActionOfTheirOwnAsInCombine() {
        let scheduler = CountingScheduler(DispatchQueue.test)
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.receive(on: scheduler).subscribe(subscriber)
        for value in 0..<100 { subject.send(value) }
        #expect(scheduler.immediateCount == 100)
        #expect(subscriber.values.isEmpty)
        scheduler.base.advance()
        #expect(subscriber.values == Array(0..<100))
        for value in 100..<150 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(scheduler.immediateCount == 151)
        scheduler.base.advance()
        #expect(subscriber.values == Array(0..<150))
        #expect(subscriber.completion == .finished)
    }

    @Test func otherWorkScheduledBetweenTwoValuesRunsBetweenThem() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.receive(on: scheduler).subscribe(subscriber)
        subject.send(1)
        var seenByOtherWork: [Int]?
        scheduler.schedule { seenByOtherWork = subscriber.values }
        subject.send(2)
        scheduler.advance()
        #expect(seenByOtherWork == [1])
        #expect(subscriber.values == [1, 2])
    }

    @Test func completionComesAfterTheBufferedValues() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, TimeTestError>()
        let subscriber = TestSubscriber<Int, TimeTestError>()
        upstream.receive(on: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        upstream.send(completion: .failure(TimeTestError(code: 1)))
        #expect(upstream.send(3) == .none)
        #expect(subscriber.events == [.subscription])
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.events.count == 4)
    }

    @Test func failureComesAfterTheBufferedValues() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, TimeTestError>()
        let subscriber = TestSubscriber<Int, TimeTestError>()
        subject.receive(on: scheduler).subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(TimeTestError(code: 7)))
        #expect(subscriber.events == [.subscription])
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(TimeTestError(code: 7)))])
    }

    @Test func completionRightAfterSubscriptionIsScheduledToo() {
        let scheduler = DispatchQueue.test
        let subscriber = TestSubscriber<Int, Never>()
        Empty<Int, Never>().receive(on: scheduler).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    // MARK: Demand

    @Test func requestsGoStraightUpstreamAndDownstreamDemandFollowsEachDelivery() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3), demandPerValue: .max(2))
        upstream.receive(on: scheduler).subscribe(subscriber)
        #expect(upstream.subscription.events == [.request(.max(3))])
        subscriber.request(.max(5))
        subscriber.request(.none)
        #expect(upstream.subscription.events == [.request(.max(3)), .request(.max(5)), .request(.none)])
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.subscription.events.count == 3)
        scheduler.advance()
        #expect(
            upstream.subscription.events == [
                .request(.max(3)), .request(.max(5)), .request(.none), .request(.max(2)), .request(.max(2)),
            ])
    }

    @Test func boundedDemandIsHonoured() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        subject.receive(on: scheduler).subscribe(subscriber)
        for value in 1...5 { subject.send(value) }
        scheduler.advance()
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(1))
        subject.send(6)
        subject.send(7)
        scheduler.advance()
        #expect(subscriber.values == [1, 2, 6])
    }

    @Test func demandReturnedFromReceiveReachesASequenceWithinOneRun() {
        let scheduler = DispatchQueue.test
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        (1...4).publisher.receive(on: scheduler).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        scheduler.advance()
        #expect(
            subscriber.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
    }

    // MARK: Cancellation

    @Test func cancelBeforeTheScheduledDeliveryRunsDeliversNothing() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.receive(on: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        subscriber.cancel()
        #expect(upstream.subscription.events == [.request(.unlimited), .cancel])
        #expect(upstream.send(3) == .none)
        upstream.send(completion: .finished)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.events == [.subscription])
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func cancelFromWithinDeliveryStopsTheRestOfTheBatch() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited, demandPerValue: .max(1))
        subscriber.onReceiveValue { if $0 == 2 { subscriber.cancel() } }
        upstream.receive(on: scheduler).subscribe(subscriber)
        for value in 1...4 { upstream.send(value) }
        scheduler.advance()
        upstream.send(completion: .finished)
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        // The demand of value 1 went up; after the cancel, nothing more.
        #expect(upstream.subscription.events == [.request(.unlimited), .request(.max(1)), .cancel])
    }

    @Test func cancelAndRequestAfterCancelDoNothing() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.receive(on: scheduler).subscribe(subscriber)
        let subscription = subscriber.subscription
        subscription?.cancel()
        subscription?.request(.max(3))
        subscription?.cancel()
        #expect(upstream.subscription.events == [.cancel])
    }

    @Test func onceUpstreamHasCompletedCancelLetsTheRestThroughAsInCombine() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.receive(on: scheduler).subscribe(subscriber)
        let subscription = subscriber.subscription
        upstream.send(1)
        upstream.send(completion: .finished)
        subscription?.cancel()
        #expect(upstream.subscription.events == [.request(.unlimited)])
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    // MARK: Re-entrancy

    @Test func valuesSentFromWithinDeliveryAreScheduledOneByOne() {
        let scheduler = CountingScheduler(DispatchQueue.test)
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { if $0 < 5 { subject.send($0 + 1) } }
        subject.receive(on: scheduler).subscribe(subscriber)
        subject.send(1)
        var deliveredBeforeOtherWork: Int?
        scheduler.base.schedule { deliveredBeforeOtherWork = subscriber.values.count }
        scheduler.base.advance()
        #expect(deliveredBeforeOtherWork == 1)
        #expect(subscriber.values == [1, 2, 3, 4, 5])
        #expect(scheduler.immediateCount == 5)
    }

    @Test func immediateSchedulerDeliversRecursiveSendsInOrderWithoutNesting() {
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited, demandPerValue: .max(4))
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
        upstream.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(upstream.send(0) == .none)
        #expect(subscriber.values == [0, -1, -1, -1, -1, -1])
        #expect(maxDepth == 1)
        #expect(upstream.subscription.events == [.request(.unlimited)] + Array(repeating: .request(.max(4)), count: 6))
    }

    @Test func completionSentFromWithinCompletionIsIgnored() {
        let upstream = TimeTestPublisher<Int, Never>()
        var completions = 0
        let cancellable = upstream.receive(on: ImmediateScheduler.shared).sink(
            receiveCompletion: { _ in
                completions += 1
                upstream.send(completion: .finished)
            },
            receiveValue: { _ in })
        upstream.send(completion: .finished)
        #expect(completions == 1)
        _ = cancellable
    }

    @Test func nothingIsDeliveredInsideReceiveSubscription() {
        #expect(
            subscriptionOrderLog(Just(1).receive(on: ImmediateScheduler.shared)) == [
                "subscription begins", "subscription ends", "value 1", "completion",
            ])
    }

    // MARK: Subscription handling

    @Test func aSecondSubscriptionIsCancelled() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.receive(on: scheduler).subscribe(subscriber)
        let second = TimeTestSubscription()
        upstream.send(subscription: second)
        #expect(second.events == [.cancel])
        #expect(subscriber.subscriptionCount == 1)
        #expect(upstream.subscription.events == [.request(.unlimited)])
    }

    @Test func describesItselfAsCombineDoes() {
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.receive(on: DispatchQueue.test).subscribe(subscriber)
        let subscription = subscriber.subscription
        #expect((subscription as? any CustomStringConvertible)?.description == "ReceiveOn")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "ReceiveOn")
        #expect(subscription.map { Mirror(reflecting: $0).children.count } == 0)
        #expect(upstream.subscriber === subscription.map { $0 as AnyObject })
    }

    @Test func publisherKeepsItsParts() {
        let scheduler = DispatchQueue.test
        let publisher = Just(1).receive(on: scheduler, options: .init(qos: .utility))
        #expect(publisher.upstream.output == 1)
        #expect(publisher.scheduler === scheduler)
        #expect(publisher.options?.qos == .utility)
    }

    // MARK: Lifetime

    @Test func cancelledOperatorIsReleasedOnceThePendingHopRuns() {
        let scheduler = DispatchQueue.test
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakInner: AnyObject?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let subscriber = TestSubscriber<Int, Never>()
            subject.receive(on: scheduler).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
            subscriber.cancel()
        }
        #expect(weakSubject == nil)
        scheduler.advance()
        #expect(weakInner == nil)
    }

    @Test func completedOperatorIsReleased() {
        let scheduler = DispatchQueue.test
        weak var weakInner: AnyObject?
        let subscriber = TestSubscriber<Int, Never>()
        do {
            [1, 2].publisher.receive(on: scheduler).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
        }
        #expect(weakInner != nil)
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(weakInner == nil)
    }

    // MARK: Real queues

    @Test func valuesFromSeveralThreadsArriveOnTheQueueInEachSendersOrder() {
        let marked = TimeMarkedQueue("receive-on.serial")
        let subject = PassthroughSubject<Int, Never>()
        let detector = TimeOverlapDetector()
        let received = TimeTestBox<[Int]>([])
        let offQueue = TimeTestBox(0)
        let done = DispatchSemaphore(value: 0)
        let senders = 4
        let perSender = 2_000
        let cancellable = subject.receive(on: marked.queue).sink(
            receiveCompletion: { _ in
                if !marked.isCurrent { offQueue.withValue { $0 += 1 } }
                done.signal()
            },
            receiveValue: { value in
                detector.enter {
                    if !marked.isCurrent { offQueue.withValue { $0 += 1 } }
                    received.withValue { $0.append(value) }
                }
            })
        DispatchQueue.concurrentPerform(iterations: senders) { sender in
            for index in 0..<perSender { subject.send(sender * perSender + index) }
        }
        subject.send(completion: .finished)
        #expect(done.wait(timeout: timeTestDeadline()) == .success)
        let values = received.value
        #expect(values.count == senders * perSender)
        #expect(Set(values) == Set(0..<(senders * perSender)))
        for sender in 0..<senders {
            let own = values.filter { $0 / perSender == sender }
            #expect(own == Array((sender * perSender)..<((sender + 1) * perSender)))
        }
        #expect(offQueue.value == 0)
        #expect(detector.overlaps == 0)
        _ = cancellable
    }

    @Test func theQueueWaitsForTheSubscriberToReturnFromReceiveSubscription() {
        let counts = valuesDuringSubscription(on: TimeMarkedQueue("receive-on.subscription")) { queue in
            [1, 2, 3].publisher.receive(on: queue)
        }
        #expect(counts.during == 0)
        #expect(counts.total == 3)
        // What was released meanwhile still goes out on the queue.
        #expect(counts.offQueue == 0)
    }

    @Test func aSingleSenderOnAnotherThreadKeepsItsOrderAndNeedsNoMoreHopsThanValues() {
        let marked = TimeMarkedQueue("receive-on.order")
        let scheduler = CountingScheduler(marked.queue)
        let subject = PassthroughSubject<Int, Never>()
        let received = TimeTestBox<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let count = 10_000
        let cancellable = subject.receive(on: scheduler).sink(
            receiveCompletion: { _ in done.signal() },
            receiveValue: { value in received.withValue { $0.append(value) } })
        let sender = Thread {
            for value in 0..<count { subject.send(value) }
            subject.send(completion: .finished)
        }
        sender.start()
        #expect(done.wait(timeout: timeTestDeadline()) == .success)
        #expect(received.value == Array(0..<count))
        #expect(scheduler.immediateCount <= count + 1)
        _ = cancellable
    }

    @Test func cancellingOnTheQueueStopsDeliveryThere() {
        let marked = TimeMarkedQueue("receive-on.cancel")
        let subject = PassthroughSubject<Int, Never>()
        let received = TimeTestBox<[Int]>([])
        let cancelled = DispatchSemaphore(value: 0)
        let box = TimeTestBox<AnyCancellable?>(nil)
        box.withValue { cancellable in
            cancellable = subject.receive(on: marked.queue).sink { value in
                received.withValue { $0.append(value) }
                if value == 3 {
                    box.withValue { $0 = nil }
                    cancelled.signal()
                }
            }
        }
        DispatchQueue.global().async {
            for value in 1...1_000 { subject.send(value) }
        }
        #expect(cancelled.wait(timeout: timeTestDeadline()) == .success)
        let flushed = DispatchSemaphore(value: 0)
        marked.queue.async { flushed.signal() }
        #expect(flushed.wait(timeout: timeTestDeadline()) == .success)
        #expect(received.value == [1, 2, 3])
    }
}
