import Foundation
import Testing

@testable import StreamsTesting

/// Runs `body` with StreamsTesting's failure reports collected rather than raised, and returns them
/// in order; fails the test if there were none. The reports are those StreamsTesting would record
/// with Swift Testing (`MarbleExpectationTests` and `ReportsReachTheTestLibraryTests` check that they
/// do); collecting them keeps the run's output free of hundreds of expected failures.
func capturedReports(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void
) -> [CapturedReport] {
    let capture = ReportCapture()
    TestIssueReporter.$capture.withValue(capture) { body() }
    let reports = capture.all
    #expect(!reports.isEmpty, "StreamsTesting reported no failure", sourceLocation: sourceLocation)
    return reports
}

/// The asynchronous form of ``capturedReports(sourceLocation:_:)``.
nonisolated(nonsending) func capturedReports(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async -> Void
) async -> [CapturedReport] {
    let capture = ReportCapture()
    await TestIssueReporter.$capture.withValue(capture) { await body() }
    let reports = capture.all
    #expect(!reports.isEmpty, "StreamsTesting reported no failure", sourceLocation: sourceLocation)
    return reports
}

/// Runs `body` and returns the messages of the failures StreamsTesting reported, in order; fails the
/// test if it reported none. See ``capturedReports(sourceLocation:_:)``.
func recordedIssues(sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void) -> [String] {
    capturedReports(sourceLocation: sourceLocation, body).map(\.message)
}

/// The asynchronous form of ``recordedIssues(sourceLocation:_:)``.
nonisolated(nonsending) func recordedIssues(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async -> Void
) async -> [String] {
    await capturedReports(sourceLocation: sourceLocation, body).map(\.message)
}

/// Runs `body`, which misuses StreamsTesting, and checks that the misuse failed the test once, with a
/// message containing `message`, and that the test went on (this function returns).
func expectMisuse(_ message: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void) {
    let issues = recordedIssues(body)
    #expect(issues.count == 1, "\(issues)", sourceLocation: sourceLocation)
    #expect(issues.first?.contains(message) == true, "\(issues)", sourceLocation: sourceLocation)
}

/// Checks that `locations` holds at least one location, and that each is `line` of the file with
/// `fileID` and `filePath`.
private func expectAll(
    _ reports: [CapturedReport], at line: Int, fileID: String, filePath: String, sourceLocation: SourceLocation
) {
    for report in reports {
        #expect(report.fileID == fileID, "\(report)", sourceLocation: sourceLocation)
        #expect(report.filePath == filePath, "\(report)", sourceLocation: sourceLocation)
        #expect(report.line == line, "\(report)", sourceLocation: sourceLocation)
    }
}

/// Runs `body`, which misuses a StreamsTesting entry point in a call written on line `line` of the
/// calling file (pass `#line`, with the call on the same line), and checks that every issue it
/// recorded, at least one, is located at that line of that file: at the test's call, not in
/// StreamsTesting.
func expectReported(
    atLine line: Int, fileID: String = #fileID, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void
) {
    let reports = capturedReports(sourceLocation: sourceLocation, body)
    expectAll(reports, at: line, fileID: fileID, filePath: filePath, sourceLocation: sourceLocation)
}

/// The asynchronous form of ``expectReported(atLine:fileID:filePath:sourceLocation:_:)``.
nonisolated(nonsending) func expectReported(
    atLine line: Int, fileID: String = #fileID, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async -> Void
) async {
    let reports = await capturedReports(sourceLocation: sourceLocation, body)
    expectAll(reports, at: line, fileID: fileID, filePath: filePath, sourceLocation: sourceLocation)
}
