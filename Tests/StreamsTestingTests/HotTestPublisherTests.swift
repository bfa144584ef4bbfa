import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct HotTestPublisherTests {
    @Test func eventsFireAtAbsoluteTimesAndLateSubscribersMissEarlierOnes() {
        let scheduler = DispatchQueue.test
        let hot = scheduler.createHotPublisher([
            .value("a", at: .seconds(1)),
            .value("b", at: .seconds(2)),
            .value("c", at: .seconds(3)),
            .finished(at: .seconds(4)),
        ])
        let early = scheduler.record(hot)
        scheduler.advance(by: .milliseconds(2500))
        let late = scheduler.record(hot)
        scheduler.advance(by: .seconds(10))

        #expect(
            early.events == [
                .subscription(at: .zero),
                .value("a", at: .seconds(1)),
                .value("b", at: .seconds(2)),
                .value("c", at: .seconds(3)),
                .finished(at: .seconds(4)),
            ])
        #expect(
            late.events == [
                .subscription(at: .milliseconds(2500)),
                .value("c", at: .seconds(3)),
                .finished(at: .seconds(4)),
            ])
        #expect(
            hot.subscriptions == [
                RecordedSubscription(subscribed: .zero, demands: [.demand(.unlimited, at: .zero)]),
                RecordedSubscription(
                    subscribed: .milliseconds(2500), demands: [.demand(.unlimited, at: .milliseconds(2500))]),
            ])
    }

    @Test func theScriptPlaysWithNoSubscriberAtAll() {
        let scheduler = DispatchQueue.test
        let hot = scheduler.createHotPublisher([.value(1, at: .seconds(1)), .finished(at: .seconds(2))])
        scheduler.advance(by: .seconds(5))
        let late = scheduler.record(hot)
        #expect(late.events == [.subscription(at: .seconds(5)), .finished(at: .seconds(5))])
        #expect(
            hot.subscriptions == [
                RecordedSubscription(subscribed: .seconds(5), demands: [.demand(.unlimited, at: .seconds(5))])
            ])
    }

    @Test func aValueWithoutDemandIsDroppedForThatSubscriber() {
        let scheduler = DispatchQueue.test
        let hot = scheduler.createHotPublisher([
            .value(1, at: .seconds(1)), .value(2, at: .seconds(2)), .value(3, at: .seconds(3)),
        ])
        let greedy = scheduler.record(hot)
        let frugal = scheduler.record(hot, initialDemand: .max(1))
        frugal.request(.max(1), at: .milliseconds(2500))
        scheduler.advance(by: .seconds(5))

        #expect(greedy.values == [1, 2, 3])
        #expect(frugal.valuesWithTimes == [Recorded(1, at: .seconds(1)), Recorded(3, at: .seconds(3))])
        #expect(
            hot.subscriptions[1].demands == [
                .demand(.max(1), at: .zero), .demand(.max(1), at: .milliseconds(2500)),
            ])
    }

    @Test func theCompletionReachesSubscribersWithoutDemand() {
        let scheduler = DispatchQueue.test
        let hot = scheduler.createHotPublisher([
            .value(1, at: .seconds(1)), .failure(KitError(code: 3), at: .seconds(2)),
        ])
        let idle = scheduler.record(hot, initialDemand: .none)
        scheduler.advance(by: .seconds(5))
        #expect(idle.events == [.subscription(at: .zero), .failure(KitError(code: 3), at: .seconds(2))])
        #expect(hot.subscriptions == [RecordedSubscription(subscribed: .zero)])
    }

    @Test func aSubscriberAfterTheCompletionGetsItAtOnce() {
        let scheduler = DispatchQueue.test
        let hot = scheduler.createHotPublisher([.failure(KitError(code: 1), at: .seconds(1))], outputType: Int.self)
        scheduler.advance(by: .seconds(3))
        let subscriber = TestSubscriber<Int, KitError>(initialDemand: .none)
        hot.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .failure(KitError(code: 1))])
        #expect(hot.subscriptions == [RecordedSubscription(subscribed: .seconds(3))])
    }

    @Test func cancellationIsRecordedOnceAndEndsDelivery() {
        let scheduler = DispatchQueue.test
        let hot = scheduler.createHotPublisher([
            .value(1, at: .seconds(1)), .value(2, at: .seconds(2)), .finished(at: .seconds(3)),
        ])
        let subscriber = TestSubscriber<Int, Never>()
        hot.subscribe(subscriber)
        let subscription = subscriber.subscription
        scheduler.advance(by: .milliseconds(1500))
        subscriber.cancel()
        scheduler.advance(by: .seconds(1))
        subscription?.cancel()
        subscription?.request(.max(5))
        scheduler.advance(by: .seconds(5))

        #expect(subscriber.events == [.subscription, .value(1)])
        #expect(
            hot.subscriptions == [
                RecordedSubscription(
                    subscribed: .zero,
                    demands: [.demand(.unlimited, at: .zero), .demand(.max(5), at: .milliseconds(2500))],
                    cancelled: .milliseconds(1500))
            ])
    }

    @Test func demandReturnedFromReceiveIsRecorded() {
        let scheduler = DispatchQueue.test
        let hot = scheduler.createHotPublisher([.value(1, at: .seconds(1)), .value(2, at: .seconds(2))])
        let recorder = scheduler.record(hot, initialDemand: .max(1), demandPerValue: .max(1))
        scheduler.advance(by: .seconds(2))
        #expect(recorder.values == [1, 2])
        #expect(
            hot.subscriptions[0].demands == [
                .demand(.max(1), at: .zero), .demand(.max(1), at: .seconds(1)), .demand(.max(1), at: .seconds(2)),
            ])
    }

    @Test func eventsAtTheSameInstantKeepScriptOrder() {
        let scheduler = DispatchQueue.test
        let hot = scheduler.createHotPublisher([
            .value(3, at: .seconds(2)), .value(1, at: .seconds(1)), .value(4, at: .seconds(2)),
            .value(2, at: .seconds(1)), .finished(at: .seconds(2)),
        ])
        let recorder = scheduler.record(hot)
        scheduler.advance(by: .seconds(2))
        #expect(
            recorder.events == [
                .subscription(at: .zero), .value(1, at: .seconds(1)), .value(2, at: .seconds(1)),
                .value(3, at: .seconds(2)), .value(4, at: .seconds(2)), .finished(at: .seconds(2)),
            ])
    }

    @Test func timesAlreadyPassedAtCreationFireAtTheNextAdvance() {
        let scheduler = DispatchQueue.test
        scheduler.advance(by: .seconds(5))
        let hot = scheduler.createHotPublisher([.value(1, at: .seconds(1)), .value(2, at: .seconds(6))])
        let recorder = scheduler.record(hot)
        #expect(recorder.values == [])
        scheduler.advance(by: .seconds(2))
        #expect(recorder.valuesWithTimes == [Recorded(1, at: .seconds(5)), Recorded(2, at: .seconds(6))])
    }

    @Test func requestAndCancelFromInsideReceive() {
        let scheduler = DispatchQueue.test
        let hot = scheduler.createHotPublisher([
            .value(1, at: .seconds(1)), .value(2, at: .seconds(2)), .value(3, at: .seconds(3)),
        ])
        let recorder = scheduler.record(hot, initialDemand: .max(1))
        recorder.onReceiveValue { value in
            if value == 1 { recorder.request(.max(1)) }
            if value == 2 { recorder.cancel() }
        }
        scheduler.advance(by: .seconds(5))
        #expect(recorder.values == [1, 2])
        #expect(
            hot.subscriptions == [
                RecordedSubscription(
                    subscribed: .zero, demands: [.demand(.max(1), at: .zero), .demand(.max(1), at: .seconds(1))],
                    cancelled: .seconds(2))
            ])
    }

    @Test func aSubscriberKeepsThePublisherPlayingUntilItCancels() {
        let scheduler = DispatchQueue.test
        weak var weakPublisher: HotTestPublisher<Int, Never, DispatchQueue.SchedulerTimeType>?
        let subscriber = TestSubscriber<Int, Never>()
        do {
            let hot = scheduler.createHotPublisher([.value(1, at: .seconds(1)), .value(2, at: .seconds(2))])
            weakPublisher = hot
            hot.map { $0 * 10 }.subscribe(subscriber)
        }
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [10])
        #expect(weakPublisher != nil)
        subscriber.cancel()
        #expect(weakPublisher == nil)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [10])
    }

    @Test func aPublisherNobodyHoldsGoesAway() {
        let scheduler = DispatchQueue.test
        weak var weakPublisher: HotTestPublisher<Int, Never, DispatchQueue.SchedulerTimeType>?
        do {
            let hot = scheduler.createHotPublisher([.value(1, at: .seconds(1))])
            weakPublisher = hot
        }
        #expect(weakPublisher == nil)
        scheduler.advance(by: .seconds(1))
    }

    @Test func theSubscriptionDescribesItself() {
        let scheduler = DispatchQueue.test
        let hot = scheduler.createHotPublisher([], outputType: Int.self)
        let subscriber = TestSubscriber<Int, Never>()
        hot.subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "HotTestPublisher")
    }

    @Test func manySubscribersFromManyThreadsAllReceive() {
        let scheduler = DispatchQueue.test
        let hot = scheduler.createHotPublisher([.value(1, at: .seconds(1)), .finished(at: .seconds(1))])
        let subscribers = (0..<8).map { _ in TestSubscriber<Int, Never>() }
        DispatchQueue.concurrentPerform(iterations: subscribers.count) { index in
            hot.subscribe(subscribers[index])
        }
        scheduler.advance(by: .seconds(1))
        #expect(subscribers.allSatisfy { $0.events == [.subscription, .value(1), .finished] })
        #expect(hot.subscriptions.count == 8)
    }

    @Test func aScriptWithASubscriptionFailsTheTest() {
        expectMisuse("HotTestPublisher script event 0 is .subscription") {
            _ = DispatchQueue.test.createHotPublisher([
                Recorded<DispatchStride, TestEvent<Int, Never>>.subscription(at: .zero)
            ])
        }
    }

    @Test func aScriptWithANegativeTimeFailsTheTest() {
        expectMisuse("HotTestPublisher script event 0 has a negative time") {
            _ = DispatchQueue.test.createHotPublisher([.value(1, at: .seconds(-1))])
        }
    }

    @Test func aScriptWithTwoCompletionsFailsTheTest() {
        expectMisuse("HotTestPublisher script event 1 is a second completion") {
            _ = DispatchQueue.test.createHotPublisher([
                Recorded<DispatchStride, TestEvent<Int, Never>>.finished(at: .seconds(1)), .finished(at: .seconds(2)),
            ])
        }
    }

    @Test func aScriptWithAValueAfterTheCompletionFailsTheTest() {
        expectMisuse("HotTestPublisher script event 1 comes after the completion") {
            _ = DispatchQueue.test.createHotPublisher([.finished(at: .seconds(1)), .value(1, at: .seconds(1))])
        }
    }

    @Test func aScriptThatBreaksTheRulesIsReportedWhereThePublisherIsCreated() {
        let scheduler = DispatchQueue.test
        let script: [Recorded<DispatchQueue.SchedulerTimeType.Stride, TestEvent<Int, KitError>>] = [
            .finished(at: .seconds(1)), .value(1, at: .seconds(2)),
        ]
        expectReported(atLine: #line) { _ = HotTestPublisher(scheduler: scheduler, script: script) }
        expectReported(atLine: #line) { _ = scheduler.createHotPublisher(script) }
        expectReported(atLine: #line) { _ = scheduler.createHotPublisher([.value(1, at: .seconds(-1))]) }
    }
}
