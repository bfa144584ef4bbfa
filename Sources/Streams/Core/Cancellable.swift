/// A protocol indicating that an activity or action supports cancellation.
///
/// Calling ``cancel()`` frees up any allocated resources and stops side effects such as timers,
/// network access or disk I/O.
public protocol Cancellable {
    /// Cancels the activity.
    func cancel()
}

extension Cancellable {
    /// Stores this cancellable instance in the specified collection.
    ///
    /// ```swift
    /// var cancellables: [AnyCancellable] = []
    /// subject.sink { print($0) }.store(in: &cancellables)
    /// ```
    ///
    /// - Parameter collection: The collection in which to store this ``Cancellable``.
    @inlinable
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        AnyCancellable(self).store(in: &collection)
    }

    /// Stores this cancellable instance in the specified set.
    ///
    /// ```swift
    /// var cancellables = Set<AnyCancellable>()
    /// subject.sink { print($0) }.store(in: &cancellables)
    /// ```
    ///
    /// - Parameter set: The set in which to store this ``Cancellable``.
    @inlinable
    public func store(in set: inout Set<AnyCancellable>) {
        AnyCancellable(self).store(in: &set)
    }
}
