import Dispatch
import Foundation
import Streams
import StreamsTesting
import XCTest

/// The XCTest side: inside an XCTest test case, StreamsTesting reports with `XCTFail`. These tests
/// catch the failures recorded while the code under test runs (by overriding `recordFailure`) to
/// check what was reported; their own assertions fail the test as usual.
final class UnimplementedSchedulerXCTests: XCTestCase {
    /// Guards `caught`. (Failures arrive from many threads at once; the standard `Mutex` on Linux hands
    /// a contended lock over through the kernel, where the thread sanitizer cannot see it.)
    private let lock = NSLock()
    /// The failures caught so far, or `nil` when failures are not being caught.
    private var caught: [String]?

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        let wasCaught = lock.withLock {
            caught?.append(description)
            return caught != nil
        }
        if !wasCaught {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    /// Runs `body` and returns the failures recorded meanwhile, from any thread, instead of failing.
    private func failures(during body: () -> Void) -> [String] {
        lock.withLock { caught = [] }
        body()
        return lock.withLock {
            defer { caught = nil }
            return caught ?? []
        }
    }

    func testEveryUseFailsTheTestCaseWithItsMessage() {
        let scheduler = RunLoop.unimplemented("mainRunLoop")
        var ran = 0
        let failures = failures {
            _ = scheduler.now
            _ = scheduler.minimumTolerance
            scheduler.schedule { ran += 1 }
            scheduler.schedule(after: .init(Date()), tolerance: .zero, options: nil) { ran += 1 }
            _ = scheduler.schedule(after: .init(Date()), interval: 1, tolerance: .zero, options: nil) { ran += 1 }
        }
        XCTAssertEqual(ran, 3)
        XCTAssertEqual(
            failures,
            [
                "failed - mainRunLoop - An unimplemented scheduler was asked the current time.",
                "failed - mainRunLoop - An unimplemented scheduler was asked its minimum tolerance.",
                "failed - mainRunLoop - An unimplemented scheduler scheduled an action to run immediately.",
                "failed - mainRunLoop - An unimplemented scheduler scheduled an action to run later.",
                "failed - mainRunLoop - An unimplemented scheduler scheduled an action to run on a timer.",
            ])
    }

    #if !_runtime(_ObjC)
        func testExpectedFailuresAreNotRecorded() {
            let scheduler = DispatchQueue.unimplemented
            let failures = failures {
                XCTExpectFailure { _ = scheduler.now }
                XCTExpectFailure {
                    let ran = expectation(description: "ran")
                    scheduler.schedule { ran.fulfill() }
                    wait(for: [ran], timeout: 0.1)
                }
            }
            XCTAssertEqual(failures, [])
        }

        func testAStrictBlockWithoutAReportFailsTheTestCase() {
            let failures = failures {
                XCTExpectFailure {}
                XCTExpectFailure("no scheduler here") {}
                XCTExpectFailure(strict: false) {}
            }
            XCTAssertEqual(
                failures,
                [
                    "failed - XCTExpectFailure: expected a failure, none was reported",
                    "failed - XCTExpectFailure: expected a failure, none was reported (no scheduler here)",
                ])
        }

        func testBlocksNest() {
            let failures = failures {
                XCTExpectFailure("outer") {
                    XCTExpectFailure("inner") { _ = OperationQueue.unimplemented.now }
                }
                XCTExpectFailure("outer") {
                    XCTExpectFailure("inner") {}
                }
            }
            XCTAssertEqual(failures, ["failed - XCTExpectFailure: expected a failure, none was reported (outer)"])
        }

        func testAReportOnAnotherThreadIsNotExpectedByThisThreadsBlock() {
            let failures = failures {
                XCTExpectFailure {
                    _ = DispatchQueue.unimplemented("here").now
                    let done = DispatchSemaphore(value: 0)
                    Thread {
                        _ = DispatchQueue.unimplemented("there").now
                        done.signal()
                    }.start()
                    done.wait()
                }
            }
            XCTAssertEqual(failures, ["failed - there - An unimplemented scheduler was asked the current time."])
        }

        func testBlocksOnManyThreadsAtOnceCountOnlyTheirOwnReports() {
            let failures = failures {
                DispatchQueue.concurrentPerform(iterations: 32) { index in
                    XCTExpectFailure("thread \(index)") {
                        if index.isMultiple(of: 2) {
                            DispatchQueue.unimplemented("thread \(index)").schedule {}
                        }
                    }
                }
            }
            let expected = stride(from: 1, to: 32, by: 2).map {
                "failed - XCTExpectFailure: expected a failure, none was reported (thread \($0))"
            }
            XCTAssertEqual(failures.sorted(), expected.sorted())
        }
    #endif
}
