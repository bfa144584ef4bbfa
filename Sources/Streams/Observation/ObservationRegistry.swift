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
/// `objectWillChange` or `objectDidChange` is first read, and its `@Published` and
/// `@ObservedPublisher` properties are told of them then, once: writing a property of an object
/// never looks the object up, so writes to unrelated objects share no lock. The one exception is an
/// object with a custom mirror, which may hide its properties from that one look: once such an
/// object has signals, a `@Published` property that was told of none looks its object up on write.
///
/// The table is split into stripes by the object's identity (``LockStripes``), so reading
/// `objectWillChange` of unrelated objects on different threads rarely meets on a lock.
@usableFromInline
final class ObservationRegistry: Sendable {

    /// One observed object.
    private struct Entry {
        weak var object: AnyObject?
        let signals: ObservationSignals
    }

    /// One stripe of the table.
    private struct Table {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// The size at which dead entries are swept next.
        var sweepThreshold = 16
    }

    @usableFromInline
    static let shared = ObservationRegistry()

    /// Set once signals are made for an object with a custom mirror, whose properties may not have
    /// been told of them; until then a property told of no signals knows its object has none.
    let mayHaveUntoldProperties = AtomicFlag()

    private let tables = LockStripes(initial: Table())

    /// The object's signals, created if it has none yet.
    ///
    /// Created signals are handed to the object's properties before any caller gets them, with the
    /// stripe's lock held, so that a change made after `objectWillChange` was read is always
    /// announced. An object with a custom mirror is inspected after the lock is released instead (its
    /// mirror is its own code, which must not run under a lock other objects share), and its
    /// properties that are not told look the object up on write.
    @usableFromInline
    func signals(for object: AnyObject) -> ObservationSignals {
        let key = ObjectIdentifier(object)
        // Whether the signals were created for an object with a custom mirror, to be told after the
        // lock is released; looked at only when they are created, not on every read.
        let (signals, tellsLater) = tables.withStripe(for: key) { table -> (ObservationSignals, Bool) in
            if let entry = table.entries[key], entry.object === object { return (entry.signals, false) }
            let signals = ObservationSignals()
            table.entries[key] = Entry(object: object, signals: signals)
            if table.entries.count >= table.sweepThreshold {
                table.entries = table.entries.filter { $0.value.object != nil }
                table.sweepThreshold = Swift.max(16, table.entries.count * 2)
            }
            guard !(object is any CustomReflectable) else {
                mayHaveUntoldProperties.set(true)
                return (signals, true)
            }
            tellProperties(of: object, about: signals)
            return (signals, false)
        }
        if tellsLater { tellProperties(of: object, about: signals) }
        return signals
    }

    /// The object's signals if somebody has read them, without creating any.
    @usableFromInline
    func existingSignals(for object: AnyObject) -> ObservationSignals? {
        let key = ObjectIdentifier(object)
        return tables.withStripe(for: key) { table in
            guard let entry = table.entries[key], entry.object === object else { return nil }
            return entry.signals
        }
    }

    /// Connects the object's `@Published` and `@ObservedPublisher` properties to its signals, once,
    /// when the signals are created: the only time Streams inspects an object.
    private func tellProperties(of object: AnyObject, about signals: ObservationSignals) {
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children {
                (child.value as? any ObservationSignalsLink)?.link(to: signals)
            }
            mirror = current.superclassMirror
        }
    }
}

/// A property wrapper that sends its owner's signals when its value changes.
protocol ObservationSignalsLink {
    /// Remembers the owner's signals.
    func link(to signals: ObservationSignals)
}
