import Dispatch
import Streams
import Testing

@testable import StreamsTesting

/// Marble frames (the time each character lasts) of zero, below zero and at the end of the clock:
/// StreamsTesting says what is wrong, and never stops the program.
@Suite struct MarbleFrameEdgeTests {
    /// A frame of zero or less cannot place a diagram in time: making a publisher fails the running
    /// test with a message giving the frame, and the publisher plays nothing.
    @Test(arguments: [DispatchQueue.SchedulerTimeType.Stride.zero, .milliseconds(-250)])
    func aFrameOfZeroOrLessIsReportedWhenPlaying(frame: DispatchQueue.SchedulerTimeType.Stride) {
        let scheduler = DispatchQueue.test
        var played: [String] = []
        let issues = recordedIssues {
            played += MarblePublisherFuzzTests.play(
                scheduler.createColdPublisher(marbles: "a-b|", frame: frame), on: scheduler)
            played += MarblePublisherFuzzTests.play(
                scheduler.createHotPublisher(marbles: "a-b|", frame: frame), on: scheduler)
        }
        #expect(played == [])
        #expect(
            issues
                == Array(
                    repeating: "A marble frame must last longer than zero; \(frame) was given.", count: 2))
    }

    /// A frame of zero or less cannot draw: the drawing is a message saying so.
    @Test func aFrameOfZeroOrLessIsReportedWhenDrawing() {
        let scheduler = DispatchQueue.test
        let recorder = scheduler.record(Just("a"))
        scheduler.run()
        #expect(recorder.marbles(frame: .zero) == "cannot draw: a marble frame must last longer than zero, not 0 s")
        #expect(
            recorder.marbles(frame: .milliseconds(-250))
                == "cannot draw: a marble frame must last longer than zero, not -250 ms")
    }

    /// An event at the end of the clock is more frames from time zero than a diagram counts: the
    /// drawing says so instead of overflowing.
    @Test func anEventTooManyFramesAwayIsReportedWhenDrawing() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<String, Never>()
        let recorder = scheduler.record(subject)
        scheduler.advance(by: .nanoseconds(.max))
        subject.send("a")
        let drawing = recorder.marbles(frame: .nanoseconds(1))
        #expect(drawing.hasPrefix("cannot draw: value a at "), "\(drawing)")
        #expect(drawing.hasSuffix(" is too many frames of 1 ns from time zero to draw; draw with a longer frame"))
        #expect(marbleFrame(of: Int.max, frame: 1) == .tooFar)
        #expect(marbleFrame(of: Int.max / 4, frame: 1) == .frame(Int.max / 4, exact: true))
        #expect(marbleFrame(of: 10, frame: 3) == .frame(3, exact: false))
        #expect(marbleFrame(of: 9, frame: 3) == .frame(3, exact: true))
        #expect(marbleFrame(of: -1, frame: 1) == .beforeZero)
    }
}
