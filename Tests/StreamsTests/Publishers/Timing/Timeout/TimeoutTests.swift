import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct TimeoutTests {
    // MARK: Timing out

    @Test func finishesWhenNothingArrivesWithinTheInterval() {
        let (scheduler, start) = makeTimeTestScheduler()
        let upstream = TimeTestPublisher<Int, TimeTestError>()
        let subscriber = TestSubscriber<Int, TimeTestError>()
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .milliseconds(999))
        #expect(subscriber.events == [.subscription])
        #expect(upstream.subscription.events == [.request(.unlimited)])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(upstream.subscription.events == [.request(.unlimited), .cancel])
        #expect(elapsedMilliseconds(scheduler, since: start) == 1_000)
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.events.count == 2)
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func aCancelBeforeTheTimeOutIsDeliveredStopsIt() {
        // The subscriber is still receiving a value when the time runs out, then cancels: the
        // failure, not yet delivered, is not delivered after the cancel.
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, TimeTestError>()
        var subscription: (any Subscription)?
        var events: [String] = []
        let subscriber = AnySubscriber<Int, TimeTestError>(
            receiveSubscription: {
                subscription = $0
                $0.request(.unlimited)
            },
            receiveValue: { value in
                events.append("value \(value)")
                scheduler.advance(by: .seconds(1))
                subscription?.cancel()
                events.append("cancelled")
                return .none
            },
            receiveCompletion: { events.append("completion \($0)") })
        subject.timeout(.milliseconds(500), scheduler: scheduler) { TimeTestError(code: 408) }
            .subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .milliseconds(1))
        scheduler.advance(by: .seconds(5))
        #expect(events == ["value 1", "cancelled"])
    }

    @Test func failsWithTheCustomError() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, TimeTestError>()
        let subscriber = TestSubscriber<Int, TimeTestError>()
        var made = 0
        subject.timeout(.milliseconds(50), scheduler: scheduler) {
            made += 1
            return TimeTestError(code: 408)
        }
        .subscribe(subscriber)
        scheduler.advance(by: .milliseconds(49))
        #expect(made == 0)
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.events == [.subscription, .completion(.failure(TimeTestError(code: 408)))])
        #expect(made == 1)
    }

    @Test func eachValueRestartsTheClock() {
        let (scheduler, start) = makeTimeTestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        var completedAt: Int?
        subject.timeout(.seconds(1), scheduler: scheduler)
            .handleEvents(receiveCompletion: { _ in completedAt = elapsedMilliseconds(scheduler, since: start) })
            .subscribe(subscriber)
        scheduler.advance(by: .milliseconds(600))
        subject.send(1)
        scheduler.advance(by: .milliseconds(600))
        #expect(subscriber.events == [.subscription, .value(1)])
        subject.send(2)
        scheduler.advance(by: .milliseconds(999))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(completedAt == 2_200)
    }

    @Test func theFirstRequestRestartsTheClock() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .milliseconds(500))
        subscriber.request(.max(1))
        scheduler.advance(by: .milliseconds(999))
        #expect(subscriber.events == [.subscription])
        // Later requests do not move it.
        subscriber.request(.max(1))
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(upstream.subscription.events == [.request(.max(1)), .request(.max(1)), .cancel])
    }

    @Test func eachValueStartsATimerAndADeliveryOfItsOwnAsInCombine() {
        let scheduler = CountingScheduler(DispatchQueue.test)
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        // The subscription and the first request start one timer each.
        #expect(scheduler.repeatingCount == 2)
        for step in 1...10 {
            scheduler.base.advance(by: .milliseconds(300))
            for value in 0..<10 { subject.send(step * 10 + value) }
        }
        scheduler.base.advance()
        #expect(subscriber.values == Array(10..<110))
        #expect(subscriber.completion == nil)
        #expect(scheduler.repeatingCount == 102)
        #expect(scheduler.immediateCount == 100)
        scheduler.base.advance(by: .seconds(1))
        #expect(subscriber.completion == .finished)
    }

    @Test func aValueStillOnItsWayWhenTheTimeRunsOutIsDropped() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.timeout(.zero, scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(upstream.subscription.events == [.request(.unlimited), .cancel])
    }

    @Test func immediateSchedulerStopsTheProgramAsInCombine() async {
        // Its timer would fire while the subscription is being set up.
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>()
            [1, 2].publisher.timeout(.seconds(10), scheduler: ImmediateScheduler.shared).subscribe(subscriber)
        }
        expectTrapMessage(
            trap1,
            contains:
                "timeout(_:scheduler:) needs a scheduler that runs its timer later, not while it is set: its timer fired during the subscription (ImmediateScheduler cannot be used)"
        )
    }

    // MARK: Delivery

    @Test func valuesAndCompletionAreDeliveredOnTheScheduler() {
        let scheduler = CountingScheduler(DispatchQueue.test)
        let upstream = TimeTestPublisher<Int, TimeTestError>()
        let subscriber = TestSubscriber<Int, TimeTestError>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(subscriber.events == [.subscription])
        #expect(scheduler.immediateCount == 2)
        scheduler.base.advance()
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        #expect(upstream.subscription.events == [.request(.max(2)), .request(.max(1)), .request(.max(1))])
        upstream.send(completion: .failure(TimeTestError(code: 5)))
        #expect(subscriber.events.count == 3)
        scheduler.base.advance()
        #expect(
            subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(TimeTestError(code: 5)))])
    }

    @Test func upstreamCompletionStopsTheClock() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .milliseconds(500))
        upstream.send(completion: .finished)
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.events.count == 2)
        #expect(upstream.subscription.events == [.request(.unlimited)])
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func noDemandFromDeliveryMeansNoRequest() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(42)
        scheduler.advance()
        #expect(subscriber.values == [42])
        #expect(upstream.subscription.events == [.request(.max(1))])
    }

    @Test func boundedDemandIsHonoured() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        scheduler.advance()
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        subject.send(3)
        scheduler.advance()
        #expect(subscriber.values == [1, 3])
    }

    @Test func valuesSentFromWithinDeliveryJoinTheDrainAndRestartTheClock() {
        let (scheduler, start) = makeTimeTestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { if $0 < 3 { subject.send($0 + 1) } }
        var completedAt: Int?
        subject.timeout(.seconds(1), scheduler: scheduler)
            .handleEvents(receiveCompletion: { _ in completedAt = elapsedMilliseconds(scheduler, since: start) })
            .subscribe(subscriber)
        scheduler.advance(by: .milliseconds(700))
        subject.send(1)
        scheduler.advance()
        #expect(subscriber.values == [1, 2, 3])
        scheduler.advance(by: .seconds(5))
        #expect(completedAt == 1_700)
    }

    @Test func aValueSentFromWithinDeliveryWaitsForItsOwnActionAsInCombine() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { if $0 < 2 { subject.send($0 + 1) } }
        subject.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(0)
        var deliveredBeforeOtherWork: Int?
        scheduler.schedule { deliveredBeforeOtherWork = subscriber.values.count }
        scheduler.advance()
        #expect(deliveredBeforeOtherWork == 1)
        #expect(subscriber.values == [0, 1, 2])
    }

    // MARK: Cancellation

    @Test func cancelStopsTheClock() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .milliseconds(500))
        subscriber.cancel()
        #expect(upstream.subscription.events == [.request(.unlimited), .cancel])
        #expect(scheduler.scheduledCount == 0)
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelWhileAValueIsOnItsWayDropsIt() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(42)
        subscriber.cancel()
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.events == [.subscription])
        #expect(upstream.subscription.events == [.request(.unlimited), .cancel])
    }

    @Test func cancelWhileTheCompletionIsOnItsWayDropsItAndCancelsUpstreamAsInCombine() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, TimeTestError>()
        let subscriber = TestSubscriber<Int, TimeTestError>(initialDemand: .max(1))
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(completion: .failure(TimeTestError(code: 1)))
        subscriber.cancel()
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.events == [.subscription])
        #expect(upstream.subscription.events == [.request(.max(1)), .cancel])
    }

    @Test func cancelFromWithinDeliveryStopsTheRest() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { if $0 == 2 { subscriber.cancel() } }
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        for value in 1...4 { upstream.send(value) }
        upstream.send(completion: .finished)
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    }

    @Test func requestAndCancelAfterCancelDoNothing() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        let subscription = subscriber.subscription
        subscription?.cancel()
        subscription?.request(.max(13))
        subscription?.cancel()
        #expect(upstream.subscription.events == [.cancel])
    }

    @Test func nothingAfterTheTimeout() {
        let scheduler = DispatchQueue.test
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        #expect(upstream.send(1) == .none)
        upstream.send(completion: .finished)
        subscriber.subscription?.request(.max(1))
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(upstream.subscription.events == [.request(.unlimited), .cancel])
    }

    // MARK: Subscription handling

    @Test func aSecondSubscriptionIsCancelled() {
        let upstream = TimeTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.timeout(.seconds(1), scheduler: DispatchQueue.test).subscribe(subscriber)
        let second = TimeTestSubscription()
        upstream.send(subscription: second)
        #expect(second.events == [.cancel])
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func describesItselfAsCombineDoes() {
        let subscriber = TestSubscriber<Int, Never>()
        TimeTestPublisher<Int, Never>().timeout(.seconds(1), scheduler: DispatchQueue.test).subscribe(subscriber)
        let subscription = subscriber.subscription
        #expect((subscription as? any CustomStringConvertible)?.description == "Timeout")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Timeout")
        #expect(subscription.map { Mirror(reflecting: $0).children.count } == 0)
    }

    @Test func publisherKeepsItsParts() {
        let scheduler = DispatchQueue.test
        let plain = Just(1).timeout(.seconds(3), scheduler: scheduler)
        #expect(plain.interval == .seconds(3))
        #expect(plain.options == nil)
        #expect(plain.customError == nil)
        #expect(plain.scheduler === scheduler)
        #expect(plain.upstream.output == 1)
        let custom = Fail<Int, TimeTestError>(error: TimeTestError(code: 1))
            .timeout(.milliseconds(2), scheduler: scheduler, options: .init(qos: .utility)) { TimeTestError(code: 2) }
        #expect(custom.options?.qos == .utility)
        #expect(custom.customError?() == TimeTestError(code: 2))
    }

    // MARK: Lifetime

    @Test func cancelledOperatorIsReleasedAtOnce() {
        let scheduler = DispatchQueue.test
        weak var weakInner: AnyObject?
        weak var weakSubject: PassthroughSubject<Int, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let subscriber = TestSubscriber<Int, Never>()
            subject.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subscriber.cancel()
        }
        #expect(weakInner == nil)
        #expect(weakSubject == nil)
    }

    @Test func timedOutOperatorIsReleased() {
        let scheduler = DispatchQueue.test
        weak var weakInner: AnyObject?
        let subscriber = TestSubscriber<Int, Never>()
        do {
            let subject = PassthroughSubject<Int, Never>()
            subject.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
            weakInner = subscriber.subscription as AnyObject?
            subject.send(1)
        }
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(weakInner == nil)
    }

    // MARK: Real queues

    @Test func timesOutOnARealQueue() {
        let marked = TimeMarkedQueue("timeout.serial")
        let done = DispatchSemaphore(value: 0)
        let onQueue = TimeTestBox(false)
        let result = TimeTestBox<Subscribers.Completion<TimeTestError>?>(nil)
        let cancellable = Empty<Int, TimeTestError>(completeImmediately: false)
            .timeout(.milliseconds(20), scheduler: marked.queue) { TimeTestError(code: 1) }
            .sink(
                receiveCompletion: { completion in
                    onQueue.withValue { $0 = marked.isCurrent }
                    result.withValue { $0 = completion }
                    done.signal()
                },
                receiveValue: { _ in })
        #expect(done.wait(timeout: timeTestDeadline()) == .success)
        #expect(result.value == .failure(TimeTestError(code: 1)))
        #expect(onQueue.value)
        _ = cancellable
    }

    @Test func theQueueWaitsForTheSubscriberToReturnFromReceiveSubscription() {
        let counts = valuesDuringSubscription(on: TimeMarkedQueue("timeout.subscription")) { queue in
            [1, 2, 3].publisher.timeout(.seconds(30), scheduler: queue)
        }
        #expect(counts.during == 0)
        #expect(counts.total == 3)
        // What was released meanwhile still goes out on the queue.
        #expect(counts.offQueue == 0)
    }

    @Test func valuesFromSeveralThreadsArriveInEachSendersOrderBeforeTheCompletion() {
        let marked = TimeMarkedQueue("timeout.values")
        let subject = PassthroughSubject<Int, Never>()
        let received = TimeTestBox<[Int]>([])
        let detector = TimeOverlapDetector()
        let done = DispatchSemaphore(value: 0)
        let senders = 4
        let perSender = 1_000
        let cancellable = subject.timeout(.seconds(30), scheduler: marked.queue).sink(
            receiveCompletion: { _ in done.signal() },
            receiveValue: { value in detector.enter { received.withValue { $0.append(value) } } })
        DispatchQueue.concurrentPerform(iterations: senders) { sender in
            for index in 0..<perSender { subject.send(sender * perSender + index) }
        }
        subject.send(completion: .finished)
        #expect(done.wait(timeout: timeTestDeadline()) == .success)
        let values = received.value
        #expect(values.count == senders * perSender)
        for sender in 0..<senders {
            #expect(
                values.filter { $0 / perSender == sender } == Array((sender * perSender)..<((sender + 1) * perSender)))
        }
        #expect(detector.overlaps == 0)
        _ = cancellable
    }
}
