public import Streams

extension Publishers {
    /// combine-schedulers' name for a timer publisher on any scheduler: Streams'
    /// ``Streams/SchedulerTimer``.
    ///
    /// Combine has no such type, so Streams keeps its timer outside the `Publishers` namespace. Code
    /// and tests written against combine-schedulers create timers as `Publishers.Timer`, though; with
    /// StreamsTesting imported they compile unchanged:
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// var ticks = 0
    /// let cancellable = Publishers.Timer(every: .seconds(1), scheduler: scheduler)
    ///     .autoconnect()
    ///     .sink { _ in ticks += 1 }
    /// scheduler.advance(by: .seconds(3))
    /// print(ticks)  // Prints "3"
    /// ```
    public typealias Timer<S: Scheduler> = SchedulerTimer<S>
}
