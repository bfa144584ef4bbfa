extension Scheduler {
    /// Suspends the current task until the scheduler's clock has moved forward by `duration`.
    ///
    /// Use it in `async` code that should wait on an injected scheduler rather than on the wall
    /// clock: in production the scheduler is a dispatch queue or a run loop, and the task wakes up
    /// after real time has passed; in a test it is a ``StreamsTesting/TestScheduler`` and the task wakes up exactly
    /// when the test advances virtual time to the deadline, and not before.
    ///
    /// ```swift
    /// func refreshForever(every interval: DispatchQueue.SchedulerTimeType.Stride,
    ///                     on scheduler: some Scheduler<DispatchQueue.SchedulerTimeType>) async throws {
    ///     while true {
    ///         try await scheduler.sleep(for: interval)
    ///         print("refresh")
    ///     }
    /// }
    /// ```
    ///
    /// The scheduler is not blocked while the task waits: the wake-up is an action scheduled on it.
    /// If the task is cancelled before or while it waits, the function throws `CancellationError`
    /// and cancels the scheduled wake-up, so nothing is left on the scheduler and the task is
    /// resumed only once. The function runs on the caller's actor, so the wake-up is on the
    /// scheduler by the time the caller suspends.
    ///
    /// - Parameters:
    ///   - duration: How far the scheduler's clock must move before the task resumes.
    ///   - tolerance: The allowed timing variance of the wake-up. Defaults to `zero`.
    ///   - options: Scheduler options for the wake-up. Defaults to `nil`.
    /// - Throws: `CancellationError` if the task is cancelled.
    nonisolated(nonsending)
        public func sleep(
            for duration: SchedulerTimeType.Stride,
            tolerance: SchedulerTimeType.Stride = .zero,
            options: SchedulerOptions? = nil
        ) async throws
    {
        try Task.checkCancellation()
        // The wake-up is scheduled here, on the caller's actor, before the task first suspends: a
        // test that advances a test scheduler after letting this task run finds it there.
        // A repeating action, unlike a one-off one, can be cancelled: a cancelled wait takes its
        // wake-up off the scheduler instead of leaving it there until its date.
        let wakeUp = ScheduledWakeUp()
        let interval = Swift.max(duration, .zero)
        wakeUp.hold(
            schedule(after: now.advanced(by: interval), interval: interval, tolerance: tolerance, options: options) {
                wakeUp.finish(throwing: nil)
            })
        try await wakeUp.wait()
        try Task.checkCancellation()
    }

    /// Suspends the current task until the scheduler's clock reaches `deadline`.
    ///
    /// It waits for the distance from ``Scheduler/now`` to `deadline`, as
    /// ``sleep(for:tolerance:options:)`` does; a deadline already passed wakes the task at the
    /// scheduler's next opportunity.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.main
    /// try await scheduler.sleep(until: scheduler.now.advanced(by: .seconds(1)))
    /// print("a second later")
    /// ```
    ///
    /// - Parameters:
    ///   - deadline: The instant of the scheduler's clock to wait for.
    ///   - tolerance: The allowed timing variance of the wake-up. Defaults to `zero`.
    ///   - options: Scheduler options for the wake-up. Defaults to `nil`.
    /// - Throws: `CancellationError` if the task is cancelled.
    nonisolated(nonsending)
        public func sleep(
            until deadline: SchedulerTimeType,
            tolerance: SchedulerTimeType.Stride = .zero,
            options: SchedulerOptions? = nil
        ) async throws
    {
        try await sleep(for: now.distance(to: deadline), tolerance: tolerance, options: options)
    }

    /// Returns a stream that yields the scheduler's current time every `interval`.
    ///
    /// The first value comes one `interval` from now. The repetition is scheduled when the stream is
    /// made and is cancelled when the stream ends: when its consumer stops iterating (a `break`,
    /// `prefix(_:)`, or the consuming task being cancelled) and drops it.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.main
    /// for await instant in scheduler.timer(interval: .seconds(1)).prefix(3) {
    ///     print("tick at", instant)
    /// }
    /// // Prints three ticks, a second apart.
    /// ```
    ///
    /// The scheduler's time type must be `Sendable`, as the time types of all of Streams' schedulers
    /// are: each value is handed from the scheduler's context to the task that consumes the stream.
    ///
    /// - Parameters:
    ///   - interval: The time between two values, and before the first.
    ///   - tolerance: The allowed timing variance of each tick. Defaults to `zero`.
    ///   - options: Scheduler options for the repetition. Defaults to `nil`.
    /// - Returns: A stream of the scheduler's ``Scheduler/now`` at each tick.
    public func timer(
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride = .zero,
        options: SchedulerOptions? = nil
    ) -> AsyncStream<SchedulerTimeType> where SchedulerTimeType: Sendable {
        AsyncStream { continuation in
            let repetition = schedule(
                after: now.advanced(by: interval), interval: interval, tolerance: tolerance, options: options
            ) {
                continuation.yield(now)
            }
            let stopper = CancelOnce(repetition)
            continuation.onTermination = { _ in stopper.cancel() }
        }
    }

    /// Returns how far the scheduler's clock moved while `work` ran.
    ///
    /// On a test scheduler the clock moves only when advanced, so this measures the virtual time the
    /// work advanced by:
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.main
    /// let elapsed = scheduler.measure {
    ///     _ = (1...1_000).reduce(0, +)
    /// }
    /// print(elapsed.timeInterval)
    /// ```
    ///
    /// - Parameter work: The closure to run.
    /// - Returns: The distance from ``Scheduler/now`` before `work` to ``Scheduler/now`` after it.
    public func measure(_ work: () throws -> Void) rethrows -> SchedulerTimeType.Stride {
        let start = now
        try work()
        return start.distance(to: now)
    }
}
