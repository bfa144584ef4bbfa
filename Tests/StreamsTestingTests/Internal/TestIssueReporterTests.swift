import Dispatch
import Foundation
import Streams
import Testing

@testable import StreamsTesting

/// StreamsTesting's failure reports reach Swift Testing as issues of the running test, with their
/// messages and locations. Most tests of the reports collect them with `capturedReports` instead;
/// these check that what is collected is what Swift Testing would have been given.
@Suite struct TestIssueReporterTests {
    @Test func aMisuseReachesSwiftTestingWithItsMessage() {
        let scheduler = DispatchQueue.unimplemented
        withKnownIssue {
            scheduler.schedule {}
        } matching: { issue in
            issue.comments.map(\.rawValue)
                == ["DispatchQueue - An unimplemented scheduler scheduled an action to run immediately."]
        }
    }

    @Test func aReportAtTheCallersLineReachesSwiftTestingThere() {
        let scheduler = DispatchQueue.test
        let line = #line + 2
        withKnownIssue {
            _ = scheduler.createColdPublisher(marbles: "(a")
        } matching: { issue in
            issue.sourceLocation?.line == line && issue.sourceLocation?.fileID == #fileID
                && issue.sourceLocation?.filePath == #filePath
        }
    }

    @Test func aCaptureCollectsWhatSwiftTestingWouldHaveBeenGiven() {
        let scheduler = DispatchQueue.test
        let line = #line + 2
        let reports = capturedReports {
            _ = scheduler.createColdPublisher(marbles: "(a")
        }
        let expected = "Malformed marble diagram"
        #expect(reports.count == 1)
        #expect(reports.first?.message.hasPrefix(expected) == true, "\(reports)")
        #expect(reports.first?.line == line)
        #expect(reports.first?.fileID == #fileID)
        #expect(reports.first?.filePath == #filePath)
    }

    @Test func anExpectedFailureBlockAbsorbsAReportBeforeACaptureSeesIt() {
        let capture = ReportCapture()
        TestIssueReporter.$capture.withValue(capture) {
            XCTExpectFailure("an unimplemented scheduler is used") {
                DispatchQueue.unimplemented.schedule {}
            }
        }
        #expect(capture.all.isEmpty)
    }
}
