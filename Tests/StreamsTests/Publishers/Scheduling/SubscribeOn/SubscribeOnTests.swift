import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct SubscribeOnTests {
    // MARK: Virtual time

    @Test func subscribesUpstreamOnlyWhenTheSchedulerRuns() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, TimeTestError>()
        let subscriber = TestSubscriber<Int, TimeTestError>(initialDemand: .none)
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        #expect(upstream.subscriptions == 0)
        #expect(subscriber.events == [])
        scheduler.advance()
        #expect(upstream.subscriptions == 1)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.subscription.events == [])
    }

    @Test func requestsAndCancelReachUpstreamWhenTheSchedulerRuns() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        subscriber.request(.max(17))
        subscriber.request(.unlimited)
        subscriber.request(.none)
        #expect(upstream.subscription.events == [])
        scheduler.advance()
        #expect(upstream.subscription.events == [.request(.max(17)), .request(.unlimited), .request(.none)])
        subscriber.cancel()
        #expect(upstream.subscription.events.count == 3)
        scheduler.advance()
        #expect(
            upstream.subscription.events == [.request(.max(17)), .request(.unlimited), .request(.none), .cancel])
    }

    @Test func initialDemandIsRequestedInTheSameRunAsTheSubscription() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(100))
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        #expect(upstream.subscription.events == [])
        scheduler.advance()
        #expect(upstream.subscription.events == [.request(.max(100))])
    }

    @Test func valuesAndCompletionPassThroughSynchronously() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, TimeTestError>()
        let subscriber = TestSubscriber<Int, TimeTestError>(initialDemand: .max(1), demandPerValue: .max(12))
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        #expect(upstream.send(1) == .max(12))
        #expect(upstream.send(2) == .max(12))
        upstream.send(completion: .failure(TimeTestError(code: 3)))
        upstream.send(completion: .finished)
        #expect(upstream.send(3) == .none)
        #expect(
            subscriber.events == [
                .subscription, .value(1), .value(2), .completion(.failure(TimeTestError(code: 3))),
            ])
        #expect(upstream.subscription.events == [.request(.max(1))])
    }

    @Test func requestThenCancelReachUpstreamInThatOrder() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        subscriber.request(.unlimited)
        subscriber.cancel()
        scheduler.advance()
        #expect(upstream.subscription.events == [.request(.unlimited), .cancel])
    }

    @Test func afterCancelNothingIsDeliveredAndNothingMoreIsScheduled() {
        let scheduler = CountingScheduler(DispatchQueue.test)
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none, demandPerValue: .max(42))
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.base.advance()
        let subscription = subscriber.subscription
        subscription?.cancel()
        // Upstream has not been told yet, and still sends: the operator drops it.
        #expect(upstream.send(1_000) == .none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        #expect(scheduler.immediateCount == 2)
        scheduler.base.advance()
        #expect(upstream.subscription.events == [.cancel])
        subscription?.request(.max(1))
        subscription?.cancel()
        #expect(scheduler.immediateCount == 2)
    }

    @Test func boundedDemandIsHonouredThroughTheScheduler() {
        let scheduler = DispatchQueue.test
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        scheduler.advance()
        #expect(subscriber.values == [1, 2, 3])
        subscriber.request(.unlimited)
        scheduler.advance()
        #expect(
            subscriber.events == [
                .subscription, .value(1), .value(2), .value(3), .value(4), .value(5), .completion(.finished),
            ])
    }

    // MARK: Re-entrancy

    @Test func requestsFromWithinAnUpstreamRequestWaitForItToReturn() {
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.subscribe(on: ImmediateScheduler.shared).subscribe(subscriber)
        var remaining = 5
        upstream.subscription.onRequest { _ in
            guard remaining > 0 else { return }
            remaining -= 1
            subscriber.request(.max(1))
        }
        subscriber.request(.max(1))
        #expect(upstream.subscription.events == Array(repeating: .request(.max(1)), count: 6))
        #expect(!upstream.subscription.sawNestedCall)
    }

    @Test func requestingFromWithinDeliveryKeepsOrderOnTheImmediateScheduler() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subscriber.onReceiveValue { _ in subscriber.request(.max(1)) }
        (1...4).publisher.subscribe(on: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(
            subscriber.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
    }

    @Test func cancelFromWithinDeliveryStopsTheStream() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { if $0 == 2 { subscriber.cancel() } }
        subject.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        for value in 1...4 { subject.send(value) }
        scheduler.advance()
        subject.send(5)
        #expect(subscriber.values == [1, 2])
    }

    // MARK: Subscription handling

    @Test func aSecondSubscriptionIsCancelled() {
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.subscribe(on: ImmediateScheduler.shared).subscribe(subscriber)
        let second = TimeTestSubscription()
        upstream.send(subscription: second)
        #expect(second.events == [.cancel])
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func describesItselfAsCombineDoes() {
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.subscribe(on: ImmediateScheduler.shared).subscribe(subscriber)
        let subscription = subscriber.subscription
        #expect((subscription as? any CustomStringConvertible)?.description == "SubscribeOn")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "SubscribeOn")
        #expect(subscription.map { Mirror(reflecting: $0).children.count } == 0)
    }

    @Test func publisherKeepsItsParts() {
        let scheduler = DispatchQueue.test
        let publisher = Just(1).subscribe(on: scheduler, options: .init(qos: .background))
        #expect(publisher.upstream.output == 1)
        #expect(publisher.scheduler === scheduler)
        #expect(publisher.options?.qos == .background)
    }

    // MARK: Lifetime

    @Test func cancelledOperatorIsReleasedOnceTheScheduledCancelRuns() {
        let scheduler = DispatchQueue.test
        weak var weakInner: AnyObject?
        weak var weakSubject: PassthroughSubject<Int, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let subscriber = TestSubscriber<Int, Never>()
            subject.subscribe(on: scheduler).subscribe(subscriber)
            scheduler.advance()
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
            subscriber.cancel()
            #expect(weakInner != nil)
        }
        scheduler.advance()
        #expect(weakInner == nil)
        #expect(weakSubject == nil)
    }

    // MARK: Real queues

    @Test func subscribingRequestingAndCancellingHappenOnTheQueue() {
        let marked = TimeMarkedQueue("subscribe-on.serial")
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        func flush() -> Bool {
            let flushed = DispatchSemaphore(value: 0)
            marked.queue.async { flushed.signal() }
            return flushed.wait(timeout: timeTestDeadline()) == .success
        }
        upstream.subscribe(on: marked.queue).subscribe(subscriber)
        #expect(flush())
        #expect(flush())
        #expect(upstream.subscribedOn == ["subscribe-on.serial"])
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(2))
        subscriber.cancel()
        #expect(flush())
        #expect(upstream.subscription.events == [.request(.max(1)), .request(.max(2)), .cancel])
        #expect(upstream.subscription.callQueues == Array(repeating: "subscribe-on.serial", count: 3))
    }

    @Test func valuesFlowFromASequenceSubscribedOnAConcurrentQueue() {
        let marked = TimeMarkedQueue("subscribe-on.concurrent", attributes: .concurrent)
        let received = TimeTestBox<[Int]>([])
        let offQueue = TimeTestBox(0)
        let done = DispatchSemaphore(value: 0)
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in
                for _ in 0..<100 { subscription.request(.max(10)) }
            },
            receiveValue: { value in
                if !marked.isCurrent { offQueue.withValue { $0 += 1 } }
                received.withValue { $0.append(value) }
                return .none
            },
            receiveCompletion: { _ in done.signal() })
        (0..<1_000).publisher.subscribe(on: marked.queue).subscribe(subscriber)
        #expect(done.wait(timeout: timeTestDeadline()) == .success)
        #expect(received.value == Array(0..<1_000))
        #expect(offQueue.value == 0)
    }
}
