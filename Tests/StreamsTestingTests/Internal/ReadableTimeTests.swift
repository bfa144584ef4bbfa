import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

/// Times in recorders, descriptions and scheduler messages read in units, not as raw strides.
@Suite struct ReadableTimeTests {
    typealias DispatchStride = DispatchQueue.SchedulerTimeType.Stride
    typealias RunLoopStride = RunLoop.SchedulerTimeType.Stride

    func text(_ stride: DispatchStride) -> String {
        Recorded<DispatchStride, Int>(0, at: stride).description.replacingOccurrences(of: "0 at ", with: "")
    }

    @Test func timesUseTheLargestUnitInWhichTheAmountIsAtLeastOne() {
        #expect(text(.zero) == "0 s")
        #expect(text(.seconds(2)) == "2 s")
        #expect(text(.milliseconds(1500)) == "1.5 s")
        #expect(text(.milliseconds(250)) == "250 ms")
        #expect(text(.microseconds(1500)) == "1.5 ms")
        #expect(text(.microseconds(3)) == "3 µs")
        #expect(text(.nanoseconds(7)) == "7 ns")
        #expect(text(.nanoseconds(1_000_001_000)) == "1.000001 s")
        #expect(text(.milliseconds(-20)) == "-20 ms")
        #expect(text(.seconds(3600)) == "3600 s")
    }

    @Test func runLoopStridesAreShownToTheNanosecond() {
        #expect(Recorded(1, at: RunLoopStride(0.25)).description == "1 at 250 ms")
        #expect(Recorded(1, at: RunLoopStride.seconds(1.5)).description == "1 at 1.5 s")
        #expect(Recorded(1, at: OperationQueue.SchedulerTimeType.Stride(0.000003)).description == "1 at 3 µs")
    }

    @Test func otherTimesPrintAsSwiftDescribesThem() {
        #expect(Recorded("a", at: 5).description == "a at 5")
    }

    @Test func theStridesOwnDescriptionsStayAsCombinePrintsThem() {
        #expect(String(describing: DispatchStride.milliseconds(250)) == "Stride(magnitude: 250000000)")
        #expect(String(describing: RunLoopStride(0.25)) == "Stride(magnitude: 0.25)")
    }

    @Test func recordedEventsDescribeTheirTimesReadably() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let recorder = scheduler.record(subject)
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(250))) { subject.send(1) }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(1500))) {
            subject.send(completion: .finished)
        }
        scheduler.advance(by: .seconds(2))
        #expect(
            recorder.events.map(\.description) == ["subscription at 0 s", "value(1) at 250 ms", "finished at 1.5 s"])
        #expect(recorder.valuesWithTimes.map(\.description) == ["1 at 250 ms"])
    }

    @Test func swiftTestingShowsRecordedEventsAndStridesReadably() {
        let events: [Recorded<DispatchStride, TestEvent<Int, Never>>] = [
            .subscription(at: .zero), .value(1, at: .milliseconds(250)), .finished(at: .seconds(1)),
        ]
        #expect(
            String(describingForTest: events) == "[subscription at 0 s, value(1) at 250 ms, finished at 1 s]")
        #expect(String(describingForTest: events[1]) == "value(1) at 250 ms")
        #expect(String(describingForTest: TestEvent<Int, Never>.value(1)) == "value(1)")
        #expect(String(describingForTest: DispatchStride.milliseconds(1500)) == "1.5 s")
        #expect(String(describingForTest: RunLoopStride(0.25)) == "250 ms")
        #expect(String(describingForTest: OperationQueue.SchedulerTimeType.Stride(3)) == "3 s")
    }

    @Test func aFailingExpectationOnRecordedEventsShowsReadableTimes() {
        let scheduler = DispatchQueue.test
        let recorder = scheduler.record(Just(1).delay(for: .milliseconds(250), scheduler: scheduler))
        scheduler.advance(by: .seconds(1))
        withKnownIssue {
            #expect(recorder.events == [.subscription(at: .zero), .value(1, at: .milliseconds(300))])
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("value(1) at 250 ms") && text.contains("value(1) at 300 ms")
                && !text.contains("magnitude")
        }
    }

    @Test func recordedSubscriptionsDescribeTheirTimesReadably() {
        let subscription = RecordedSubscription<DispatchStride>(
            subscribed: .seconds(1),
            demands: [.demand(.max(1), at: .seconds(1)), .demand(.unlimited, at: .milliseconds(1250))],
            cancelled: .milliseconds(2500))
        let expected = "subscribed at 1 s, demands [max(1) at 1 s, unlimited at 1.25 s], cancelled at 2.5 s"
        #expect(subscription.description == expected)
        #expect(String(describingForTest: subscription) == expected)
        #expect(
            RecordedSubscription<DispatchStride>(subscribed: .zero).description
                == "subscribed at 0 s, demands [], not cancelled")
    }
}

/// One spelling, `.value(_:at:)`, for a value at a time: in scripts, recorded events and recorded values.
@Suite struct RecordedValueSpellingTests {
    @Test func valueAtBuildsScriptedEventsRecordedEventsAndRecordedValues() {
        let scheduler = DispatchQueue.test
        let readings = scheduler.createHotPublisher([
            .value(3, at: .seconds(1)), .value(2, at: .milliseconds(1500)), .finished(at: .seconds(2)),
        ])
        let recorder = scheduler.record(readings)
        scheduler.advance(by: .seconds(2))
        #expect(recorder.valuesWithTimes == [.value(3, at: .seconds(1)), .value(2, at: .milliseconds(1500))])
        #expect(
            recorder.events == [
                .subscription(at: .zero), .value(3, at: .seconds(1)), .value(2, at: .milliseconds(1500)),
                .finished(at: .seconds(2)),
            ])
        // The initializer spelling still works and means the same.
        #expect(recorder.valuesWithTimes == [Recorded(3, at: .seconds(1)), Recorded(2, at: .milliseconds(1500))])
        #expect(Recorded.value("a", at: 5) == Recorded("a", at: 5))
        #expect(
            readings.subscriptions.first?.demands == [.value(.unlimited, at: .zero)]
                && readings.subscriptions.first?.demands == [.demand(.unlimited, at: .zero)])
    }
}
