/// A publisher that never publishes any values, and optionally finishes immediately.
///
/// With `completeImmediately` false it never completes either, which is useful as a placeholder or
/// with operators that wait for completion.
///
/// ```swift
/// let cancellable = Empty<Int, Never>().sink(
///     receiveCompletion: { print($0) }, receiveValue: { print($0) })
/// // Prints: finished
/// ```
public struct Empty<Output, Failure: Error>: Publisher, Equatable, Sendable {
    /// A Boolean value that indicates whether the publisher immediately sends a completion.
    public let completeImmediately: Bool

    /// Creates an empty publisher.
    ///
    /// - Parameter completeImmediately: A Boolean value that indicates whether the publisher should
    ///   immediately finish.
    @inlinable
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Creates an empty publisher with the given completion behaviour and output and failure types.
    ///
    /// - Parameters:
    ///   - completeImmediately: A Boolean value that indicates whether the publisher should
    ///     immediately finish.
    ///   - outputType: The output type exposed by this publisher.
    ///   - failureType: The failure type exposed by this publisher.
    @inlinable
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.completeImmediately = completeImmediately
    }

    /// Gives the subscriber the empty subscription and, if it completes immediately, `.finished`.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately {
            subscriber.receive(completion: .finished)
        }
    }

    /// Returns whether two empty publishers complete the same way.
    public static func == (lhs: Empty, rhs: Empty) -> Bool {
        lhs.completeImmediately == rhs.completeImmediately
    }
}
