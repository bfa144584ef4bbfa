import Dispatch
import Foundation
@testable import Streams
import StreamsTesting
import Testing

/// Recording every subscription: each operator's subscription on a lane of its own, linked to the
/// one downstream, with each value linked to the value it came from.
@Suite(.timeLimit(.minutes(1))) struct RecordEverySubscriptionTests {
    /// The events as `time lane event` lines; a value ends with `← lane` of the value it came from.
    func lines(_ recorder: TimelineRecorder) -> [String] {
        let events = recorder.events
        let byID = Dictionary(uniqueKeysWithValues: events.map { ($0.id, $0) })
        return events.map { event in
            let cause = event.cause.flatMap { byID[$0] }.map { " ← \($0.lane)" } ?? ""
            return "\(TimelineRecorder.milliseconds(event.time)) \(event.lane) \(event)\(cause)"
        }
    }

    /// Each lane as `lane → downstream lane`, in the order they were made.
    func links(_ recorder: TimelineRecorder) -> [String] {
        var seen: [Int: TimelineLane] = [:]
        for event in recorder.events { seen[event.lane.subscription] = event.lane }
        return seen.keys.sorted().compactMap { seen[$0] }.map { lane in
            "\(lane) → \(lane.downstream.flatMap { seen[$0] }.map(\.description) ?? "end") (pipeline \(lane.pipeline))"
        }
    }

    @Test func aChainGetsALanePerOperatorEachLinkedToTheOneDownstream() {
        let scheduler = DispatchQueue.test
        let recorder = TimelineRecorder(clock: scheduler.timelineClock)
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = recorder.record {
            subject.map { $0 / 10 }.removeDuplicates().sink { received.append($0) }
        }
        subject.send(10)
        scheduler.advance(by: .milliseconds(5))
        subject.send(11)
        cancellable.cancel()
        #expect(received == [1])
        #expect(
            links(recorder) == [
                "RemoveDuplicates #1 → end (pipeline 1)",
                "Map #2 → RemoveDuplicates #1 (pipeline 1)",
                "PassthroughSubject #3 → Map #2 (pipeline 1)",
            ])
        #expect(
            lines(recorder) == [
                "0.000 PassthroughSubject #3 subscribed",
                "0.000 Map #2 subscribed",
                "0.000 RemoveDuplicates #1 subscribed",
                "0.000 RemoveDuplicates #1 requested unlimited",
                "0.000 Map #2 requested unlimited",
                "0.000 PassthroughSubject #3 requested unlimited",
                "0.000 PassthroughSubject #3 value 10",
                "0.000 Map #2 value 1 ← PassthroughSubject #3",
                "0.000 RemoveDuplicates #1 value 1 ← Map #2",
                // 11 maps to 1 again: removeDuplicates drops it and asks for one more instead.
                "5.000 PassthroughSubject #3 value 11",
                "5.000 Map #2 value 1 ← PassthroughSubject #3",
                "5.000 Map #2 requested max(1)",
                "5.000 PassthroughSubject #3 requested max(1)",
                "5.000 RemoveDuplicates #1 cancelled (cancel() called)",
                "5.000 Map #2 cancelled (cancel() called)",
                "5.000 PassthroughSubject #3 cancelled (cancel() called)",
            ])
        #expect(recorder.census.isEmpty)
    }

    @Test func aValueKeepsItsOriginAcrossReceiveOnAndDebounce() {
        let scheduler = DispatchQueue.test
        let recorder = TimelineRecorder(clock: scheduler.timelineClock)
        let subject = PassthroughSubject<String, Never>()
        var received: [String] = []
        let cancellable = recorder.record {
            subject
                .debounce(for: .milliseconds(300), scheduler: scheduler)
                .receive(on: scheduler)
                .sink { received.append($0) }
        }
        subject.send("s")
        scheduler.advance(by: .milliseconds(100))
        subject.send("sw")
        scheduler.advance(by: .seconds(1))
        #expect(received == ["sw"])
        let values = lines(recorder).filter { $0.contains(" value ") }
        #expect(
            values == [
                "0.000 PassthroughSubject #3 value s",
                "100.000 PassthroughSubject #3 value sw",
                "400.000 Debounce #2 value sw ← PassthroughSubject #3",
                "400.000 ReceiveOn #1 value sw ← Debounce #2",
            ])
        cancellable.cancel()
    }

    @Test func innerSubscriptionsOfFlatMapAndCatchBelongToTheirPipeline() {
        let recorder = TimelineRecorder()
        let subject = PassthroughSubject<Int, TestError>()
        var received: [Int] = []
        let cancellable = recorder.record {
            subject
                .flatMap { value in [value, value * 10].publisher.setFailureType(to: TestError.self) }
                .catch { _ in Just(-1) }
                .sink { received.append($0) }
        }
        subject.send(1)
        subject.send(completion: .failure(TestError()))
        #expect(received == [1, 10, -1])
        #expect(
            links(recorder) == [
                "Catch #1 → end (pipeline 1)",
                "FlatMap #2 → Catch #1 (pipeline 1)",
                "PassthroughSubject #3 → FlatMap #2 (pipeline 1)",
                // `setFailureType` on a sequence publisher is a sequence publisher.
                "Sequence #4 → FlatMap #2 (pipeline 1)",
                "Just #5 → Catch #1 (pipeline 1)",
            ])
        // The inner publisher's values came from the value that made it; the replacement's start
        // there.
        let values = lines(recorder).filter { $0.contains(" value ") }.map { $0.drop { $0 != " " }.dropFirst() }
        #expect(
            values == [
                "PassthroughSubject #3 value 1",
                "Sequence #4 value 1 ← PassthroughSubject #3",
                "FlatMap #2 value 1 ← Sequence #4",
                "Catch #1 value 1 ← FlatMap #2",
                "Sequence #4 value 10 ← PassthroughSubject #3",
                "FlatMap #2 value 10 ← Sequence #4",
                "Catch #1 value 10 ← FlatMap #2",
                "Just #5 value -1",
                "Catch #1 value -1 ← Just #5",
            ])
        _ = cancellable
    }

    @Test func aTypeErasedPublisherIsNamedAfterWhatItErasesAndGetsNoLaneOfItsOwn() {
        let recorder = TimelineRecorder()
        let subject = PassthroughSubject<Int, Never>()
        let erased = subject.map { $0 + 1 }.eraseToAnyPublisher()
        let cancellable = recorder.record { Deferred { erased }.eraseToAnyPublisher().sink { _ in } }
        subject.send(1)
        #expect(
            links(recorder) == ["Deferred #1 → end (pipeline 1)", "PassthroughSubject #2 → Deferred #1 (pipeline 1)"])
        #expect(recorder.events.contains { $0.lane.name == "Deferred" && $0.kind == .value("2") })
        let direct = recorder.record { erased.sink { _ in } }
        #expect(recorder.census.map(\.lane.name) == ["Deferred", "PassthroughSubject", "Map", "PassthroughSubject"])
        _ = (cancellable, direct)
    }

    @Test func subscribeOnKeepsTheSubscriptionItMakesInThePipeline() {
        let scheduler = DispatchQueue.test
        let recorder = TimelineRecorder(clock: scheduler.timelineClock)
        let cancellable = recorder.record {
            Just(1).subscribe(on: scheduler).sink { _ in }
        }
        #expect(links(recorder).isEmpty)
        scheduler.advance()
        #expect(links(recorder) == ["SubscribeOn #1 → end (pipeline 1)", "Just #2 → SubscribeOn #1 (pipeline 1)"])
        _ = cancellable
    }

    @Test func theCensusShowsEachLiveSubscriptionsChain() {
        let scheduler = DispatchQueue.test
        let recorder = TimelineRecorder(clock: scheduler.timelineClock)
        let subject = CurrentValueSubject<Int, Never>(0)
        var kept: [AnyCancellable] = []
        recorder.record {
            for index in 0..<3 {
                subject.map { $0 + index }.filter { $0 > 0 }.sink { _ in }.store(in: &kept)
                scheduler.advance(by: .milliseconds(250))
            }
        }
        let leaked = kept.remove(at: 1)
        kept.removeAll()
        scheduler.advance(by: .seconds(1))
        let thread = recorder.census.first?.thread ?? ""
        let padding = String(repeating: " ", count: max(thread.count, 6) - thread.count)
        let header = "thread" + String(repeating: " ", count: max(thread.count, 6) - 6)
        #expect(
            recorder.censusTable == """
                pipeline #4: CurrentValueSubject → Map → Filter
                  lane                    \(header)  started (ms)  alive (ms)
                  CurrentValueSubject #6  \(thread)\(padding)       250.000    1500.000
                  Map #5                  \(thread)\(padding)       250.000    1500.000
                  Filter #4               \(thread)\(padding)       250.000    1500.000
                """)
        #expect(
            recorder.census.map { "\($0.lane): \($0.chain.joined(separator: " → "))" } == [
                "Filter #4: Filter", "Map #5: Map → Filter",
                "CurrentValueSubject #6: CurrentValueSubject → Map → Filter",
            ])
        #expect(recorder.census.allSatisfy { $0.lane.pipeline == 4 })
        leaked.cancel()
        #expect(recorder.census.isEmpty)
        #expect(recorder.censusTable == "no subscriptions alive")
    }

    @Test func theScopeRecordsOnlyWhatItsOwnCodeSubscribes() throws {
        let recorder = TimelineRecorder()
        let elsewhere = DispatchQueue(label: "timeline.tests.elsewhere")
        let subject = PassthroughSubject<Int, Never>()
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let other = HandedOver<AnyCancellable?>(nil)
        let mine = recorder.record {
            elsewhere.async {
                started.wait()
                other.value = subject.map { $0 }.sink { _ in }
                finished.signal()
            }
            defer { started.signal() }
            return subject.filter { _ in true }.sink { _ in }
        }
        finished.wait()
        #expect(Set(recorder.events.map(\.lane.name)) == ["Filter", "PassthroughSubject"])
        mine.cancel()
        elsewhere.sync { other.value?.cancel() }
    }

    @Test func manyThreadsRecordInnerSubscriptionsAtOnce() throws {
        let recorder = try TimelineRecorder(capacity: 500)
        let subject = PassthroughSubject<Int, Never>()
        let lock = NSLock()
        var count = 0
        let cancellable = recorder.record {
            subject.flatMap { Just($0) }.sink { _ in lock.withLock { count += 1 } }
        }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for value in 0..<250 { subject.send(thread * 1_000 + value) }
        }
        #expect(count == 1_000)
        let events = recorder.events
        #expect(events.count == 500)
        #expect(recorder.droppedEventCount > 0)
        // Every inner subscription, made on whichever thread sent its value, belongs downstream of
        // the flatMap.
        let flatMap = try #require(events.first { $0.lane.name == "FlatMap" }?.lane)
        #expect(events.filter { $0.lane.name == "Just" }.allSatisfy { $0.lane.downstream == flatMap.subscription })
        #expect(Set(events.map(\.id)).count == events.count)
        cancellable.cancel()
    }

    @Test func theTraceLinksEachValueToItsOriginWithPairedArrows() throws {
        let scheduler = DispatchQueue.test
        let recorder = TimelineRecorder(clock: scheduler.timelineClock)
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = recorder.record {
            subject.map { $0 * 2 }.receive(on: scheduler).sink { _ in }
        }
        subject.send(1)
        subject.send(2)
        scheduler.advance(by: .milliseconds(1))
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(recorder.traceEvents().utf8)) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        for event in events {
            for key in ["ph", "pid", "tid", "name"] { #expect(event[key] != nil, "\(key) missing in \(event)") }
            if event["ph"] as? String != "M" { #expect(event["ts"] != nil, "ts missing in \(event)") }
            // Only complete slices and instants: nothing to balance but durations.
            #expect(["M", "X", "i", "s", "f"].contains(event["ph"] as? String ?? ""))
            if event["ph"] as? String == "X" { #expect((event["dur"] as? Double ?? -1) >= 0) }
        }
        let starts = events.filter { $0["ph"] as? String == "s" }.compactMap { $0["id"] as? Int }
        let finishes = events.filter { $0["ph"] as? String == "f" }.compactMap { $0["id"] as? Int }
        // Map's two values from the subject's, ReceiveOn's two from Map's.
        #expect(starts.count == 4)
        #expect(Set(starts) == Set(finishes))
        #expect(Set(starts).count == starts.count)
        let processes = events.filter { $0["name"] as? String == "process_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(processes == ["PassthroughSubject → Map → ReceiveOn"])
        // Upstream tracks sort first.
        let names = Dictionary(
            uniqueKeysWithValues: events.filter { $0["name"] as? String == "thread_name" }.compactMap { event in
                (event["tid"] as? Int).map { ($0, ((event["args"] as? [String: Any])?["name"] as? String) ?? "") }
            })
        let order = events.filter { $0["name"] as? String == "thread_sort_index" }.compactMap { event in
            (event["tid"] as? Int).map {
                (names[$0] ?? "", (event["args"] as? [String: Any])?["sort_index"] as? Int ?? 0)
            }
        }.sorted { $0.1 < $1.1 }.map(\.0)
        #expect(order.map { $0.prefix { $0 != " " } } == ["PassthroughSubject", "Map", "ReceiveOn"])
        cancellable.cancel()
    }
}

/// A value shared with a closure that runs on another thread, read after it has run.
private final class HandedOver<Value>: @unchecked Sendable {
    // @unchecked Sendable: written on one thread and read after a semaphore or `sync` orders it.
    var value: Value
    init(_ value: Value) { self.value = value }
}
