import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct ColdTestPublisherTests {
    @Test func eachSubscriberGetsTheWholeScriptFromItsOwnStart() {
        let scheduler = DispatchQueue.test
        let cold = scheduler.createColdPublisher([
            .value("a", at: .seconds(1)),
            .value("b", at: .seconds(2)),
            .finished(at: .seconds(3)),
        ])
        let first = scheduler.record(cold)
        scheduler.advance(by: .milliseconds(2500))
        let second = scheduler.record(cold)
        scheduler.advance(by: .seconds(10))

        #expect(
            first.events == [
                .subscription(at: .zero),
                .value("a", at: .seconds(1)),
                .value("b", at: .seconds(2)),
                .finished(at: .seconds(3)),
            ])
        #expect(
            second.events == [
                .subscription(at: .milliseconds(2500)),
                .value("a", at: .milliseconds(3500)),
                .value("b", at: .milliseconds(4500)),
                .finished(at: .milliseconds(5500)),
            ])
        #expect(
            cold.subscriptions == [
                RecordedSubscription(subscribed: .zero, demands: [.demand(.unlimited, at: .zero)]),
                RecordedSubscription(
                    subscribed: .milliseconds(2500), demands: [.demand(.unlimited, at: .milliseconds(2500))]),
            ])
    }

    @Test func valuesWaitForDemandAndTheCompletionWaitsBehindThem() {
        let scheduler = DispatchQueue.test
        let cold = scheduler.createColdPublisher([
            .value(1, at: .seconds(1)), .value(2, at: .seconds(2)), .value(3, at: .seconds(3)),
            .finished(at: .seconds(3)),
        ])
        let recorder = scheduler.record(cold, initialDemand: .none)
        recorder.request(.max(1), at: .milliseconds(1500))
        recorder.request(.max(1), at: .seconds(5))
        scheduler.advance(by: .seconds(6))
        #expect(
            recorder.events == [
                .subscription(at: .zero), .value(1, at: .milliseconds(1500)), .value(2, at: .seconds(5)),
            ])
        #expect(recorder.completion == nil)

        scheduler.advance(by: .seconds(1))
        recorder.request(.max(1))
        #expect(
            recorder.events.suffix(2) == [.value(3, at: .seconds(7)), .finished(at: .seconds(7))])
        #expect(
            cold.subscriptions == [
                RecordedSubscription(
                    subscribed: .zero,
                    demands: [
                        .demand(.max(1), at: .milliseconds(1500)), .demand(.max(1), at: .seconds(5)),
                        .demand(.max(1), at: .seconds(7)),
                    ])
            ])
    }

    @Test func aFailureAlsoWaitsBehindBufferedValues() {
        let scheduler = DispatchQueue.test
        let cold = scheduler.createColdPublisher([
            .value(1, at: .seconds(1)), .failure(KitError(code: 4), at: .seconds(2)),
        ])
        let recorder = scheduler.record(cold, initialDemand: .none)
        scheduler.advance(by: .seconds(3))
        #expect(recorder.events == [.subscription(at: .zero)])
        recorder.request(.max(1))
        #expect(
            recorder.events == [
                .subscription(at: .zero), .value(1, at: .seconds(3)), .failure(KitError(code: 4), at: .seconds(3)),
            ])
    }

    @Test func anEventAtZeroWaitsForTheNextAdvance() {
        let scheduler = DispatchQueue.test
        let cold = scheduler.createColdPublisher([.value(1, at: .zero), .finished(at: .zero)])
        let recorder = scheduler.record(cold)
        #expect(recorder.events == [.subscription(at: .zero)])
        scheduler.advance()
        #expect(recorder.events == [.subscription(at: .zero), .value(1, at: .zero), .finished(at: .zero)])
    }

    @Test func cancellationDiscardsWhatIsWaitingAndIsRecorded() {
        let scheduler = DispatchQueue.test
        let cold = scheduler.createColdPublisher([
            .value(1, at: .seconds(1)), .value(2, at: .seconds(2)), .finished(at: .seconds(3)),
        ])
        let recorder = scheduler.record(cold, initialDemand: .none)
        scheduler.advance(by: .milliseconds(2500))
        recorder.cancel()
        let subscription = cold.subscriptions
        scheduler.advance(by: .seconds(5))
        #expect(recorder.events == [.subscription(at: .zero)])
        #expect(subscription == [RecordedSubscription(subscribed: .zero, cancelled: .milliseconds(2500))])
        #expect(cold.subscriptions == subscription)
    }

    @Test func cancelAtATimeStopsTheRestOfTheScript() {
        let scheduler = DispatchQueue.test
        let cold = scheduler.createColdPublisher([
            .value(1, at: .seconds(1)), .value(2, at: .seconds(2)), .value(3, at: .seconds(3)),
        ])
        scheduler.advance(by: .seconds(1))
        let recorder = scheduler.record(cold)
        recorder.cancel(at: .milliseconds(3500))
        scheduler.advance(by: .seconds(10))
        #expect(recorder.valuesWithTimes == [Recorded(1, at: .seconds(2)), Recorded(2, at: .seconds(3))])
        #expect(cold.subscriptions.map(\.cancelled) == [.milliseconds(3500)])
    }

    @Test func requestingFromInsideReceiveDrainsTheBufferInOrder() {
        let scheduler = DispatchQueue.test
        let cold = scheduler.createColdPublisher([
            .value(1, at: .seconds(1)), .value(2, at: .seconds(1)), .value(3, at: .seconds(1)),
            .finished(at: .seconds(1)),
        ])
        let recorder = scheduler.record(cold, initialDemand: .none)
        var depth = 0
        var deepest = 0
        recorder.onReceiveValue { _ in
            depth += 1
            deepest = max(deepest, depth)
            recorder.request(.max(1))
            depth -= 1
        }
        recorder.request(.max(1), at: .seconds(2))
        scheduler.advance(by: .seconds(2))
        #expect(recorder.untimedEvents == [.subscription, .value(1), .value(2), .value(3), .finished])
        #expect(recorder.completionTime == .seconds(2))
        #expect(deepest == 1)
    }

    @Test func cancellingFromInsideReceiveStopsDelivery() {
        let scheduler = DispatchQueue.test
        let cold = scheduler.createColdPublisher([
            .value(1, at: .seconds(1)), .value(2, at: .seconds(1)), .value(3, at: .seconds(1)),
        ])
        let recorder = scheduler.record(cold, initialDemand: .none)
        recorder.onReceiveValue { if $0 == 2 { recorder.cancel() } }
        scheduler.advance(by: .seconds(1))
        #expect(recorder.values == [])
        recorder.request(.unlimited)
        #expect(recorder.values == [1, 2])
        #expect(recorder.subscription == nil)
        #expect(cold.subscriptions.map(\.cancelled) == [.seconds(1)])
    }

    @Test func demandReturnedFromReceiveIsRecorded() {
        let scheduler = DispatchQueue.test
        let cold = scheduler.createColdPublisher([.value(1, at: .seconds(1)), .value(2, at: .seconds(2))])
        let recorder = scheduler.record(cold, initialDemand: .max(1)) { $0 == 1 ? .max(3) : .none }
        scheduler.advance(by: .seconds(2))
        #expect(recorder.values == [1, 2])
        #expect(cold.subscriptions[0].demands == [.demand(.max(1), at: .zero), .demand(.max(3), at: .seconds(1))])
    }

    @Test func retryResubscribesAndEachAttemptStartsOver() {
        let scheduler = DispatchQueue.test
        let request = scheduler.createColdPublisher([
            .value("cached", at: .milliseconds(100)),
            .failure(KitError(code: 9), at: .milliseconds(500)),
        ])
        let profile = scheduler.record(request.retry(2))
        scheduler.advance(by: .seconds(5))
        #expect(
            profile.events == [
                .subscription(at: .zero),
                .value("cached", at: .milliseconds(100)),
                .value("cached", at: .milliseconds(600)),
                .value("cached", at: .milliseconds(1100)),
                .failure(KitError(code: 9), at: .milliseconds(1500)),
            ])
        #expect(request.subscriptions.map(\.subscribed) == [.zero, .milliseconds(500), .seconds(1)])
    }

    @Test func concurrentRequestsDeliverEachValueOnceInOrder() {
        let scheduler = DispatchQueue.test
        let cold = scheduler.createColdPublisher(
            (0..<400).map { Recorded<DispatchStride, TestEvent<Int, Never>>.value($0, at: .seconds(1)) })
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        cold.subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<100 { subscriber.request(.max(1)) }
        }
        #expect(subscriber.values == Array(0..<400))
        #expect(cold.subscriptions[0].demands.count == 400)
    }

    @Test func aSubscriberKeepsThePublisherAliveUntilTheStreamEnds() {
        let scheduler = DispatchQueue.test
        weak var weakPublisher: ColdTestPublisher<Int, Never, DispatchQueue.SchedulerTimeType>?
        let subscriber = TestSubscriber<Int, Never>()
        do {
            let cold = scheduler.createColdPublisher([.value(1, at: .seconds(1)), .finished(at: .seconds(2))])
            weakPublisher = cold
            cold.subscribe(subscriber)
        }
        scheduler.advance(by: .seconds(1))
        #expect(weakPublisher != nil)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.events == [.subscription, .value(1), .finished])
        #expect(weakPublisher == nil)
    }

    @Test func theSubscriptionDescribesItself() {
        let scheduler = DispatchQueue.test
        let cold = scheduler.createColdPublisher([.value(1, at: .zero)], failureType: KitError.self)
        let subscriber = TestSubscriber<Int, KitError>()
        cold.subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "ColdTestPublisher")
        #expect(cold.script == [.value(1, at: .zero)])
    }

    @Test func aScriptWithAnEventAfterTheCompletionFailsTheTest() {
        expectMisuse("ColdTestPublisher script event 1 comes after the completion") {
            _ = DispatchQueue.test.createColdPublisher([.finished(at: .seconds(1)), .value(1, at: .seconds(2))])
        }
    }

    @Test func aScriptThatBreaksTheRulesIsReportedWhereThePublisherIsCreated() {
        let scheduler = DispatchQueue.test
        let script: [Recorded<DispatchQueue.SchedulerTimeType.Stride, TestEvent<Int, KitError>>] = [
            .finished(at: .seconds(1)), .value(1, at: .seconds(2)),
        ]
        expectReported(atLine: #line) { _ = ColdTestPublisher(scheduler: scheduler, script: script) }
        expectReported(atLine: #line) { _ = scheduler.createColdPublisher(script) }
        expectReported(atLine: #line) { _ = scheduler.createColdPublisher([.value(1, at: .seconds(-1))]) }
    }
}
