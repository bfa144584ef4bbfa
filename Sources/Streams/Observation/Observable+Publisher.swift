public import Foundation
public import Observation

extension Observable where Self: AnyObject {
    /// Returns a publisher of a property of this `@Observable` model: its current value, then each
    /// new value after it changes.
    ///
    /// ```swift
    /// @Observable final class Document {
    ///     var title = "Untitled"
    /// }
    ///
    /// let document = Document()
    /// let scheduler = DispatchQueue.test
    /// let cancellable = document.publisher(for: \.title, scheduler: scheduler)
    ///     .sink { print($0) }
    /// document.title = "Draft"
    /// document.title = "Notes"
    /// scheduler.advance()
    /// // Prints:
    /// // Untitled
    /// // Notes
    /// ```
    ///
    /// The key path may go through other `@Observable` models (`\.settings.theme` follows a change
    /// of `settings` and of its `theme`) and through computed properties (which publish when what
    /// they read changes). Values are read and published on `scheduler`, after the write: the
    /// writes made before the read runs coalesce into one value (see ``ObservationPublisher``).
    /// Subscriptions to the same property of the same model on the same scheduler (an object, such as
    /// a queue, a run loop or a test scheduler) share that read: a change costs one read, whatever the
    /// number of subscribers, and each receives the value under its own demand.
    ///
    /// > Important: The default scheduler is `DispatchQueue.main`: values arrive while the main
    /// > thread serves the main queue — in an app, under `RunLoop.main.run()` or `dispatchMain()`,
    /// > while top-level code or an `async` test awaits — and not while it is blocked (the publisher
    /// > then says so once, on standard error). In tests, pass a test scheduler such as
    /// > `DispatchQueue.test` and `advance()` it.
    ///
    /// The publisher holds the model weakly, so a model may keep the cancellable of its own
    /// publisher without a reference cycle. When the model is deallocated, the publisher finishes
    /// (after delivering a value it holds).
    ///
    /// - Parameters:
    ///   - keyPath: The property to publish.
    ///   - options: Whether to publish the current value on subscription (``ObservationOptions/initial``),
    ///     new values after changes (``ObservationOptions/new``), or both, the default.
    ///   - scheduler: Where new values are read and published; the main queue by default, which the
    ///     main thread must serve for values to arrive. Pass a test scheduler in tests.
    /// - Returns: A publisher of the property's values; it never fails.
    public func publisher<Value, S: Scheduler>(
        for keyPath: KeyPath<Self, Value>, options: ObservationOptions = [.initial, .new],
        scheduler: S = DispatchQueue.main
    ) -> ObservationPublisher<Value> {
        // Subscriptions to the same property on the same scheduler share the reading after each
        // change: schedulers that are objects by identity, the immediate scheduler by its type (every
        // instance runs actions the same way); other schedulers that are not objects have no
        // identity to share by.
        let schedulerIdentity: ObjectIdentifier? =
            if type(of: scheduler) is AnyClass {
                ObjectIdentifier(scheduler as AnyObject)
            } else if scheduler is ImmediateScheduler {
                ObjectIdentifier(ImmediateScheduler.self)
            } else {
                nil
            }
        let sharing = schedulerIdentity.map {
            ObservationSharing(
                key: ObservationSharingKey(model: ObjectIdentifier(self), keyPath: keyPath, scheduler: $0),
                model: self)
        }
        return ObservationPublisher(options: options, scheduler: scheduler, sharing: sharing) {
            [weak self] () -> Value? in
            guard let self else { return nil }
            return .some(self[keyPath: keyPath])
        }
    }
}
