import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct UnimplementedSchedulerTests {
    @Test func everyUseIsReportedWithTheSchedulersNameAndWhatWasAsked() {
        let scheduler = DispatchQueue.unimplemented
        let messages = recordedIssues {
            _ = scheduler.now
            _ = scheduler.minimumTolerance
            scheduler.schedule {}
            scheduler.schedule(after: scheduler.now, tolerance: .zero, options: nil) {}
            _ = scheduler.schedule(after: .init(.now()), interval: .seconds(1), tolerance: .zero, options: nil) {}
        }
        #expect(
            messages == [
                "DispatchQueue - An unimplemented scheduler was asked the current time.",
                "DispatchQueue - An unimplemented scheduler was asked its minimum tolerance.",
                "DispatchQueue - An unimplemented scheduler scheduled an action to run immediately.",
                "DispatchQueue - An unimplemented scheduler was asked the current time.",
                "DispatchQueue - An unimplemented scheduler scheduled an action to run later.",
                "DispatchQueue - An unimplemented scheduler scheduled an action to run on a timer.",
            ])
    }

    @Test func eachSchedulerIsNamedByItsPrefix() {
        let messages = recordedIssues {
            RunLoop.unimplemented.schedule {}
            OperationQueue.unimplemented.schedule {}
            DispatchQueue.unimplemented("mainQueue").schedule {}
            RunLoop.unimplemented("mainRunLoop").schedule {}
            OperationQueue.unimplemented("imageQueue").schedule {}
            UnimplementedSchedulerOf<DispatchQueue>(now: .init(.now())).schedule {}
        }
        #expect(
            messages == [
                "RunLoop - An unimplemented scheduler scheduled an action to run immediately.",
                "OperationQueue - An unimplemented scheduler scheduled an action to run immediately.",
                "mainQueue - An unimplemented scheduler scheduled an action to run immediately.",
                "mainRunLoop - An unimplemented scheduler scheduled an action to run immediately.",
                "imageQueue - An unimplemented scheduler scheduled an action to run immediately.",
                "An unimplemented scheduler scheduled an action to run immediately.",
            ])
        #expect(DispatchQueue.unimplemented.prefix == "DispatchQueue")
        #expect(RunLoop.unimplemented("loop").prefix == "loop")
    }

    @Test func erasedSchedulersReportUnderTheSameNames() {
        let messages = recordedIssues {
            AnySchedulerOf<DispatchQueue>.unimplemented.schedule {}
            AnySchedulerOf<RunLoop>.unimplemented.schedule {}
            AnySchedulerOf<OperationQueue>.unimplemented.schedule {}
            AnySchedulerOf<DispatchQueue>.unimplemented("a").schedule {}
            AnySchedulerOf<RunLoop>.unimplemented("b").schedule {}
            AnySchedulerOf<OperationQueue>.unimplemented("c").schedule {}
        }
        #expect(
            messages == [
                "DispatchQueue - An unimplemented scheduler scheduled an action to run immediately.",
                "RunLoop - An unimplemented scheduler scheduled an action to run immediately.",
                "OperationQueue - An unimplemented scheduler scheduled an action to run immediately.",
                "a - An unimplemented scheduler scheduled an action to run immediately.",
                "b - An unimplemented scheduler scheduled an action to run immediately.",
                "c - An unimplemented scheduler scheduled an action to run immediately.",
            ])
    }

    @Test func afterReportingEveryActionRunsAtOnceAndATimerRunsOnce() {
        let scheduler = OperationQueue.unimplemented
        var log: [String] = []
        _ = recordedIssues {
            scheduler.schedule { log.append("immediately") }
            log.append("returned")
            scheduler.schedule(after: .init(Date(timeIntervalSinceNow: 3600)), tolerance: .zero, options: nil) {
                log.append("later")
            }
            log.append("returned")
            let timer = scheduler.schedule(
                after: .init(Date(timeIntervalSinceNow: 3600)), interval: .seconds(1), tolerance: .zero, options: nil
            ) { log.append("timer") }
            log.append("returned")
            timer.cancel()
        }
        #expect(log == ["immediately", "returned", "later", "returned", "timer", "returned"])
    }

    @Test func nowIsTheFixedStartAndMinimumToleranceIsZero() {
        var dispatchNow: DispatchQueue.SchedulerTimeType?
        var runLoopNow: RunLoop.SchedulerTimeType?
        var operationQueueNow: OperationQueue.SchedulerTimeType?
        var customNow: RunLoop.SchedulerTimeType?
        var tolerances: [Bool] = []
        let messages = recordedIssues {
            dispatchNow = DispatchQueue.unimplemented.now
            runLoopNow = RunLoop.unimplemented.now
            operationQueueNow = OperationQueue.unimplemented.now
            customNow = UnimplementedSchedulerOf<RunLoop>(now: .init(Date(timeIntervalSince1970: 42))).now
            tolerances = [
                DispatchQueue.unimplemented.minimumTolerance == .zero, RunLoop.unimplemented.minimumTolerance == .zero,
            ]
        }
        // Checked outside the known-issue block, which would take a failed expectation for a report.
        #expect(dispatchNow == .init(DispatchTime(uptimeNanoseconds: 1)))
        #expect(runLoopNow == .init(Date(timeIntervalSince1970: 0)))
        #expect(operationQueueNow == .init(Date(timeIntervalSince1970: 0)))
        #expect(customNow == .init(Date(timeIntervalSince1970: 42)))
        #expect(tolerances == [true, true])
        #expect(
            messages == [
                "DispatchQueue - An unimplemented scheduler was asked the current time.",
                "RunLoop - An unimplemented scheduler was asked the current time.",
                "OperationQueue - An unimplemented scheduler was asked the current time.",
                "An unimplemented scheduler was asked the current time.",
                "DispatchQueue - An unimplemented scheduler was asked its minimum tolerance.",
                "RunLoop - An unimplemented scheduler was asked its minimum tolerance.",
            ])
    }

    @Test func anOperatorThatHopsThroughItIsReportedAndStillDelivers() {
        var received: [Int] = []
        var finished = false
        let messages = recordedIssues {
            _ = [1, 2].publisher
                .receive(on: DispatchQueue.unimplemented("mainQueue"))
                .sink(receiveCompletion: { _ in finished = true }, receiveValue: { received.append($0) })
        }
        #expect(!messages.isEmpty)
        #expect(
            messages.allSatisfy {
                $0 == "mainQueue - An unimplemented scheduler scheduled an action to run immediately."
            })
        #expect(received == [1, 2])
        #expect(finished)
    }

    @Test func codeThatNeverTouchesItPassesWithoutAReport() {
        let scheduler = AnySchedulerOf<DispatchQueue>.unimplemented
        var values: [Int] = []
        let cancellable = Just(1).map { $0 * 2 }.sink { values.append($0) }
        _ = scheduler  // handed over, never used
        cancellable.cancel()
        #expect(values == [2])
    }

    @Test func isSendableWhenItsTimeIsSendable() {
        let scheduler: any Sendable = DispatchQueue.unimplemented
        let erased: any Sendable = UnimplementedSchedulerOf<RunLoop>("loop", now: .init(Date()))
        #expect(scheduler is UnimplementedSchedulerOf<DispatchQueue>)
        #expect(erased is UnimplementedSchedulerOf<RunLoop>)
    }
}
