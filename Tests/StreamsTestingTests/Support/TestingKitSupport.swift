import Dispatch
import Streams
import StreamsTesting

/// The error the testing-kit tests fail streams with.
struct KitError: Error, Equatable {
    var code = 0
}

/// The stride type of dispatch-queue time, for writing expected times.
typealias DispatchStride = DispatchQueue.SchedulerTimeType.Stride

extension TestScheduler {
    /// Runs `action` when the elapsed virtual time reaches `offset`.
    func at(_ offset: SchedulerTimeType.Stride, _ action: @escaping () -> Void) {
        schedule(after: startTime.advanced(by: offset), action)
    }
}
