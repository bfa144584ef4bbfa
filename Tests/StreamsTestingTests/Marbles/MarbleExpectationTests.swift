import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

/// Comparing what a publisher sent with an expected diagram, and the failure message when they differ.
@Suite struct MarbleExpectationTests {
    /// The comments of the issue a check recorded.
    private func message(of issue: Issue) -> String {
        issue.comments.map(\.rawValue).joined(separator: "\n")
    }

    @Test func aMatchRecordsNothing() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createHotPublisher(marbles: "-a-b|")
        scheduler.expect(input.delay(for: .seconds(2), scheduler: scheduler), marbles: "---a-b|")
    }

    @Test func diagramsAreComparedByTheEventsTheyShow() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createColdPublisher(marbles: "-a--b")
        scheduler.expect(input, marbles: " -(a)b -----")
        expectMarbles("-a--b", "- a - - (b) - -")
    }

    @Test func aMismatchShowsBothDiagramsAndACaretUnderTheFirstDifference() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createHotPublisher(marbles: "-a-b|")
        withKnownIssue {
            scheduler.expect(input.delay(for: .seconds(2), scheduler: scheduler), marbles: "---a-(b|)")
        } matching: { issue in
            message(of: issue) == """
                Marble diagrams differ at column 6:
                expected: ---a-(b|)
                actual:   ---a-b|
                               ^
                """
        }
    }

    @Test func aMissingEndPointsJustPastTheShorterDiagram() {
        withKnownIssue {
            expectMarbles("a-b", "a-b|")
        } matching: { issue in
            message(of: issue) == """
                Marble diagrams differ at column 4:
                expected: a-b|
                actual:   a-b
                             ^
                """
        }
    }

    @Test func theMessageExplainsPlaceholdersWithALegend() {
        let scheduler = DispatchQueue.test
        let values: [Character: Double] = ["a": 1.5, "b": 2.5]
        let prices = scheduler.createColdPublisher(marbles: "a-b|", values: values)
        withKnownIssue {
            scheduler.expect(prices.map { $0 * 2 }, marbles: "a-b|", values: values)
        } matching: { issue in
            message(of: issue) == """
                Marble diagrams differ at column 1:
                expected: a-b|
                actual:   ?-?|
                          ^
                ? at column 1: 3.0
                ? at column 3: 5.0
                """
        }
    }

    @Test func theFailureIsRecordedAtTheCallersLine() {
        let scheduler = DispatchQueue.test
        let line = #line + 2
        withKnownIssue {
            scheduler.expect(Just("a"), marbles: "a")
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.sourceLocation?.fileName == "MarbleExpectationTests.swift"
        }
    }

    @Test func theValuesDictionaryDrawsTheActualValues() {
        let scheduler = DispatchQueue.test
        let values: [Character: [Int]] = ["e": [], "p": [1, 2]]
        let pages = scheduler.createColdPublisher(marbles: "e--p|", values: values)
        scheduler.expect(pages, marbles: "e--p|", values: values)
    }

    @Test func aGivenErrorMustBeTheOneTheStreamFailedWith() {
        let scheduler = DispatchQueue.test
        let failing = scheduler.createColdPublisher(marbles: "a#", error: KitError(code: 1))
        scheduler.expect(failing, marbles: "a#", error: KitError(code: 1))
        let again = DispatchQueue.test
        let other = again.createColdPublisher(marbles: "a#", error: KitError(code: 1))
        withKnownIssue {
            again.expect(other, marbles: "a#", error: KitError(code: 2))
        } matching: { issue in
            message(of: issue)
                == "Marble diagrams match, but the publisher failed with KitError(code: 1), not KitError(code: 2)."
        }
    }

    @Test func framesLimitWhatIsCompared() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createColdPublisher(marbles: "a---b|")
        scheduler.expect(input, marbles: "a--", frames: 3)
    }

    @Test func anUndrawableRecordingFailsWithTheReason() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createColdPublisher([.value("a", at: .milliseconds(1500))])
        withKnownIssue {
            scheduler.expect(input, marbles: "-a")
        } matching: { issue in
            message(of: issue) == """
                Marble diagrams differ at column 1:
                expected: -a
                actual:   cannot draw: value a at 1.5 s falls between frames 1 and 2 of 1 s; draw with a frame that divides every time
                          ^
                """
        }
    }

    @Test func misuseIsReportedAtTheCallersLine() {
        let scheduler = DispatchQueue.test
        let values: [Character: String] = ["a": "a"]
        expectReported(atLine: #line) { scheduler.expect(Just("a"), marbles: "(a") }
        expectReported(atLine: #line) { scheduler.expect(Just("a"), marbles: "(a", values: values) }
        expectReported(atLine: #line) { scheduler.expect(Just("a"), marbles: "(a|)", frames: -1) }
        expectReported(atLine: #line) { scheduler.expect(Just("a"), marbles: "(a|)", values: values, frames: -1) }
        expectReported(atLine: #line) { _ = scheduler.marbles(of: Just("a"), frames: -1) }
        expectReported(atLine: #line) { _ = scheduler.marbles(of: Just("a"), values: values, frames: -1) }
    }

    @Test func aRunThatNeverEndsIsReportedAtTheCallersLine() {
        let scheduler = TestSchedulerOf<DispatchQueue>(now: .init(DispatchTime(uptimeNanoseconds: 1)), runLimit: 10)
        let endless = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {}
        expectReported(atLine: #line) { _ = scheduler.marbles(of: Just("a")) }
        expectReported(atLine: #line) { scheduler.expect(Just("a"), marbles: "(a|)") }
        endless.cancel()
    }
}
