public import Observation

/// A property wrapper that holds the latest value of a publisher.
///
/// It subscribes when it is created, keeps the subscription for as long as it lives (releasing the
/// wrapper, usually with its owner, cancels it), and exposes the latest value as `wrappedValue`.
/// Each new value is announced:
/// - to the owner, when the owner is an ``ObservableObject`` with the default publisher: its
///   `objectWillChange` fires before the value is stored and its
///   ``ObservableObject/objectDidChange`` after;
/// - to anyone, through the projected value, `$property`, a publisher of the current value and then
///   each new one.
///
/// ```swift
/// final class TitleViewModel: ObservableObject {
///     @ObservedPublisher var title: String
///
///     init(store: CurrentValueSubject<AppState, Never>) {
///         _title = ObservedPublisher(
///             publisher: store.map(\.title).removeDuplicates(), initial: "")
///     }
/// }
/// ```
///
/// A `CurrentValueSubject` needs no initial value: `ObservedPublisher(publisher: subject)`, nor does
/// an ``ObservationPublisher``: `ObservedPublisher(publisher: model.publisher(for: \.title))`. Delivery
/// is synchronous by default; pass a scheduler, such as `DispatchQueue.main`, to receive values there
/// instead, as the pattern's original does.
///
/// ## In an `@Observable` model
///
/// The wrapper is itself `Observable`: reading `wrappedValue` inside observation tracking (a SwiftUI
/// view's body, `withObservationTracking`, an ``ObservationPublisher``) tracks it, and each new value
/// is stored between the tracking's will-set and did-set. The `@Observable` macro cannot rewrite a
/// property that has a property wrapper, so mark it `@ObservationIgnored`; the observers of the
/// owner still see its changes, through the wrapper:
///
/// ```swift
/// @Observable final class Dashboard {
///     @ObservationIgnored @ObservedPublisher var title: String
///
///     init(titles: CurrentValueSubject<String, Never>) {
///         _title = ObservedPublisher(publisher: titles)
///     }
/// }
///
/// let titles = CurrentValueSubject<String, Never>("Inbox")
/// let dashboard = Dashboard(titles: titles)
/// let scheduler = DispatchQueue.test
/// let cancellable = dashboard.publisher(for: \.title, scheduler: scheduler).sink { print($0) }
/// titles.send("Archive")
/// scheduler.advance()
/// // Prints:
/// // Inbox
/// // Archive
/// ```
@propertyWrapper
public final class ObservedPublisher<Value>: Publisher {
    /// The kind of values published by `$property`: the wrapped value's.
    public typealias Output = Value

    /// The kind of errors `$property` might publish: it cannot fail.
    public typealias Failure = Never

    @usableFromInline
    let lock = Lock()
    /// Guarded by `lock`.
    @usableFromInline
    var ownerSignals: ObservationSignals?
    /// Guarded by `lock`.
    @usableFromInline
    var subscription: AnyCancellable?
    @usableFromInline
    let changes: CurrentValueSubject<Value, Never>
    @usableFromInline
    let registrar = ObservationRegistrar()
    /// `\.wrappedValue`, formed once: in a generic class, forming it is a key path instantiated at
    /// run time, with an allocation, on every access.
    @usableFromInline
    let wrappedValueKeyPath: KeyPath<ObservedPublisher<Value>, Value>

    /// Subscribes to a publisher, starting from an initial value until the publisher sends one.
    ///
    /// - Parameters:
    ///   - publisher: The publisher to follow; it cannot fail.
    ///   - initial: The value until the publisher sends one.
    @inlinable
    public init<P: Publisher>(publisher: P, initial: Value) where P.Output == Value, P.Failure == Never {
        changes = CurrentValueSubject(initial)
        wrappedValueKeyPath = \.wrappedValue
        // Inlinable, so that the publisher's chain is subscribed, and runs, specialized for its type.
        subscription = publisher.sink { [weak self] in self?.receive($0) }
    }

    /// Subscribes to a publisher and receives its values on a scheduler.
    ///
    /// - Parameters:
    ///   - publisher: The publisher to follow; it cannot fail.
    ///   - initial: The value until the first value is delivered on the scheduler.
    ///   - scheduler: Where to deliver values, such as `DispatchQueue.main`.
    ///   - options: Options for the scheduler.
    @inlinable
    public init<P: Publisher, S: Scheduler>(
        publisher: P, initial: Value, scheduler: S, options: S.SchedulerOptions? = nil
    ) where P.Output == Value, P.Failure == Never {
        changes = CurrentValueSubject(initial)
        wrappedValueKeyPath = \.wrappedValue
        subscription = publisher.sink { [weak self] value in
            scheduler.schedule(options: options) { self?.receive(value) }
        }
    }

    /// Follows a current-value subject, starting from its current value.
    ///
    /// - Parameter publisher: The subject to follow.
    public convenience init(publisher: CurrentValueSubject<Value, Never>) {
        self.init(publisher: publisher, initial: publisher.value)
    }

    /// Follows an observation publisher, starting from the value it observes now.
    ///
    /// ```swift
    /// @Observable final class Document {
    ///     var title = "Untitled"
    /// }
    ///
    /// final class TitleViewModel: ObservableObject {
    ///     @ObservedPublisher var title: String
    ///
    ///     init(document: Document) {
    ///         _title = ObservedPublisher(publisher: document.publisher(for: \.title))
    ///     }
    /// }
    ///
    /// print(TitleViewModel(document: Document()).title)
    /// // Prints: Untitled
    /// ```
    ///
    /// New values arrive on the publisher's scheduler (the main run loop unless it was given
    /// another).
    ///
    /// - Parameter publisher: The publisher to follow. What it observes must still exist: the
    ///   program stops if the model of `model.publisher(for:)` is already deallocated.
    public convenience init(publisher: ObservationPublisher<Value>) {
        guard let initial = publisher.read() else {
            preconditionFailure("ObservedPublisher(publisher:) needs a value: the observed model is deallocated")
        }
        self.init(publisher: publisher, initial: initial)
    }

    deinit {
        subscription?.cancel()
    }

    /// The latest value; reading it inside observation tracking tracks it.
    public var wrappedValue: Value {
        registrar.access(self, keyPath: wrappedValueKeyPath)
        return changes.value
    }

    /// The wrapper itself: a publisher of the current value, then of each new value once stored.
    public var projectedValue: ObservedPublisher<Value> {
        self
    }

    /// Attaches a subscriber: it receives the current value, then each new value.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
        changes.subscribe(subscriber)
    }

    /// Stops following the publisher; the value stays as it is.
    public func cancel() {
        let subscription = lock.withLock { self.subscription.take() }
        subscription?.cancel()
    }

    /// Stores a new value: will-change, then the value stored and published to `$property` as one
    /// step (the subject that publishes it also holds it, so a subscriber that attaches at any moment
    /// starts from the value `wrappedValue` returns then, never from an older one), then did-change.
    @usableFromInline
    func receive(_ value: Value) {
        let signals = lock.withLock { ownerSignals }
        signals?.willChange.send()
        registrar.withMutation(of: self, keyPath: wrappedValueKeyPath) {
            changes.send(value)
        }
        signals?.didChange.send()
    }
}

extension ObservedPublisher: ObservationSignalsLink {
    func link(to signals: ObservationSignals) {
        lock.withLock { ownerSignals = signals }
    }
}

/// The wrapper's `wrappedValue` is tracked by Observation, so an `@Observable` model can own an
/// `@ObservationIgnored @ObservedPublisher` property and its observers still see each new value.
extension ObservedPublisher: Observable {}

// Every mutable stored property is guarded by `lock`; the subject and registrar are thread-safe.
extension ObservedPublisher: @unchecked Sendable where Value: Sendable {}
