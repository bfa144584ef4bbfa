import Foundation
import Testing
import XCTest

/// Reports a failed check to whichever test library is running the current test.
///
/// Swift Testing and XCTest each see only their own failures: an `Issue.record` made inside an XCTest
/// test case, or an `XCTFail` made inside a Swift Testing test, is dropped. So a StreamsTesting check
/// asks Swift Testing first (a test is current on this task), then XCTest (the process is a test
/// bundle), and outside any test it writes the message to standard error instead of losing it.
///
/// Before any of these, a failure reported inside an `XCTExpectFailure` block (StreamsTesting's own,
/// on platforms whose XCTest lacks it) is counted by that block as expected and not raised; and
/// StreamsTesting's own tests of its failure reports may bind ``capture`` to collect the reports
/// instead of raising them.
enum TestIssueReporter {
    /// The innermost `XCTExpectFailure` block running on this thread or task, if any.
    @TaskLocal static var expectedFailures: ExpectedFailureScope?

    /// Collects the reports made while it is bound, in place of raising them in a test library: for
    /// tests of the reports themselves, which check each message and location without filling the
    /// test run's output with expected failures.
    @TaskLocal static var capture: ReportCapture?

    /// Records `message` as a failure of the running test, at the given source location, unless an
    /// `XCTExpectFailure` block expects it.
    static func report(
        _ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
    ) {
        if let scope = expectedFailures, scope.absorb() { return }
        if let capture {
            capture.append(
                CapturedReport(
                    message: message, fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line),
                    column: Int(column)))
        } else if Test.current != nil {
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: SourceLocation(
                    fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column)))
        } else if isRunningXCTest {
            XCTFail(message, file: filePath, line: line)
        } else {
            FileHandle.standardError.write(Data("StreamsTesting: \(message)\n".utf8))
        }
    }

    /// Records `message` as a failure of the running test at `site`, unless an `XCTExpectFailure`
    /// block expects it.
    static func report(_ message: String, at site: CallSite) {
        report(message, fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
    }

    /// Records StreamsTesting's misuse as a failure of the running test, which goes on, as do the
    /// other tests of the run, at StreamsTesting's own location, for a failure that no call of the test
    /// leads to. Misuse found by an entry point the test called (a malformed marble diagram or script,
    /// a stride that would move virtual time back, a run that never ends) is reported at that call,
    /// with ``report(_:at:)``.
    static func reportMisuse(
        _ message: String, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) {
        report(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// The test's call that is running the current piece of work of a virtual time line (a test
    /// scheduler's or test clock's `advance` or `run`, or a marble helper that advances), if any: where
    /// misuse the work finds, such as an action repeating forever at one instant, is reported. A time
    /// line binds it around each piece of work it runs (see `VirtualTimeline.perform(_:at:)`).
    @TaskLocal static var advancingCall: CallSite?

    /// Whether this process is an XCTest bundle (`swift test` runs `<Package>PackageTests.xctest`).
    private static let isRunningXCTest: Bool = {
        let executable = CommandLine.arguments.first ?? ""
        return executable.hasSuffix(".xctest") || executable.contains(".xctest/")
    }()
}

/// Where a test called a StreamsTesting entry point: the location a failure that call finds is
/// reported at, so that it is marked in the test, not in StreamsTesting.
struct CallSite: Sendable {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt

    /// The location of the code that calls this: used by the forms of the entry points that take no
    /// location (kept for compatibility), which report at StreamsTesting's own source.
    static func here(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> CallSite {
        CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
