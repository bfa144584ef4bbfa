/// The will-change and did-change publishers of one observable object.
@usableFromInline
final class ObservationSignals: Sendable {
    @usableFromInline
    let willChange = ObservableObjectPublisher()

    @usableFromInline
    let didChange = ObservableObjectPublisher()

    @usableFromInline
    init() {}
}

/// Finds an object's change publishers by its identity, without inspecting the object.
///
/// Entries hold the object weakly, so a new object that reuses a dead one's address is not mistaken
/// for it; dead entries are swept as the table grows. An object gets signals when its
/// `objectWillChange` or `objectDidChange` is first read; `@Published` looks them up on write, and an
/// object nobody observes has none to find.
@usableFromInline
// @unchecked: `entries` and `sweepThreshold` are guarded by `lock`.
final class ObservationRegistry: @unchecked Sendable {

    /// One observed object.
    private struct Entry {
        weak var object: AnyObject?
        let signals: ObservationSignals
    }

    @usableFromInline
    static let shared = ObservationRegistry()

    private let lock = Lock()
    /// Guarded by `lock`.
    @exclusivity(unchecked)
    private var entries: [ObjectIdentifier: Entry] = [:]
    /// Guarded by `lock`.
    @exclusivity(unchecked)
    private var sweepThreshold = 64

    /// The object's signals, created if it has none yet.
    @usableFromInline
    func signals(for object: AnyObject) -> ObservationSignals {
        let key = ObjectIdentifier(object)
        let (signals, created) = lock.withLock { () -> (ObservationSignals, Bool) in
            if let entry = entries[key], entry.object === object { return (entry.signals, false) }
            let signals = ObservationSignals()
            entries[key] = Entry(object: object, signals: signals)
            if entries.count >= sweepThreshold {
                entries = entries.filter { $0.value.object != nil }
                sweepThreshold = Swift.max(64, entries.count * 2)
            }
            return (signals, true)
        }
        if created { attachObservedPublishers(of: object, to: signals) }
        return signals
    }

    /// The object's signals if somebody has read them, without creating any.
    @usableFromInline
    func existingSignals(for object: AnyObject) -> ObservationSignals? {
        let key = ObjectIdentifier(object)
        return lock.withLock {
            guard let entry = entries[key], entry.object === object else { return nil }
            return entry.signals
        }
    }

    /// Connects the object's `@ObservedPublisher` properties to its signals, once, when the signals are
    /// created: the only time Streams inspects an object.
    private func attachObservedPublishers(of object: AnyObject, to signals: ObservationSignals) {
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children {
                (child.value as? any ObservedPublisherOwnerLink)?.link(to: signals)
            }
            mirror = current.superclassMirror
        }
    }
}

/// A property wrapper that tells its owner's signals about changes it receives.
protocol ObservedPublisherOwnerLink: AnyObject {
    /// Remembers the owner's signals.
    func link(to signals: ObservationSignals)
}
