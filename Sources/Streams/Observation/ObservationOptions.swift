/// What an ``ObservationPublisher`` publishes: the current value, new values, or both.
///
/// ```swift
/// @Observable final class Counter {
///     var count = 0
/// }
///
/// let counter = Counter()
/// let scheduler = DispatchQueue.test
/// let cancellable = counter.publisher(for: \.count, options: .new, scheduler: scheduler)
///     .sink { print($0) }
/// counter.count = 1
/// scheduler.advance()
/// // Prints: 1
/// ```
public struct ObservationOptions: OptionSet, Hashable, Sendable {
    /// The raw bits of the options.
    public let rawValue: UInt8

    /// Creates options from their raw bits.
    ///
    /// - Parameter rawValue: The raw bits: `1` for ``initial``, `2` for ``new``.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Publish the current value when the subscriber subscribes.
    ///
    /// ```swift
    /// @Observable final class Counter {
    ///     var count = 3
    /// }
    ///
    /// let cancellable = Counter().publisher(for: \.count, options: .initial).sink { print($0) }
    /// // Prints: 3
    /// ```
    ///
    /// Without ``new``, the publisher finishes after this value.
    public static let initial = ObservationOptions(rawValue: 1 << 0)

    /// Publish each new value after a change.
    ///
    /// ```swift
    /// @Observable final class Counter {
    ///     var count = 0
    /// }
    ///
    /// let counter = Counter()
    /// let scheduler = DispatchQueue.test
    /// let cancellable = counter.publisher(for: \.count, options: .new, scheduler: scheduler)
    ///     .sink { print($0) }
    /// counter.count = 1
    /// scheduler.advance()
    /// // Prints: 1
    /// ```
    public static let new = ObservationOptions(rawValue: 1 << 1)
}
