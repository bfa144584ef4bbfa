import Dispatch
import Foundation
import Streams
import Testing

/// Recording a whole process, in a process of its own each: started in code, or by the environment
/// for a program that is not changed at all.
@Suite struct RecordProcessTests {
    @Test func startRecordingRecordsEveryThreadsSubscriptionsUntilStopped() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            func check(_ condition: Bool, _ message: String) {
                if !condition {
                    FileHandle.standardError.write(Data("failed: \(message)\n".utf8))
                    exit(1)
                }
            }
            let recorder = TimelineRecorder()
            recorder.startRecording()
            check(TimelineRecorder.current === recorder, "the recorder is current")
            let subject = PassthroughSubject<Int, Never>()
            // Made on another thread, outside any scope: recorded all the same.
            let recorded = DispatchQueue.global().sync { subject.map { $0 * 2 }.sink { _ in } }
            TimelineRecorder().stopRecording()
            check(TimelineRecorder.current === recorder, "another recorder's stop leaves it recording")
            recorder.stopRecording()
            check(TimelineRecorder.current == nil, "no recorder is current after the stop")
            let unrecorded = subject.filter { _ in true }.sink { _ in }
            subject.send(1)
            check(
                recorder.events.map { "\($0.lane) \($0)" }.filter { $0.contains("value") }
                    == ["PassthroughSubject #2 value 1", "Map #1 value 2"],
                "the values of the recorded subscription, only: \(recorder.table)")
            recorded.cancel()
            unrecorded.cancel()
            FileHandle.standardError.write(Data("checked\n".utf8))
        }
        let said = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(said.contains("checked"), "\(said)")
    }

    @Test func theEnvironmentRecordsAnUnchangedProgramAndWritesTheTraceAtExit() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("streams-\(UUID()).json").path
            setenv("STREAMS_TIMELINE", path, 1)
            setenv("STREAMS_TIMELINE_CAPACITY", "5", 1)
            // From here on, the program does not know it is being recorded: 8 events, 3 dropped.
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.map { $0 * 2 }.sink { _ in }
            subject.send(21)
            cancellable.cancel()
            // A program that ends by returning from its main code ends with `exit`, as here.
            exit(EXIT_SUCCESS)
        }
        let said = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        let prefix = "Streams timeline: wrote a timeline of 5 events to "
        let line = try #require(said.split(separator: "\n").first { $0.hasPrefix(prefix) })
        #expect(line.hasSuffix(" (3 older events dropped)"))
        let path = String(line.dropFirst(prefix.count).prefix { $0 != " " })
        defer { try? FileManager.default.removeItem(atPath: path) }
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect((root["otherData"] as? [String: Any])?["droppedEvents"] as? Int == 3)
        let names = (root["traceEvents"] as? [[String: Any]] ?? []).filter { $0["cat"] as? String == "subscription" }
            .compactMap { $0["name"] as? String }
        #expect(Set(names) == ["Map #1", "PassthroughSubject #2"])
    }

    @Test func aBadCapacityInTheEnvironmentIsSaidAndTheDefaultKept() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            setenv("STREAMS_TIMELINE", "/nonexistent-directory/trace.json", 1)
            setenv("STREAMS_TIMELINE_CAPACITY", "none", 1)
            let cancellable = Just(1).sink { _ in }
            _ = cancellable
            exit(EXIT_SUCCESS)
        }
        let said = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(said.contains("Streams timeline: STREAMS_TIMELINE_CAPACITY=none: "))
        #expect(said.contains("keeping 100000 events"))
        #expect(said.contains("cannot write the timeline's trace to /nonexistent-directory/trace.json: "))
    }
}
