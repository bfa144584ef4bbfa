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

    /// Guarded by `lock`: the closure to run on cancellation; `nil` once cancelled, or when the
    /// instance wraps a cancellable.
    @usableFromInline
    @exclusivity(unchecked)
    var closure: (() -> Void)?

    /// Guarded by `lock`: the cancellable to cancel, kept as it is rather than wrapped in a closure;
    /// `nil` once cancelled, or when the instance wraps a closure.
    @usableFromInline
    @exclusivity(unchecked)
    var cancellable: (any Cancellable)?

    /// Creates a cancellable object that runs the given closure on cancellation.
    ///
    /// - Parameter cancel: The closure to run when ``cancel()`` is called or the object is released.
    @inlinable
    public init(_ cancel: @escaping () -> Void) {
        closure = cancel
    }

    /// Creates a cancellable object that cancels the given cancellable on cancellation.
    ///
    /// - Parameter canceller: The instance to cancel when ``cancel()`` is called or the object is
    ///   released.
    @inlinable
    public init<C: Cancellable>(_ canceller: C) {
        cancellable = canceller
    }

    deinit {
        closure?()
        cancellable?.cancel()
    }

    /// Cancels the activity, once; later calls do nothing.
    @inlinable
    public func cancel() {
        let (closure, cancellable) = lock.withLock { () -> ((() -> Void)?, (any Cancellable)?) in
            var closure: (() -> Void)? = nil
            var cancellable: (any Cancellable)? = nil
            swap(&closure, &self.closure)
            swap(&cancellable, &self.cancellable)
            return (closure, cancellable)
        }
        closure?()
        cancellable?.cancel()
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
