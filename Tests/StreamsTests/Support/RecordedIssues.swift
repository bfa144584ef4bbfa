import Foundation
import Testing

@testable import StreamsTesting

/// The messages of the failures StreamsTesting reported while `body` ran, in order, collected rather
/// than raised: the running test does not fail for them, and the run's output does not list them.
/// Reporting none is not a failure either, so callers check how many they expected.
func recordedIssues(_ body: () -> Void) -> [String] {
    let capture = ReportCapture()
    TestIssueReporter.$capture.withValue(capture) { body() }
    return capture.all.map(\.message)
}
