/// A publisher that publishes a change from an observable object: a `Void` value, never a failure.
///
/// Every ``ObservableObject`` that uses the default `objectWillChange` gets one, created the first
/// time it is read and kept for the object's lifetime. `@Published` properties send through it before
/// their value changes.
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
    let subject = PassthroughSubject<Void, Never>()

    /// Creates an object-will-change publisher.
    public init() {}

    /// Attaches a subscriber; it receives a value for each change sent after it subscribed.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    /// Sends the change to every subscriber.
    @inlinable
    public func send() {
        subject.send(())
    }
}

// The only stored property is a subject, which is thread-safe and Sendable for Void values.
extension ObservableObjectPublisher: Sendable {}
