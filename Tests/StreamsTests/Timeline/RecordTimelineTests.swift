import Dispatch
import Foundation
@testable import Streams
import StreamsTesting
import Testing

/// What a marked point records, checked event by event on a test scheduler's virtual time.
@Suite(.timeLimit(.minutes(1))) struct RecordTimelineTests {
    /// The events of `recorder` as (milliseconds, lane, event) triples, without the thread.
    func timeline(_ recorder: TimelineRecorder) -> [String] {
        recorder.events.map { "\(TimelineRecorder.milliseconds($0.time)) \($0.lane) \($0)" }
    }

    @Test func aValueDroppedByRemoveDuplicatesReachesOnlyThePointBeforeIt() throws {
        let scheduler = DispatchQueue.test
        let recorder = TimelineRecorder(clock: scheduler.timelineClock)
        let subject = PassthroughSubject<String, Never>()
        var received: [String] = []
        let cancellable =
            subject
            .recordTimeline("typed", to: recorder)
            .removeDuplicates()
            .recordTimeline("terms", to: recorder)
            .sink { received.append($0) }
        subject.send("swift")
        scheduler.advance(by: .milliseconds(300))
        subject.send("swift")
        scheduler.advance(by: .milliseconds(200))
        subject.send("streams")
        cancellable.cancel()
        #expect(received == ["swift", "streams"])
        #expect(
            timeline(recorder) == [
                "0.000 typed #2 subscribed",
                "0.000 terms #1 subscribed",
                "0.000 terms #1 requested unlimited",
                "0.000 typed #2 requested unlimited",
                "0.000 typed #2 value swift",
                "0.000 terms #1 value swift",
                "300.000 typed #2 value swift",
                "300.000 typed #2 requested max(1)",
                "500.000 typed #2 value streams",
                "500.000 terms #1 value streams",
                "500.000 terms #1 cancelled (cancel() called)",
                "500.000 typed #2 cancelled (cancel() called)",
            ])
    }

    @Test func prefixEndsTheSubscriptionFromDownstream() {
        let recorder = TimelineRecorder()
        var received: [Int] = []
        let cancellable = [1, 2, 3].publisher
            .recordTimeline("numbers", to: recorder)
            .prefix(2)
            .sink { received.append($0) }
        #expect(received == [1, 2])
        #expect(
            recorder.events.map(\.description) == [
                "subscribed", "requested unlimited", "value 1", "value 2", "cancelled (ended downstream)",
            ])
        _ = cancellable
    }

    @Test func aCancelPassedUpTheChainKeepsItsReasonAtEveryPoint() {
        let recorder = TimelineRecorder()
        let subject = PassthroughSubject<Int, Never>()
        let ended =
            subject
            .recordTimeline("upstream", to: recorder)
            .map { $0 * 2 }
            .recordTimeline("downstream", to: recorder)
            .prefix(1)
            .sink { _ in }
        var released: AnyCancellable? =
            subject
            .recordTimeline("upstream", to: recorder)
            .filter { _ in true }
            .recordTimeline("downstream", to: recorder)
            .sink { _ in }
        subject.send(1)
        released = nil
        let reasons = recorder.events.compactMap { event -> String? in
            if case .cancelled(let reason) = event.kind { return "\(event.lane): \(reason)" }
            return nil
        }
        #expect(
            reasons == [
                "downstream #1: ended downstream", "upstream #2: ended downstream",
                "downstream #3: AnyCancellable released", "upstream #4: AnyCancellable released",
            ])
        #expect(released == nil)
        _ = ended
    }

    @Test func aFailureCaughtDownstreamShowsAsAFailureBeforeTheCatchAndAFinishAfterIt() {
        let recorder = TimelineRecorder()
        let subject = PassthroughSubject<Int, TestError>()
        let cancellable =
            subject
            .recordTimeline("source", to: recorder)
            .catch { _ in Just(0) }
            .recordTimeline("caught", to: recorder)
            .sink { _ in }
        subject.send(1)
        subject.send(completion: .failure(TestError()))
        let ends = recorder.events.filter {
            switch $0.kind {
            case .finished, .failed, .cancelled: true
            default: false
            }
        }
        #expect(ends.map { "\($0.lane.name): \($0)" } == ["source: failed: \(TestError())", "caught: finished"])
        #expect(recorder.census.isEmpty)
        _ = cancellable
    }

    @Test func demandThroughABufferIsRecordedAsTheBufferAsksForIt() {
        let recorder = TimelineRecorder()
        let subject = PassthroughSubject<Int, Never>()
        var values: [Int] = []
        var subscription: (any Subscription)?
        subject
            .recordTimeline("into buffer", to: recorder)
            .buffer(size: 3, prefetch: .keepFull, whenFull: .dropOldest)
            .subscribe(
                AnySubscriber(
                    receiveSubscription: {
                        subscription = $0
                        $0.request(.max(1))
                    },
                    receiveValue: {
                        values.append($0)
                        return .none
                    }))
        subject.send(1)
        subject.send(2)
        #expect(values == [1])
        let requests = recorder.events.compactMap { event -> Subscribers.Demand? in
            if case .requested(let demand) = event.kind { return demand }
            return nil
        }
        // The buffer keeps itself full: it asks for its size at once, then one more per value
        // taken from it.
        #expect(requests.first == .max(3))
        #expect(requests.count == 2)
        subscription?.cancel()
    }

    @Test func receiveOnShowsTheValueArrivingOnTheQueuesThread() throws {
        let recorder = TimelineRecorder()
        let subject = PassthroughSubject<Int, Never>()
        let queue = DispatchQueue(label: "timeline.tests.receive-on")
        let received = DispatchSemaphore(value: 0)
        let cancellable =
            subject
            .receive(on: queue)
            .recordTimeline("on the queue", to: recorder)
            .sink { _ in received.signal() }
        let sender = Thread {
            subject.send(1)
        }
        sender.name = "timeline sender"
        sender.start()
        received.wait()
        let value = try #require(recorder.events.first { $0.kind == .value("1") })
        let subscribed = try #require(recorder.events.first { $0.kind == .subscribed })
        #expect(value.thread != "timeline sender")
        #expect(value.thread != subscribed.thread || subscribed.thread.hasPrefix("thread "))
        cancellable.cancel()
    }

    @Test func eachSubscriberOfAShareGetsALaneOfItsOwn() {
        let recorder = TimelineRecorder()
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share().recordTimeline("shared", to: recorder)
        let cancellables = (0..<3).map { _ in shared.sink { _ in } }
        subject.send(7)
        let lanes = Set(recorder.events.map(\.lane))
        #expect(lanes.map(\.subscription).sorted() == [1, 2, 3])
        #expect(recorder.events.filter { $0.kind == .value("7") }.count == 3)
        #expect(recorder.census.map(\.lane.subscription) == [1, 2, 3])
        _ = cancellables
    }

    @Test func aReleasedCancellableIsToldFromACallToCancel() {
        let recorder = TimelineRecorder()
        let subject = PassthroughSubject<Int, Never>()
        var released: AnyCancellable? = subject.recordTimeline("released", to: recorder).sink { _ in }
        let cancelled = subject.recordTimeline("cancelled", to: recorder).sink { _ in }
        released = nil
        cancelled.cancel()
        let reasons = recorder.events.compactMap { event -> String? in
            if case .cancelled(let reason) = event.kind { return "\(event.lane.name): \(reason)" }
            return nil
        }
        #expect(reasons == ["released: AnyCancellable released", "cancelled: cancel() called"])
        #expect(released == nil)
    }

    @Test func theCensusNamesTheOneSubscriptionLeftAlive() {
        let recorder = TimelineRecorder()
        let subject = PassthroughSubject<Int, Never>()
        var kept: [AnyCancellable] = []
        for index in 0..<5 {
            kept.append(subject.recordTimeline("row \(index)", to: recorder).sink { _ in })
        }
        let leaked = kept.remove(at: 3)
        kept.removeAll()
        #expect(recorder.census.map(\.lane.description) == ["row 3 #4"])
        leaked.cancel()
        #expect(recorder.census.isEmpty)
    }

    @Test func theRingKeepsItsCapacityUnderAFloodAndCountsWhatItDropped() throws {
        let recorder = try TimelineRecorder(capacity: 100)
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.recordTimeline("flood", to: recorder).sink { _ in }
        for value in 0..<10_000 { subject.send(value) }
        cancellable.cancel()
        let events = recorder.events
        #expect(events.count == 100)
        // subscribed, requested, 10,000 values, cancelled.
        #expect(recorder.droppedEventCount == 10_003 - 100)
        #expect(events.last?.kind == .cancelled(.cancelCalled))
        #expect(events.first?.kind == .value("9901"))
        #expect(recorder.table.hasPrefix("(9903 older events dropped)\n"))
    }

    @Test func manyThreadsRecordAtOnce() throws {
        let recorder = try TimelineRecorder(capacity: 1_000)
        let subject = PassthroughSubject<Int, Never>()
        let lock = NSLock()
        var count = 0
        let cancellables = (0..<3).map { index in
            subject.recordTimeline("sink \(index)", to: recorder).sink { _ in
                lock.withLock { count += 1 }
            }
        }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for value in 0..<500 { subject.send(thread * 1_000 + value) }
        }
        #expect(count == 3 * 2_000)
        #expect(recorder.events.count == 1_000)
        #expect(recorder.droppedEventCount == 3 * (2 + 2_000) - 1_000)
        _ = cancellables
    }

    @Test func badLimitsAndAnUnwritablePathGetAClearError() {
        #expect(throws: TimelineError.capacityNotPositive(0)) { try TimelineRecorder(capacity: 0) }
        #expect(throws: TimelineError.valueLengthLimitNotPositive(-1)) {
            try TimelineRecorder(capacity: 10, valueLengthLimit: -1)
        }
        #expect("\(TimelineError.capacityNotPositive(0))".contains("at least 1 event"))
        let recorder = TimelineRecorder()
        let path = "/nonexistent-directory/trace.json"
        do {
            try recorder.writeTrace(to: path)
            Issue.record("writing to \(path) succeeded")
        } catch {
            #expect("\(error)".hasPrefix("cannot write the timeline's trace to \(path): "))
        }
    }

    @Test func longValuesAreCutToTheLimit() throws {
        let recorder = try TimelineRecorder(capacity: 10, valueLengthLimit: 5)
        let cancellable = Just("abcdefghij").recordTimeline("long", to: recorder).sink { _ in }
        #expect(recorder.events.contains { $0.kind == .value("abcd…") })
        _ = cancellable
    }
}
