#if !_runtime(_ObjC)
    /// Runs a block of test code in which StreamsTesting is expected to report a failure, counting
    /// those failures as expected instead of failing the test; for platforms whose XCTest lacks
    /// `XCTExpectFailure`.
    ///
    /// Apple's XCTest has `XCTExpectFailure`; the XCTest of Linux, Windows and Android does not. There,
    /// StreamsTesting declares this function with the same name and parameters, so that a test written
    /// against Apple's function compiles and runs unchanged, as long as the failures it expects are
    /// ones StreamsTesting reports — an ``UnimplementedScheduler`` being used, say:
    ///
    /// ```swift
    /// final class FavoritesTests: XCTestCase {
    ///     func testTheUnimplementedSchedulerComplains() {
    ///         let scheduler = DispatchQueue.unimplemented
    ///         XCTExpectFailure {
    ///             _ = scheduler.now  // reported, and expected: the test passes
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// It covers **only the failures StreamsTesting reports**. It cannot intercept `XCTAssert…`,
    /// `XCTFail` or Swift Testing's `#expect`: those fail the test as usual, inside the block or not.
    /// (In a Swift Testing test, Swift Testing's own `withKnownIssue` covers everything, StreamsTesting's
    /// reports included.)
    ///
    /// The block counts the failures reported by the code it runs on the calling thread or task, and by
    /// tasks created inside it while it runs. A failure reported on another thread is not its business
    /// and fails the test as usual. Blocks nest: a failure is counted by the innermost block around it.
    ///
    /// With `strict` (the default), a block during which StreamsTesting reported no failure is itself a
    /// failure, reported as "XCTExpectFailure: expected a failure, none was reported" (with the reason,
    /// if one is given) — to the enclosing block if there is one, otherwise to the running test:
    ///
    /// ```swift
    /// XCTExpectFailure("the scheduler is used", strict: false) {
    ///     model.favoriteButtonTapped()  // may or may not touch the scheduler: either way passes
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - failureReason: Why a failure is expected; it appears in the message of a strict failure.
    ///   - enabled: Whether to expect failures at all; `false` runs the block as if it were not wrapped.
    ///     `nil` means `true`.
    ///   - strict: Whether a block that reported no failure is a failure. `nil` means `true`.
    ///   - fileID: The file ID of the call, where a strict failure is reported.
    ///   - filePath: The file path of the call, where a strict failure is reported.
    ///   - line: The line of the call, where a strict failure is reported.
    ///   - column: The column of the call, where a strict failure is reported.
    ///   - failingBlock: The test code expected to make StreamsTesting report a failure.
    /// - Returns: What `failingBlock` returns.
    /// - Throws: What `failingBlock` throws.
    public func XCTExpectFailure<R>(
        _ failureReason: String? = nil,
        enabled: Bool? = nil,
        strict: Bool? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        failingBlock: () throws -> R
    ) rethrows -> R {
        guard enabled ?? true else { return try failingBlock() }
        let scope = ExpectedFailureScope(enclosing: TestIssueReporter.expectedFailures)
        func finish() {
            guard scope.close() == 0, strict ?? true else { return }
            let reason = failureReason.map { " (\($0))" } ?? ""
            TestIssueReporter.report(
                "XCTExpectFailure: expected a failure, none was reported\(reason)",
                fileID: fileID, filePath: filePath, line: line, column: column)
        }
        do {
            let result = try TestIssueReporter.$expectedFailures.withValue(scope) { try failingBlock() }
            finish()
            return result
        } catch {
            finish()
            throw error
        }
    }
#endif
