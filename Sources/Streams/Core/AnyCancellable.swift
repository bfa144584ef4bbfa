/// A type-erasing cancellable object that executes a provided closure when cancelled.
///
/// An `AnyCancellable` cancels what it wraps when it is deinitialized, so keeping it alive keeps the
/// subscription alive. Store it, typically with `store(in:)`, for as long as you want values.
///
/// ```swift
/// var cancellables = Set<AnyCancellable>()
/// subject.sink { print($0) }.store(in: &cancellables)
/// cancellables.removeAll()  // cancels the subscription
/// ```
///
/// Cancelling is thread-safe and happens at most once, whichever of ``cancel()`` and `deinit` comes
/// first.
public final class AnyCancellable: Cancellable, Hashable {
    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`: what to run on cancellation; `nil` once cancelled.
    @usableFromInline
    @exclusivity(unchecked)
    var action: (() -> Void)?

    /// Creates a cancellable object that runs the given closure on cancellation.
    ///
    /// - Parameter cancel: The closure to run when ``cancel()`` is called or the object is released.
    @inlinable
    public init(_ cancel: @escaping () -> Void) {
        action = cancel
    }

    /// Creates a cancellable object that cancels the given cancellable on cancellation.
    ///
    /// - Parameter canceller: The instance to cancel when ``cancel()`` is called or the object is
    ///   released.
    @inlinable
    public init<C: Cancellable>(_ canceller: C) {
        action = { canceller.cancel() }
    }

    deinit {
        guard let action else { return }
        // A marked point of a timeline tells a release from a call to `cancel()`; while no point
        // has a live subscription, this costs one load.
        if TimelineRecording.isActive {
            TimelineRecording.cancelling(for: .cancellableReleased, action)
        } else {
            action()
        }
    }

    /// Cancels the activity, once; later calls do nothing.
    @inlinable
    public func cancel() {
        let action = lock.withLock { () -> (() -> Void)? in
            var action: (() -> Void)? = nil
            swap(&action, &self.action)
            return action
        }
        action?()
    }

    /// Stores this instance in the specified collection.
    ///
    /// - Parameter collection: The collection in which to store this ``AnyCancellable``.
    @inlinable
    public final func store<C: RangeReplaceableCollection>(in collection: inout C)
    where C.Element == AnyCancellable {
        collection.append(self)
    }

    /// Stores this instance in the specified set.
    ///
    /// - Parameter set: The set in which to store this ``AnyCancellable``.
    @inlinable
    public final func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    /// Returns whether two values are the same instance.
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
        lhs === rhs
    }

    /// Hashes the instance's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
