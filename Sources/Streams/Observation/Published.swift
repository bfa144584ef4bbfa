/// A type that publishes a property marked with an attribute.
///
/// Marking a property of a class with `@Published` gives it a publisher, `$property`, that emits the
/// current value to each new subscriber and then every new value. A new value is published *before*
/// it is stored (as with `willSet`), so a subscriber that reads the property sees the old value. When
/// the class is an ``ObservableObject``, setting the property first sends the object's
/// `objectWillChange`, then publishes, then stores, then sends ``ObservableObject/objectDidChange``.
///
/// ```swift
/// final class Weather {
///     @Published var temperature: Double
///     init(temperature: Double) {
///         self.temperature = temperature
///     }
/// }
///
/// let weather = Weather(temperature: 20)
/// let cancellable = weather.$temperature.sink { print("Temperature now: \($0)") }
/// weather.temperature = 25
/// // Prints:
/// // Temperature now: 20.0
/// // Temperature now: 25.0
/// ```
///
/// `@Published` is for properties of classes. Reading and writing are thread-safe.
@propertyWrapper
public struct Published<Value> {
    /// The storage: the value and its publisher, shared by every copy of the wrapper.
    @usableFromInline
    let storage: PublishedStorage<Value>

    /// Creates the published instance with an initial wrapped value.
    ///
    /// Don't use this initializer directly: declare a property with `@Published`.
    ///
    /// - Parameter initialValue: The publisher's initial value.
    public init(initialValue: Value) {
        storage = PublishedStorage(initialValue)
    }

    /// Creates the published instance with an initial wrapped value.
    ///
    /// - Parameter wrappedValue: The publisher's initial value.
    public init(wrappedValue: Value) {
        storage = PublishedStorage(wrappedValue)
    }

    /// The property's value; unavailable: `@Published` is for properties of classes, which reach the
    /// value through the enclosing instance.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The property's publisher, `$property`.
    ///
    /// It is settable so that `assign(to: &$property)` can take it `inout`. Assigning another
    /// property's publisher to it, as in `$a = other.$b`, changes neither property, as in Combine:
    /// to make a publisher drive a property, use `publisher.assign(to: &$property)`.
    public var projectedValue: Publisher {
        get { Publisher(storage) }
        set {}
    }

    /// Reads and replaces the publisher, `$property`, of an enclosing class instance.
    ///
    /// Inlinable, like the property's accessors, so that the key paths the compiler passes become
    /// direct accesses to the storage instead of key paths formed and followed on every access.
    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        projected wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Publisher>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Publisher {
        get {
            let storage = object[keyPath: storageKeyPath].storage
            storage.noteOwner(object)
            return Publisher(storage)
        }
        set {
            object[keyPath: storageKeyPath].storage.noteOwner(object)
        }
    }

    /// Reads and writes the property of an enclosing class instance.
    ///
    /// Inlinable, like the property's accessors, so that the key paths the compiler passes become
    /// direct accesses to the storage instead of key paths formed and followed on every access.
    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get {
            // The storage is used without a retain: the object holds it in a property that only the
            // object's own code may replace, and reading the value runs none of that code.
            Unmanaged.passUnretained(object[keyPath: storageKeyPath].storage)._withUnsafeGuaranteedRef { $0.value }
        }
        set {
            object[keyPath: storageKeyPath].storage.set(newValue, in: object)
        }
    }

    /// The publisher of a `@Published` property: the current value on subscription, then each new
    /// value.
    public struct Publisher: Streams.Publisher {
        /// The kind of values published: the property's.
        public typealias Output = Value

        /// The kind of errors this publisher might publish: it cannot fail.
        public typealias Failure = Never

        @usableFromInline
        let storage: PublishedStorage<Value>

        @usableFromInline
        init(_ storage: PublishedStorage<Value>) {
            self.storage = storage
        }

        /// Attaches the subscriber: it receives the current value, then every new value.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            storage.broadcaster.attach(subscriber)
        }
    }
}

extension Published: ObservationSignalsLink {
    /// Remembers the enclosing object's signals, when they are created.
    func link(to signals: ObservationSignals) {
        storage.link(to: signals)
    }
}

/// The value of a `@Published` property and its publisher.
///
/// `value` is guarded by `lock`; the broadcaster is thread-safe on its own. Its current value is
/// what a subscriber is owed, stored before the subscribers are called; `storedValue`, what the
/// property reads, changes after them. The object's change signals are handed to the storage when
/// they are created (see ``ObservationRegistry``), so a write looks nothing up, except for an object
/// with a custom mirror, whose signals are found on the first write after somebody observes it.
@usableFromInline
// @unchecked: `storedValue`, `signals` and `assignments` are guarded by `lock`.
final class PublishedStorage<Value>: @unchecked Sendable {

    @usableFromInline
    let broadcaster: SubjectBroadcaster<Value, Never>

    private let lock = Lock()
    /// Guarded by `lock`.
    @exclusivity(unchecked)
    private var storedValue: Value
    /// Guarded by `lock`.
    @exclusivity(unchecked)
    private var signals: ObservationSignals?
    /// Guarded by `lock`.
    @exclusivity(unchecked)
    private var assignments: [AnyCancellable] = []
    /// Guarded by `lock`.
    @exclusivity(unchecked)
    private weak var owner: AnyObject?

    init(_ value: Value) {
        storedValue = value
        broadcaster = SubjectBroadcaster(currentValue: value, kind: .published)
    }

    @usableFromInline
    var value: Value {
        lock.withLock { storedValue }
    }

    /// Stores a new value of a property of `object`: will-change, publish, store, did-change.
    @usableFromInline
    func set(_ newValue: Value, in object: AnyObject) {
        let signals = lock.withLock { self.signals } ?? lookUpUntoldSignals(of: object)
        signals?.willChange.send()
        broadcaster.send(newValue)
        lock.withLock { storedValue = newValue }
        signals?.didChange.send()
    }

    /// Remembers the object the property belongs to, so values assigned from a publisher can find the
    /// object's signals.
    @usableFromInline
    func noteOwner(_ object: AnyObject) {
        lock.withLock {
            if owner == nil { owner = object }
        }
    }

    /// Stores a value that arrives through `assign(to:)`, outside any enclosing instance.
    func setFromAssignment(_ newValue: Value) {
        let (cached, owner) = lock.withLock { (self.signals, self.owner) }
        let signals = cached ?? owner.flatMap { lookUpUntoldSignals(of: $0) }
        signals?.willChange.send()
        broadcaster.send(newValue)
        lock.withLock { storedValue = newValue }
        signals?.didChange.send()
    }

    /// Remembers the owner's signals, handed over when they are created.
    func link(to signals: ObservationSignals) {
        lock.withLock { self.signals = signals }
    }

    /// The owner's signals, for a property that was told of none: they may exist if an object with
    /// a custom mirror (which may hide this property) has signals somewhere; otherwise there are
    /// none, and nothing is looked up.
    private func lookUpUntoldSignals(of object: AnyObject) -> ObservationSignals? {
        let registry = ObservationRegistry.shared
        guard registry.mayHaveUntoldProperties.value,
            let found = registry.existingSignals(for: object)
        else { return nil }
        lock.withLock { signals = found }
        return found
    }

    /// Keeps an `assign(to:)` subscription for as long as the property lives.
    func keep(_ connection: AnyCancellable) {
        lock.withLock { assignments.append(connection) }
    }

    /// Lets `assign(to:)` reach the storage.
    func receiveAssigned(_ value: Value) {
        setFromAssignment(value)
    }
}

extension Publisher where Failure == Never {
    /// Republishes elements received from a publisher, by assigning them to a property marked as a
    /// publisher.
    ///
    /// The subscription lives as long as the property does, as do those of later assignments; no
    /// ``AnyCancellable`` is involved, so the pattern makes no reference cycle:
    ///
    /// ```swift
    /// final class Clock {
    ///     @Published var lastUpdated = 0
    ///     init(ticks: PassthroughSubject<Int, Never>) {
    ///         ticks.assign(to: &$lastUpdated)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter published: A property marked with the `@Published` attribute, which receives and
    ///   republishes all elements received from the upstream publisher.
    public func assign(to published: inout Published<Output>.Publisher) {
        let storage = published.storage
        let connection = sink { [weak storage] in storage?.receiveAssigned($0) }
        storage.keep(connection)
    }
}
