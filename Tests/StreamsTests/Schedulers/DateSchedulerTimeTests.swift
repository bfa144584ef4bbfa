import Foundation
import Streams
import Testing

/// A capability a client might give to each scheduler's time type, one conformance per type. It
/// compiles only if `RunLoop.SchedulerTimeType` and `OperationQueue.SchedulerTimeType` are types of
/// their own, as in Combine, rather than two specializations of one generic type.
private protocol NamedSchedulerTime {
    static var schedulerName: String { get }
}

extension RunLoop.SchedulerTimeType: NamedSchedulerTime {
    static var schedulerName: String { "run loop" }
}

extension OperationQueue.SchedulerTimeType: NamedSchedulerTime {
    static var schedulerName: String { "operation queue" }
}

extension RunLoop.SchedulerTimeType.Stride: NamedSchedulerTime {
    static var schedulerName: String { "run loop stride" }
}

extension OperationQueue.SchedulerTimeType.Stride: NamedSchedulerTime {
    static var schedulerName: String { "operation queue stride" }
}

private func schedulerName<Time: NamedSchedulerTime>(of _: Time) -> String {
    Time.schedulerName
}

/// Tests of the two `Date`-based scheduler time types, which share one implementation.
@Suite struct DateSchedulerTimeTests {
    @Test func runLoopAndOperationQueueTimesAreDistinctTypes() {
        #expect(
            ObjectIdentifier(RunLoop.SchedulerTimeType.self) != ObjectIdentifier(OperationQueue.SchedulerTimeType.self))
        #expect(
            ObjectIdentifier(RunLoop.SchedulerTimeType.Stride.self)
                != ObjectIdentifier(OperationQueue.SchedulerTimeType.Stride.self))
        #expect(schedulerName(of: RunLoop.main.now) == "run loop")
        #expect(schedulerName(of: OperationQueue.main.now) == "operation queue")
        #expect(schedulerName(of: RunLoop.main.minimumTolerance) == "run loop stride")
        #expect(schedulerName(of: OperationQueue.main.minimumTolerance) == "operation queue stride")
    }

    @Test func theTypesHaveCombinesNames() {
        #expect(String(describing: RunLoop.SchedulerTimeType.self) == "SchedulerTimeType")
        #expect(String(describing: OperationQueue.SchedulerTimeType.self) == "SchedulerTimeType")
        #expect(String(describing: RunLoop.SchedulerTimeType.Stride.self) == "Stride")
        #expect(String(reflecting: RunLoop.SchedulerTimeType.Stride.self).hasSuffix("RunLoop.SchedulerTimeType.Stride"))
        #expect(
            String(reflecting: OperationQueue.SchedulerTimeType.Stride.self)
                .hasSuffix("OperationQueue.SchedulerTimeType.Stride"))
    }

    @Test func bothShareTheSameArithmetic() throws {
        let date = Date(timeIntervalSinceReferenceDate: 40)
        let runLoopTime = RunLoop.SchedulerTimeType(date).advanced(by: .milliseconds(2_500))
        let queueTime = OperationQueue.SchedulerTimeType(date).advanced(by: .milliseconds(2_500))
        #expect(runLoopTime.date == queueTime.date)
        #expect(RunLoop.SchedulerTimeType(date).distance(to: runLoopTime).timeInterval == 2.5)
        #expect(OperationQueue.SchedulerTimeType(date).distance(to: queueTime).timeInterval == 2.5)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode([runLoopTime]) == encoder.encode([queueTime]))
        #expect(
            try encoder.encode([RunLoop.SchedulerTimeType.Stride.seconds(1.25)])
                == encoder.encode([OperationQueue.SchedulerTimeType.Stride.seconds(1.25)]))
    }
}
