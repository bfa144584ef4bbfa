extension Subscribers {
    /// A simple subscriber that assigns received elements to a property indicated by a key path.
    ///
    /// It requests an unlimited number of values and keeps a strong reference to ``object`` until it
    /// completes or is cancelled.
    ///
    /// ```swift
    /// final class Model { var count = 0 }
    /// let model = Model()
    /// let cancellable = [1, 2, 3].publisher.assign(to: \.count, on: model)
    /// print(model.count)
    /// // Prints: 3
    /// ```
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    {
        /// The kind of errors this subscriber might receive: it cannot receive any.
        public typealias Failure = Never

        @usableFromInline
        let lock = Lock()

        /// Guarded by `lock`.
        @usableFromInline
        var status = SubscriptionStatus.awaitingSubscription

        /// Guarded by `lock`; `nil` once completed or cancelled.
        @usableFromInline
        var target: Root?

        /// The object that contains the property to assign; `nil` once completed or cancelled.
        public var object: Root? {
            lock.withLock { target }
        }

        /// The key path that indicates the property to assign.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// Creates a subscriber to assign the value of a property indicated by a key path.
        ///
        /// - Parameters:
        ///   - object: The object that contains the property.
        ///   - keyPath: A key path that indicates the property to assign.
        @inlinable
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            target = object
            self.keyPath = keyPath
        }

        /// Stores the subscription and requests an unlimited number of values; a second subscription is
        /// cancelled.
        @inlinable
        public func receive(subscription: any Subscription) {
            let accepted = lock.withLock {
                guard case .awaitingSubscription = status else { return false }
                status = .subscribed(subscription)
                return true
            }
            if accepted {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        /// Assigns the value to the property.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            // As in Combine, a value that arrives before the subscription (or after the end) is not
            // assigned.
            let object = lock.withLock { () -> Root? in
                guard case .subscribed = status else { return nil }
                return target
            }
            object?[keyPath: keyPath] = value
            return .none
        }

        /// Releases the object and the subscription. As in Combine, a completion that arrives before
        /// the subscription is ignored: the subscriber keeps its object and key path.
        @inlinable
        public func receive(completion: Subscribers.Completion<Never>) {
            let object = lock.withLock { () -> Root? in
                guard case .subscribed = status else { return nil }
                status = .terminal
                return target.take()
            }
            withExtendedLifetime(object) {}
        }

        /// Cancels the subscription and releases the object. As in Combine, before the subscription
        /// has arrived it does nothing: the subscriber keeps its object and key path.
        @inlinable
        public func cancel() {
            let (subscription, object) = lock.withLock { () -> ((any Subscription)?, Root?) in
                guard let subscription = status.subscription else { return (nil, nil) }
                status = .terminal
                return (subscription, target.take())
            }
            withExtendedLifetime(object) {
                subscription?.cancel()
            }
        }

        /// `Assign <root type>.` followed by the key path, the way Combine prints it.
        public var description: String {
            "Assign \(Root.self)."
        }

        /// A mirror with the `object`, `keyPath` and `upstreamSubscription` children.
        public var customMirror: Mirror {
            let (object, status) = lock.withLock { (target, self.status) }
            let children: [Mirror.Child] = [
                ("object", object as Any),
                ("keyPath", keyPath),
                ("status", status),
            ]
            return Mirror(self, children: children)
        }

        /// The same as ``description``.
        public var playgroundDescription: Any { description }
    }
}

extension Publisher where Failure == Never {
    /// Assigns each element from a publisher to a property on an object.
    ///
    /// The returned ``AnyCancellable`` keeps a strong reference to `object` until the stream ends or the
    /// cancellable is cancelled, so assigning to a property of the object that stores the cancellable
    /// forms a cycle; use `assign(to:)` with a `@Published` property in that case.
    ///
    /// - Parameters:
    ///   - keyPath: A key path that indicates the property to assign.
    ///   - object: The object that contains the property.
    /// - Returns: An ``AnyCancellable`` instance; call ``AnyCancellable/cancel()`` to stop assignment.
    @inlinable
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(subscriber)
        return AnyCancellable(subscriber)
    }
}
