#if !_runtime(_ObjC)
    import Dispatch
    import Foundation
    import Streams
    import StreamsTesting
    import Testing

    /// StreamsTesting's `XCTExpectFailure`, inside Swift Testing tests: reports it expects are not
    /// recorded; what it raises (a strict failure, a report it does not cover) reaches the test.
    @Suite struct XCTExpectFailureTests {
        struct Boom: Error {}

        @Test func reportsInsideTheBlockAreExpectedAndNotRecorded() {
            let scheduler = DispatchQueue.unimplemented
            XCTExpectFailure { _ = scheduler.now }
            XCTExpectFailure {
                scheduler.schedule {}
                scheduler.schedule {}
            }
        }

        @Test func returnsWhatTheBlockReturns() {
            let scheduler = RunLoop.unimplemented
            let value = XCTExpectFailure { () -> Int in
                _ = scheduler.minimumTolerance
                return 42
            }
            #expect(value == 42)
        }

        @Test func rethrowsWhatTheBlockThrows() {
            let scheduler = RunLoop.unimplemented
            #expect(throws: Boom.self) {
                try XCTExpectFailure {
                    _ = scheduler.now
                    throw Boom()
                }
            }
        }

        @Test func aStrictBlockWithoutAReportIsAFailure() {
            #expect(
                recordedIssues { XCTExpectFailure {} } == ["XCTExpectFailure: expected a failure, none was reported"])
            #expect(
                recordedIssues { XCTExpectFailure("the queue is used", strict: true) {} }
                    == ["XCTExpectFailure: expected a failure, none was reported (the queue is used)"])
        }

        @Test func aStrictBlockThatThrowsWithoutAReportIsAFailureToo() {
            var thrown: (any Error)?
            let messages = recordedIssues {
                do { try XCTExpectFailure { throw Boom() } } catch { thrown = error }
            }
            // Checked outside the known-issue block, which would take a failed expectation for a report.
            #expect(thrown is Boom)
            #expect(messages == ["XCTExpectFailure: expected a failure, none was reported"])
        }

        @Test func aNonStrictBlockMayReportNothing() {
            XCTExpectFailure(strict: false) {}
            XCTExpectFailure(strict: false) { _ = OperationQueue.unimplemented.now }
        }

        @Test func aDisabledBlockLetsReportsThroughAndNeverFailsItself() {
            let messages = recordedIssues {
                XCTExpectFailure(enabled: false) { _ = DispatchQueue.unimplemented("q").now }
            }
            #expect(messages == ["q - An unimplemented scheduler was asked the current time."])
            XCTExpectFailure(enabled: false) {}
        }

        @Test func theInnermostBlockCountsAReport() {
            // The inner block takes the report, so the outer one saw none and fails, strictly.
            let messages = recordedIssues {
                XCTExpectFailure("outer") {
                    XCTExpectFailure("inner") { _ = DispatchQueue.unimplemented.now }
                }
            }
            #expect(messages == ["XCTExpectFailure: expected a failure, none was reported (outer)"])
        }

        @Test func anInnerBlocksStrictFailureIsExpectedByTheOuterBlock() {
            XCTExpectFailure("outer") {
                XCTExpectFailure("inner") {}
            }
        }

        @Test func aReportAfterTheBlockReturnedIsRecorded() {
            let scheduler = DispatchQueue.unimplemented
            let messages = recordedIssues {
                XCTExpectFailure { _ = scheduler.now }
                scheduler.schedule {}
            }
            #expect(messages == ["DispatchQueue - An unimplemented scheduler scheduled an action to run immediately."])
        }

        @Test func aTaskThatOutlivesTheBlockReportsToTheTest() async {
            let (gate, open) = AsyncStream<Void>.makeStream()
            let messages = await recordedIssues {
                var late: Task<Void, Never>?
                XCTExpectFailure(strict: false) {
                    late = Task {
                        for await _ in gate { break }
                        _ = DispatchQueue.unimplemented("late").now
                    }
                }
                open.yield()
                open.finish()
                await late?.value
            }
            #expect(messages == ["late - An unimplemented scheduler was asked the current time."])
        }

        @Test func blocksInConcurrentTasksCountOnlyTheirOwnReports() async {
            // Half the tasks report inside their block, half do not: exactly the second half fail.
            let messages = await recordedIssues {
                await withTaskGroup(of: Void.self) { group in
                    for index in 0..<20 {
                        group.addTask {
                            XCTExpectFailure("task \(index)") {
                                if index.isMultiple(of: 2) { _ = DispatchQueue.unimplemented.now }
                            }
                        }
                    }
                }
            }
            let expected = stride(from: 1, to: 20, by: 2).map {
                "XCTExpectFailure: expected a failure, none was reported (task \($0))"
            }
            #expect(messages.sorted() == expected.sorted())
        }
    }
#endif
