/// Declares that a type can transmit a sequence of values over time.
///
/// A publisher delivers elements to one or more ``Subscriber`` instances. The subscriber's `Input`
/// and `Failure` types must match the publisher's ``Output`` and ``Failure``. A publisher calls its
/// subscriber in this order: ``Subscriber/receive(subscription:)`` exactly once, then
/// ``Subscriber/receive(_:)`` zero or more times (never more often than the subscriber asked for), then
/// at most one ``Subscriber/receive(completion:)``.
///
/// ```swift
/// let cancellable = [1, 2, 3].publisher
///     .map { $0 * 10 }
///     .sink { print($0) }
/// // Prints:
/// // 10
/// // 20
/// // 30
/// ```
public protocol Publisher<Output, Failure> {
    /// The kind of values published by this publisher.
    associatedtype Output

    /// The kind of errors this publisher might publish; use `Never` if it cannot fail.
    associatedtype Failure: Error

    /// Attaches the specified subscriber to this publisher.
    ///
    /// Implementations of ``Publisher`` must implement this method. Callers use `subscribe(_:)`
    /// instead.
    ///
    /// - Parameter subscriber: The subscriber to attach to this publisher.
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
    /// Attaches the specified subscriber to this publisher.
    ///
    /// - Parameter subscriber: The subscriber to attach to this publisher; once attached, it can begin
    ///   to receive values.
    @inlinable @inline(__always)
    public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        // Always inlined, so that `receive(subscriber:)` is specialized for the subscriber where
        // it is called, as if called directly: it may set up the per-value path. While nothing
        // records a timeline (see `TimelineRecorder`), the check costs one load.
        if _slowPath(TimelineRecording.isActive) {
            subscribeWhileRecording(subscriber)
        } else {
            receive(subscriber: subscriber)
        }
    }

    /// Subscribes `subscriber` while something could be recording a timeline: through a tap of its
    /// own when every subscription is being recorded, directly otherwise. Specialized where it is
    /// called, and never inlined there, so that the common path stays as small as a direct call.
    @inlinable @inline(never)
    func subscribeWhileRecording<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        guard
            let plan = TimelineRecording.plan(
                forwarding: subscriber as? TimelineTap, isMarked: self is any TimelineMarkedPublisher,
                name: (self as? any TimelineNamedPublisher)?.timelineName, type: Self.self)
        else { return receive(subscriber: subscriber) }
        let tap = TimelineTapSubscription(plan: plan, downstream: subscriber)
        TimelineRecording.beginSubscribing(tap)
        receive(subscriber: tap)
        TimelineRecording.endSubscribing(tap)
    }
}

/// A namespace for types that serve as publishers.
///
/// Most operators return a type nested here, such as ``Publishers/Map``.
public enum Publishers {}
