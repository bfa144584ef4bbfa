import Dispatch
import Foundation
@testable import Streams
import StreamsTesting
import Testing

/// The text table and the trace file, read back as a person or a trace viewer reads them.
@Suite struct TimelineTraceTests {
    /// A recorder with a known pipeline played on a test scheduler: one subscription cancelled, one
    /// left alive.
    func recorded() -> (TimelineRecorder, AnyCancellable) {
        let scheduler = DispatchQueue.test
        let recorder = TimelineRecorder(clock: scheduler.timelineClock)
        let subject = PassthroughSubject<String, Never>()
        let ended = subject.recordTimeline("quoted \"terms\"", to: recorder).sink { _ in }
        let alive = subject.recordTimeline("alive", to: recorder).sink { _ in }
        scheduler.advance(by: .milliseconds(5))
        subject.send("a\nb")
        scheduler.advance(by: .milliseconds(5))
        ended.cancel()
        scheduler.advance(by: .milliseconds(5))
        return (recorder, alive)
    }

    @Test func theTableHasAColumnForEachOfTimeThreadLaneAndEvent() {
        let lane = TimelineLane(name: "numbers", subscription: 1)
        let events = [
            TimelineEvent(time: .zero, thread: "main", lane: lane, kind: .subscribed),
            TimelineEvent(time: .microseconds(1_500), thread: "worker 2", lane: lane, kind: .value("42")),
            TimelineEvent(time: .seconds(12), thread: "main", lane: lane, kind: .cancelled(.cancellableReleased)),
        ]
        #expect(
            TimelineRecorder.table(of: events, dropped: 0) == """
                time (ms)  thread    lane        event
                    0.000  main      numbers #1  subscribed
                    1.500  worker 2  numbers #1  value 42
                12000.000  main      numbers #1  cancelled (AnyCancellable released)
                """)
        #expect(TimelineRecorder.table(of: events, dropped: 1).hasPrefix("(1 older event dropped)\ntime (ms)"))
    }

    @Test func theTraceIsJSONThatATraceViewerReads() throws {
        let (recorder, alive) = recorded()
        let data = Data(recorder.traceEvents().utf8)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        #expect((root["otherData"] as? [String: Any])?["droppedEvents"] as? Int == 0)
        for event in events {
            for key in ["ph", "pid", "tid", "name"] {
                #expect(event[key] != nil, "\(key) missing in \(event)")
            }
            if event["ph"] as? String != "M" {
                #expect(event["ts"] is Double || event["ts"] is Int, "ts missing in \(event)")
            }
        }
        // One process per pipeline, named after its chain; one track per subscription.
        let processes = events.filter { $0["name"] as? String == "process_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(processes == ["quoted \"terms\"", "alive"])
        // A complete slice per subscription: the ended one lasts to its cancel (10 ms), the live one
        // to now (15 ms).
        let slices = events.filter { $0["ph"] as? String == "X" && $0["cat"] as? String == "subscription" }
        #expect(slices.map { $0["name"] as? String } == ["quoted \"terms\" #1", "alive #2"])
        #expect(slices.map { $0["dur"] as? Double } == [10_000, 15_000])
        #expect(slices.allSatisfy { ($0["dur"] as? Double ?? -1) >= 0 })
        // Slices of no length for the values, the value's line break kept; instants for the rest.
        let values = events.filter { $0["cat"] as? String == "value" }
        #expect(values.map { $0["name"] as? String } == ["value a\nb", "value a\nb"])
        #expect(values.allSatisfy { $0["ph"] as? String == "X" && $0["dur"] as? Double == 0 })
        let instants = events.filter { $0["ph"] as? String == "i" }.compactMap { $0["name"] as? String }
        #expect(
            instants == [
                "subscribed", "requested unlimited", "subscribed", "requested unlimited", "cancelled (cancel() called)",
            ])
        alive.cancel()
    }

    @Test func theTraceIsWrittenToAFile() throws {
        let (recorder, alive) = recorded()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try recorder.writeTrace(to: path)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == recorder.traceEvents())
        alive.cancel()
    }

    @Test func theRingDropsTheOldestFirst() {
        var ring = TimelineRing(capacity: 3)
        let lane = TimelineLane(name: "ring", subscription: 1)
        for value in 0..<5 {
            ring.append(TimelineEvent(time: .zero, thread: "t", lane: lane, kind: .value("\(value)")))
        }
        #expect(ring.events.map(\.kind) == [.value("2"), .value("3"), .value("4")])
        #expect(ring.droppedCount == 2)
        #expect(ring.count == 3)
        ring.removeAll()
        #expect(ring.events.isEmpty)
        #expect(ring.droppedCount == 0)
    }
}
