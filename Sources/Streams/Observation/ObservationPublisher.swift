public import Foundation

/// A publisher of the value of an expression over `@Observable` models: the current value, then
/// each new value after anything the expression read has changed.
///
/// Swift's Observation module tracks each property an expression reads. This publisher evaluates
/// its expression with tracking on; when any property it read changes, it evaluates it again (which
/// tracks what this evaluation reads: a branch that reads other properties after a change is
/// followed), and publishes the result:
///
/// ```swift
/// @Observable final class Person {
///     var firstName = "Ada"
///     var lastName = "Lovelace"
/// }
///
/// let person = Person()
/// let scheduler = DispatchQueue.test
/// let cancellable = ObservationPublisher(scheduler: scheduler) {
///     person.firstName + " " + person.lastName
/// }
/// .sink { print($0) }
/// person.firstName = "Augusta"
/// person.lastName = "King"
/// scheduler.advance()
/// // Prints:
/// // Ada Lovelace
/// // Augusta King
/// ```
///
/// For one property of one model, ``Observation/Observable/publisher(for:options:scheduler:)`` makes
/// the same publisher and holds the model weakly.
///
/// ## Delivery on a scheduler
///
/// When something the expression read changes, the publisher schedules one read on its scheduler
/// and publishes what it reads then: every write made before the read runs — several writes made in
/// one piece of main-thread work, say — coalesces into one value, the latest. The initial value is read
/// and published when the subscriber subscribes, on its thread. Reads are made one at a time, so
/// values never go backwards.
///
/// Observation announces a change from inside the write, and when depends on the platform:
/// - Linux, Windows and Android (Swift's own Observation module): once the new value is stored. A
///   read on any scheduler sees it, `ImmediateScheduler` included, which reads and delivers inside
///   the write, on the writing thread; a value written from inside the subscriber is delivered after
///   the value being delivered. After the last write, the last value delivered is the one stored last.
/// - Apple platforms (whose SDK publishes only Observation's will-set announcement): before the new
///   value is stored. A read made at once sees the value from before the write, so use a scheduler
///   that runs the read later (a queue, a run loop, a test scheduler), never `ImmediateScheduler`.
///
/// > Important: The default scheduler is `DispatchQueue.main`, so values arrive while the main thread
/// > serves the main queue, which it does in an app, under `RunLoop.main.run()` or `dispatchMain()`,
/// > while top-level code `await`s, and while an `async` test awaits; not while the main thread is
/// > blocked. If a value has waited there for three seconds, the publisher says so once, on standard
/// > error, rather than letting the program wait silently. In tests, pass a test scheduler such as
/// > `DispatchQueue.test` from StreamsTesting and `advance()` it to deliver.
///
/// The expression runs on the scheduler (and, for the initial value, on the subscribing thread), so
/// a `@MainActor` model needs a scheduler on the main thread, such as the default.
///
/// On Apple platforms, write the models on the scheduler's thread (the main thread, with the default
/// scheduler): then the read always runs after the write is complete. A read running on another
/// thread at the very moment a write stores its value may read the value from before that write,
/// and the last write of a burst can go unseen until the next one. Elsewhere the announcement follows
/// the store, so models that are safe to write from several threads may be written from any.
///
/// ## Demand, completion and lifetime
///
/// The publisher never fails. It holds the latest value it read until the subscriber asks for one,
/// as `CurrentValueSubject` does: a subscriber without demand receives the then-current value when
/// it requests, not every value it missed. Cancelling stops the tracking: nothing is scheduled or
/// delivered after `cancel()` returns (a read already scheduled does nothing), and the subscription
/// lets go of the subscriber and of the expression, with what it captured.
///
/// The publisher finishes when nothing it read can change any more: when the models it read are
/// deallocated (which needs an expression that does not hold them, such as the one
/// ``Observation/Observable/publisher(for:options:scheduler:)`` makes) or when the expression read
/// no observable property. A value it holds is delivered before the completion.
///
/// Equal writes: the `@Observable` macro does not signal a write of a value equal (`==`, or `===`
/// for objects) to the one stored, so such a write publishes nothing.
public struct ObservationPublisher<Output>: Publisher {
    /// The kind of errors this publisher might publish: it cannot fail.
    public typealias Failure = Never

    /// What the publisher publishes: the current value, new values, or both.
    public let options: ObservationOptions

    /// Reads the value; `nil` once the source is gone.
    @usableFromInline
    let read: () -> Output?
    /// Schedules an action on the publisher's scheduler.
    @usableFromInline
    let schedule: (@escaping () -> Void) -> Void
    /// How subscriptions find an observation of the same property to share, for `publisher(for:)`.
    @usableFromInline
    let sharing: ObservationSharing?

    /// Creates a publisher of an expression's value, delivered on a scheduler.
    ///
    /// ```swift
    /// @Observable final class Person {
    ///     var firstName = "Ada"
    ///     var lastName = "Lovelace"
    /// }
    ///
    /// let person = Person()
    /// let scheduler = DispatchQueue.test
    /// let cancellable = ObservationPublisher(scheduler: scheduler) {
    ///     person.firstName + " " + person.lastName
    /// }
    /// .sink { print($0) }
    /// person.lastName = "King"
    /// scheduler.advance()
    /// // Prints:
    /// // Ada Lovelace
    /// // Ada King
    /// ```
    ///
    /// > Important: The default scheduler is `DispatchQueue.main`: new values arrive while the main
    /// > thread serves the main queue (see ``ObservationPublisher``). In tests, pass a test scheduler
    /// > such as `DispatchQueue.test` and `advance()` it.
    ///
    /// The expression holds whatever it captures for as long as a subscription lives; capture a
    /// model weakly, or use ``Observation/Observable/publisher(for:options:scheduler:)``, to let it
    /// go.
    ///
    /// - Parameters:
    ///   - options: Whether to publish the current value on subscription (``ObservationOptions/initial``),
    ///     new values after changes (``ObservationOptions/new``), or both, the default.
    ///   - scheduler: Where new values are read and published; the main queue by default, which the
    ///     main thread must serve for values to arrive (pass a test scheduler in tests). Changes made
    ///     before the read runs coalesce into one value.
    ///   - expression: The expression to evaluate; any property of an `@Observable` model it reads is
    ///     tracked.
    public init<S: Scheduler>(
        options: ObservationOptions = [.initial, .new], scheduler: S = DispatchQueue.main,
        _ expression: @escaping () -> Output
    ) {
        self.init(options: options, scheduler: scheduler, sharing: nil, reading: { .some(expression()) })
    }

    /// Creates a publisher of a value that may go away.
    ///
    /// - Parameters:
    ///   - sharing: How subscriptions find an observation of the same property to share, if they may.
    ///   - read: Reads the value; `nil` when its source is gone, which finishes the publisher.
    init<S: Scheduler>(
        options: ObservationOptions, scheduler: S, sharing: ObservationSharing?, reading read: @escaping () -> Output?
    ) {
        self.options = options
        self.read = read
        self.sharing = sharing
        schedule = StalledDeliveryWatch.schedule(on: scheduler)
    }

    /// Reads the current value (and tracks what it read) and gives the subscriber a subscription.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        ObservationSubscription(
            read: read, schedule: schedule, options: options, sharing: sharing, downstream: subscriber
        )
        .start()
    }
}
