public import Streams

extension Publishers {
    /// combine-schedulers' name for ``Streams/SchedulerTimer``, a timer publisher that runs on any
    /// scheduler, so that tests written with combine-schedulers compile with their imports changed.
    ///
    /// Combine has no `Publishers.Timer`, so `Streams` itself keeps its namespace as Combine's and
    /// calls the type `SchedulerTimer`; StreamsTesting, which replaces combine-schedulers, declares
    /// that library's spelling:
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// var ticks = 0
    /// let cancellable = Publishers.Timer(every: .seconds(1), scheduler: scheduler)
    ///     .autoconnect()
    ///     .sink { _ in ticks += 1 }
    /// scheduler.advance(by: .seconds(3))
    /// #expect(ticks == 3)
    /// ```
    public typealias Timer<Scheduler: Streams.Scheduler> = SchedulerTimer<Scheduler>
}
