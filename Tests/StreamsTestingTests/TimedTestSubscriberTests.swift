import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct TimedTestSubscriberTests {
    @Test func recordsEachEventWithTheVirtualTimeItArrived() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, KitError>()
        scheduler.advance(by: .seconds(1))
        let recorder = scheduler.record(subject)
        scheduler.at(.seconds(2)) { subject.send(1) }
        scheduler.at(.milliseconds(2500)) { subject.send(2) }
        scheduler.at(.seconds(4)) { subject.send(completion: .failure(KitError(code: 7))) }
        scheduler.advance(by: .seconds(2))
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == nil)
        scheduler.advance(by: .seconds(5))

        #expect(
            recorder.events == [
                .subscription(at: .seconds(1)),
                .value(1, at: .seconds(2)),
                .value(2, at: .milliseconds(2500)),
                .failure(KitError(code: 7), at: .seconds(4)),
            ])
        #expect(recorder.untimedEvents == [.subscription, .value(1), .value(2), .failure(KitError(code: 7))])
        #expect(recorder.values == [1, 2])
        #expect(recorder.valuesWithTimes == [Recorded(1, at: .seconds(2)), Recorded(2, at: .milliseconds(2500))])
        #expect(recorder.completion == .failure(KitError(code: 7)))
        #expect(recorder.completionTime == .seconds(4))
        #expect(recorder.subscriptionTime == .seconds(1))
        #expect(recorder.subscriptionCount == 1)
        #expect(recorder.subscription == nil)
    }

    @Test func timesAreStridesSinceTheStartNotSinceTheSubscription() {
        let scheduler = RunLoop.test
        scheduler.advance(by: .seconds(3))
        let recorder = scheduler.record(Just("late"))
        #expect(recorder.events == [.subscription(at: 3), .value("late", at: 3), .finished(at: 3)])
        #expect(scheduler.elapsed == .seconds(3))
    }

    @Test func initialDemandAndDemandPerValueAreHonoured() {
        let scheduler = DispatchQueue.test
        let numbers = scheduler.createColdPublisher([
            .value(1, at: .seconds(1)), .value(2, at: .seconds(2)), .value(3, at: .seconds(3)),
            .value(4, at: .seconds(4)), .finished(at: .seconds(4)),
        ])
        let recorder = scheduler.record(numbers, initialDemand: .max(2), demandPerValue: .none)
        scheduler.advance(by: .seconds(10))
        #expect(recorder.valuesWithTimes == [Recorded(1, at: .seconds(1)), Recorded(2, at: .seconds(2))])
        #expect(recorder.completion == nil)

        let steady = scheduler.record(numbers, initialDemand: .max(1), demandPerValue: .max(1))
        scheduler.advance(by: .seconds(10))
        #expect(steady.values == [1, 2, 3, 4])
        #expect(steady.completionTime == .seconds(14))
        #expect(
            numbers.subscriptions[1].demands == [
                .demand(.max(1), at: .seconds(10)), .demand(.max(1), at: .seconds(11)),
                .demand(.max(1), at: .seconds(12)), .demand(.max(1), at: .seconds(13)),
                .demand(.max(1), at: .seconds(14)),
            ])
    }

    @Test func demandForValueDecidesAfterEachValue() {
        let scheduler = DispatchQueue.test
        let recorder = scheduler.record([2, 4, 5, 6, 8].publisher, initialDemand: .max(1)) {
            $0.isMultiple(of: 2) ? .max(1) : .none
        }
        #expect(recorder.values == [2, 4, 5])
        recorder.request(.max(2))
        #expect(recorder.values == [2, 4, 5, 6, 8])
        #expect(recorder.completion == .finished)
    }

    @Test func requestAtAVirtualTime() {
        let scheduler = DispatchQueue.test
        let recorder = scheduler.record([1, 2, 3].publisher, initialDemand: .none)
        recorder.request(.max(2), at: .seconds(3))
        recorder.request(.max(1), at: .seconds(5))
        scheduler.advance(by: .milliseconds(2999))
        #expect(recorder.values == [])
        scheduler.advance(by: .seconds(10))
        #expect(
            recorder.events == [
                .subscription(at: .zero),
                .value(1, at: .seconds(3)), .value(2, at: .seconds(3)),
                .value(3, at: .seconds(5)), .finished(at: .seconds(5)),
            ])
    }

    @Test func aRequestForATimeAlreadyPassedRunsAtTheNextAdvance() {
        let scheduler = DispatchQueue.test
        let recorder = scheduler.record([1].publisher, initialDemand: .none)
        scheduler.advance(by: .seconds(2))
        recorder.request(.max(1), at: .seconds(1))
        #expect(recorder.values == [])
        scheduler.advance()
        #expect(recorder.valuesWithTimes == [Recorded(1, at: .seconds(2))])
    }

    @Test func cancelNowStopsValuesAndUpstreamSeesIt() {
        let scheduler = DispatchQueue.test
        let source = scheduler.createHotPublisher([
            .value(1, at: .seconds(1)), .value(2, at: .seconds(2)), .finished(at: .seconds(3)),
        ])
        let recorder = scheduler.record(source)
        scheduler.advance(by: .milliseconds(1500))
        recorder.cancel()
        scheduler.advance(by: .seconds(5))
        #expect(recorder.events == [.subscription(at: .zero), .value(1, at: .seconds(1))])
        #expect(recorder.subscription == nil)
        #expect(source.subscriptions.map(\.cancelled) == [.milliseconds(1500)])
    }

    @Test func cancelAtAVirtualTime() {
        let scheduler = DispatchQueue.test
        let source = scheduler.createHotPublisher([
            .value(1, at: .seconds(1)), .value(2, at: .seconds(2)), .value(3, at: .seconds(3)),
        ])
        let recorder = scheduler.record(source)
        recorder.cancel(at: .seconds(2))
        scheduler.advance(by: .seconds(5))
        // The value due at 2s was scheduled first, so it arrives before the cancellation.
        #expect(recorder.values == [1, 2])
        #expect(
            source.subscriptions == [
                RecordedSubscription(
                    subscribed: .zero, demands: [.demand(.unlimited, at: .zero)], cancelled: .seconds(2))
            ])
    }

    @Test func cancellingFromInsideReceiveStopsAtOnce() {
        let scheduler = DispatchQueue.test
        let recorder = TimedTestSubscriber<Int, Never, DispatchQueue.SchedulerTimeType>(scheduler: scheduler)
        recorder.onReceiveValue { if $0 == 2 { recorder.cancel() } }
        (1...5).publisher.subscribe(recorder)
        #expect(recorder.untimedEvents == [.subscription, .value(1), .value(2)])
    }

    @Test func requestingFromInsideReceiveDeliversInOrder() {
        let scheduler = DispatchQueue.test
        let recorder = TimedTestSubscriber<Int, Never, DispatchQueue.SchedulerTimeType>(
            scheduler: scheduler, initialDemand: .max(1))
        recorder.onReceiveValue { _ in recorder.request(.max(1)) }
        (1...4).publisher.subscribe(recorder)
        #expect(recorder.untimedEvents == [.subscription, .value(1), .value(2), .value(3), .value(4), .finished])
    }

    @Test func aSubscriberMadeAheadSubscribesWhenTheTestSays() {
        let scheduler = DispatchQueue.test
        let subscriber = TimedTestSubscriber<Int, Never, DispatchQueue.SchedulerTimeType>(scheduler: scheduler)
        scheduler.at(.seconds(1)) { Just(7).subscribe(subscriber) }
        #expect(subscriber.events == [])
        scheduler.advance(by: .seconds(1))
        #expect(
            subscriber.events == [
                .subscription(at: .seconds(1)), .value(7, at: .seconds(1)), .finished(at: .seconds(1)),
            ])
    }

    @Test func aScheduledRequestDoesNotKeepTheRecorderAlive() {
        let scheduler = DispatchQueue.test
        weak var weakRecorder: TimedTestSubscriber<Int, Never, DispatchQueue.SchedulerTimeType>?
        do {
            let recorder = scheduler.record(Empty<Int, Never>(completeImmediately: false), initialDemand: .none)
            recorder.request(.max(1), at: .seconds(1))
            recorder.cancel(at: .seconds(2))
            weakRecorder = recorder
            recorder.cancel()
        }
        #expect(weakRecorder == nil)
        scheduler.advance(by: .seconds(3))
    }

    @Test func valuesFromManyThreadsAreAllRecorded() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let recorder = scheduler.record(subject)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<250 { subject.send(thread * 1_000 + index) }
        }
        #expect(recorder.values.count == 1_000)
        #expect(Set(recorder.values).count == 1_000)
        let expectedSum: Int = (0..<4).map { thread in (0..<250).map { thread * 1_000 + $0 }.reduce(0, +) }.reduce(0, +)
        #expect(recorder.values.reduce(0, +) == expectedSum)
        #expect(recorder.events.allSatisfy { $0.time == .zero })
    }

    @Test func eventsDescribeThemselvesReadably() {
        let event: Recorded<DispatchStride, TestEvent<Int, KitError>> = .value(1, at: .seconds(1))
        #expect(event.description == "value(1) at 1 s")
        #expect(TestEvent<Int, KitError>.failure(KitError(code: 2)).description == "failure(KitError(code: 2))")
        #expect(TestEvent<Int, Never>.finished.description == "finished")
        #expect(TestEvent<Int, Never>.subscription.description == "subscription")
    }
}
