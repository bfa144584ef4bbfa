/// A publisher that awaits subscription before running the supplied closure to create a publisher for
/// the new subscriber.
///
/// Each subscriber gets a publisher of its own, made at the moment it subscribes. Wrapping a ``Future``
/// in a `Deferred` postpones the future's work until someone subscribes, and repeats it for every
/// subscriber.
///
/// ```swift
/// var attempts = 0
/// let deferred = Deferred { () -> Just<Int> in
///     attempts += 1
///     return Just(attempts)
/// }
/// print(attempts)
/// let first = deferred.sink { print("first got \($0)") }
/// let second = deferred.sink { print("second got \($0)") }
/// // Prints:
/// // 0
/// // first got 1
/// // second got 2
/// ```
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    /// The kind of values published by this publisher: those of the publisher it creates.
    public typealias Output = DeferredPublisher.Output

    /// The kind of errors this publisher might publish: those of the publisher it creates.
    public typealias Failure = DeferredPublisher.Failure

    /// The closure to execute when this deferred publisher receives a subscription.
    ///
    /// The publisher it returns receives the incoming subscriber at once.
    public let createPublisher: () -> DeferredPublisher

    /// Creates a deferred publisher.
    ///
    /// - Parameter createPublisher: The closure to execute when a subscriber subscribes; it returns
    ///   the publisher that serves that subscriber.
    @inlinable
    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    /// Creates a new publisher with ``createPublisher`` and attaches the subscriber to it.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
        createPublisher().subscribe(subscriber)
    }
}
