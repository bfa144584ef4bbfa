/// What a timer publisher (``Timer/TimerPublisher``, ``SchedulerTimer``) asks of each subscription
/// it holds: each subscription keeps its own subscriber's demand.
@usableFromInline
protocol TimerTickReceiver<Tick>: AnyObject {
    /// What the timer sends at each firing.
    associatedtype Tick

    /// Delivers a tick if the subscriber has demand for it; a tick without demand is dropped.
    func send(_ tick: Tick)

    /// Lets go of the subscriber, as a cancelled connection does; nothing more is delivered.
    func detach()
}
