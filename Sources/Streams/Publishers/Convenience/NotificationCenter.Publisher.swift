public import Foundation

extension NotificationCenter {
    /// Returns a publisher that emits events when broadcasting notifications.
    ///
    /// ```swift
    /// let name = Notification.Name("Refresh")
    /// let cancellable = NotificationCenter.default.publisher(for: name)
    ///     .sink { print("received", $0.name.rawValue) }
    /// NotificationCenter.default.post(name: name, object: nil)
    /// // Prints "received Refresh"
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name of the notification to publish.
    ///   - object: The object posting the named notification. If `nil`, the publisher emits elements
    ///     for any object producing a notification with the given name.
    /// - Returns: A publisher that emits events when broadcasting notifications.
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        Publisher(center: self, name: name, object: object)
    }

    /// A publisher that emits elements when broadcasting notifications.
    ///
    /// Each subscriber adds an observer to ``center`` for ``name`` and ``object`` when it subscribes,
    /// and the subscription removes that observer when cancelled. The publisher never completes.
    ///
    /// As in Combine, a notification posted while the subscriber has no demand is dropped, not kept
    /// for later. Notifications are delivered on the thread that posts them; posts from several
    /// threads reach the subscriber one at a time, and a notification posted from inside the
    /// subscriber's `receive(_:)` is delivered at once, nested in that call, if there is demand for it.
    ///
    /// ```swift
    /// let center = NotificationCenter()
    /// let name = Notification.Name("Tick")
    /// let cancellable = center.publisher(for: name)
    ///     .map { $0.userInfo?["count"] as? Int ?? 0 }
    ///     .sink { print($0) }
    /// center.post(name: name, object: nil, userInfo: ["count": 1])
    /// center.post(name: name, object: nil, userInfo: ["count": 2])
    /// // Prints:
    /// // 1
    /// // 2
    /// ```
    public struct Publisher: Streams.Publisher {
        /// The kind of values published by this publisher: the posted notifications.
        public typealias Output = Notification

        /// The kind of errors this publisher might publish: none.
        public typealias Failure = Never

        /// The notification center this publisher uses as a source.
        public let center: NotificationCenter

        /// The name of notifications published by this publisher.
        public let name: Notification.Name

        /// The object posting the named notification, or `nil` for notifications from any object.
        public let object: AnyObject?

        /// Creates a publisher that emits events when broadcasting notifications.
        ///
        /// - Parameters:
        ///   - center: The notification center to publish notifications for.
        ///   - name: The name of the notification to publish.
        ///   - object: The object posting the named notification. If `nil`, the publisher emits
        ///     elements for any object producing a notification with the given name.
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        /// Adds an observer to ``center`` and gives the subscriber a subscription that controls it.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            let subscription = NotificationSubscription(
                center: center, name: name, object: object, downstream: subscriber)
            subscriber.receive(subscription: subscription)
        }
    }
}

extension NotificationCenter.Publisher: Equatable {
    /// Returns whether two publishers observe the same center, name and object (compared by identity).
    public static func == (lhs: NotificationCenter.Publisher, rhs: NotificationCenter.Publisher) -> Bool {
        lhs.center == rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
    }
}

/// The subscription of a ``NotificationCenter/Publisher``: an observer in the center, with demand.
///
/// The observer block holds the subscription weakly, so a subscription that nobody holds any more
/// receives nothing (the center keeps only an empty block, as in Combine). Deliveries are serialized by
/// a recursive lock, which lets a notification posted from inside the subscriber go down nested, as in
/// Combine, while posts from other threads wait their turn.
// @unchecked Sendable: the variables are guarded by `lock`; `downstream` is only called with
// `deliveryLock` held.
private final class NotificationSubscription<Downstream: Subscriber>: Subscription, NotificationReceiver,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable  // see above
where Downstream.Input == Notification, Downstream.Failure == Never {
    private let lock = Lock()
    private let deliveryLock = NSRecursiveLock()
    private let name: Notification.Name
    /// Guarded by `lock`; `nil` once cancelled, like `center`.
    private var downstream: Downstream?
    /// Guarded by `lock`.
    private var demand = Subscribers.Demand.none
    /// Guarded by `lock`.
    private var center: NotificationCenter?
    /// Guarded by `lock`.
    private var object: AnyObject?
    /// Guarded by `lock`.
    private var observer: (any NSObjectProtocol)?

    init(center: NotificationCenter, name: Notification.Name, object: AnyObject?, downstream: Downstream) {
        self.center = center
        self.name = name
        self.object = object
        self.downstream = downstream
        // The block captures the subscription as a non-generic existential: it must not capture `Downstream`.
        let observer = center.addObserver(forName: name, object: object, queue: nil) {
            [weak receiver = self as any NotificationReceiver] notification in
            receiver?.deliver(notification)
        }
        lock.withLock { self.observer = observer }
    }

    func deliver(_ notification: Notification) {
        deliveryLock.lock()
        defer { deliveryLock.unlock() }
        let target = lock.withLock { () -> Downstream? in
            guard demand > 0 else { return nil }
            demand -= 1
            return self.downstream
        }
        guard let target else { return }
        let additional = target.receive(notification)
        if additional > 0 {
            lock.withLock {
                if center != nil { demand += additional }
            }
        }
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock {
            if center != nil { self.demand += demand }
        }
    }

    func cancel() {
        let (center, observer, downstream) = lock.withLock {
            () -> (NotificationCenter?, (any NSObjectProtocol)?, Downstream?) in
            object = nil
            demand = .none
            return (self.center.take(), self.observer.take(), self.downstream.take())
        }
        if let center, let observer {
            center.removeObserver(observer)
        }
        // Released outside the lock: its deinitialization may call back in.
        _ = downstream
    }

    var description: String { "NotificationCenter Observer" }

    var customMirror: Mirror {
        let (center, object, demand) = lock.withLock { (self.center, self.object, self.demand) }
        let children: [Mirror.Child] = [
            ("center", center as Any), ("name", name), ("object", object as Any), ("demand", demand),
        ]
        return Mirror(self, children: children)
    }

    var playgroundDescription: Any { description }
}

/// What the observer block of a ``NotificationCenter/Publisher`` subscription calls.
private protocol NotificationReceiver: AnyObject, Sendable {
    /// Sends the notification downstream if the subscriber has demand for it.
    func deliver(_ notification: Notification)
}
