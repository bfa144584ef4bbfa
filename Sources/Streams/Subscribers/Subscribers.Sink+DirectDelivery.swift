/// How a publisher that delivers to many sinks calls each one without its lock: it keeps a copy of
/// the value closure the sink had when it subscribed (``valueHandlerForDelivery``) for as long as it
/// may call it, and calls it while the sink still has its closures, which is what ``receive(_:)``
/// would do. The sink's closures only ever change to none, when it completes or is cancelled.
extension Subscribers.Sink {
    /// `subscriber` as the ``Subscribers/Sink`` it is, or `nil` if it is another kind of subscriber.
    /// Read in place: converting it through `AnyObject` would go through a run-time conversion.
    @inlinable
    static func matching<S: Subscriber>(_ subscriber: S) -> Subscribers.Sink<Input, Failure>? {
        guard S.self == Subscribers.Sink<Input, Failure>.self else { return nil }
        return withUnsafePointer(to: subscriber) {
            $0.withMemoryRebound(to: Subscribers.Sink<Input, Failure>.self, capacity: 1) { $0.pointee }
        }
    }

    /// Calls `handler`, the copy of this sink's value closure that the caller keeps alive, with
    /// `value`, unless the sink has completed or been cancelled; no lock, no retain.
    @inlinable
    func deliverDirectly(_ value: Input, through handler: ValueHandler?) {
        if hasHandlers.value { handler?.call(value) }
    }
}
