/// A publisher that publishes a change from an observable object: a `Void` value, never a failure.
///
/// Every ``ObservableObject`` that uses the default `objectWillChange` gets one, created the first
/// time it is read and kept for the object's lifetime. `@Published` properties send through it before
/// their value changes.
///
/// Every subscriber receives every change sent after it subscribed, whatever demand it has
/// requested: a change is a signal to look again, not a value to be paced.
///
/// ```swift
/// final class Counter: ObservableObject {
///     @Published var count = 0
/// }
/// let counter = Counter()
/// let cancellable = counter.objectWillChange.sink { print("will change from", counter.count) }
/// counter.count = 1
/// // Prints: will change from 0
/// ```
public final class ObservableObjectPublisher: Publisher {
    /// The kind of values published by this publisher: a change happened, nothing more.
    public typealias Output = Void

    /// The kind of errors this publisher might publish: it cannot fail.
    public typealias Failure = Never

    @usableFromInline
    let broadcaster = SubjectBroadcaster<Void, Never>(kind: .observableObject)

    /// Creates an object-will-change publisher.
    public init() {}

    /// Attaches a subscriber; it receives a value for each change sent after it subscribed, whether or
    /// not it has demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        broadcaster.attach(subscriber)
    }

    /// Sends the change to every subscriber.
    @inlinable
    public func send() {
        broadcaster.send(())
    }
}

// The only stored property is a broadcaster, which guards its state with its lock.
extension ObservableObjectPublisher: @unchecked Sendable {}
