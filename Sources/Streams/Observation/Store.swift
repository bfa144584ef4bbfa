/// A single source of truth whose observers subscribe to slices of its state, at a cost that follows
/// what changed rather than how many observers there are.
///
/// A `Store` holds its state in a ``CurrentValueSubject`` (``subject``), so plain Combine chains such
/// as `store.subject.map(\.title).removeDuplicates()` work as usual. Those chains run for every
/// observer on every update. A slice does not: the store keeps one entry per distinct key path that
/// has been sliced, compares each slice once per update, and notifies only the observers of slices
/// that changed. An update with 10,000 observers of which 10 watch the changed field costs about what
/// those 10 observers cost, plus one comparison per distinct slice.
///
/// ```swift
/// struct AppState {
///     var title = "Inbox"
///     var unread = 0
/// }
/// let store = Store(AppState())
/// let cancellable = store.slice(\.title).sink { print("title:", $0) }
/// // Prints: title: Inbox
/// store.update { $0.unread += 1 }      // the title slice did not change: nothing printed
/// store.update { $0.title = "Sent" }
/// // Prints: title: Sent
/// ```
@dynamicMemberLookup
public final class Store<State> {
    /// The state, as a subject: subscribe to it for every update, or send to it to replace the state.
    public let subject: CurrentValueSubject<State, Never>

    @usableFromInline
    let lock = Lock()
    /// Guarded by `lock`: the distinct slices, by key path.
    @exclusivity(unchecked)
    @usableFromInline
    var slices: [AnyKeyPath: AnyObject] = [:]
    /// Guarded by `lock`: how each slice takes a new state, kept as an array so an update reads them
    /// without allocating. Each is formed where the slice's types are known, so it runs specialized.
    @exclusivity(unchecked)
    @usableFromInline
    var sliceUpdates: [(State) -> Void] = []
    /// The state being distributed to the slices, shared with them.
    @usableFromInline
    let distribution: StoreDistribution<State>
    private var distributing: AnyCancellable?

    /// Creates a store with an initial state.
    ///
    /// - Parameter initial: The state to start from.
    public init(_ initial: State) {
        subject = CurrentValueSubject(initial)
        distribution = StoreDistribution(subject: subject)
        distributing = subject.dropFirst().sink { [weak self] in self?.distribute($0) }
    }

    /// The current state.
    public var state: State {
        subject.value
    }

    /// Reads a part of the current state.
    public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        subject.value[keyPath: keyPath]
    }

    /// Changes the state and publishes the new state.
    ///
    /// Updates are applied one at a time, each to the state the previous one left, so updates made
    /// from several threads at once are never lost. An update follows the subject's rules for
    /// sending: while another thread is publishing, this one waits for it, then applies its change
    /// and publishes the result before returning; an update made from inside a subscriber, on the
    /// publishing thread, is applied at once, to the state the updates before it left, and published
    /// once the current state has reached every subscriber.
    ///
    /// - Parameter change: Edits the state in place.
    public func update(_ change: (inout State) -> Void) {
        subject.broadcaster.update(change)
    }

    /// A publisher of one part of the state: its current value on subscription, then each value that
    /// differs from the previous one.
    ///
    /// Every call with the same key path shares one comparison per update. A subscriber starts from
    /// the part of ``state`` as it is when it subscribes, never an older one: subscribing from another
    /// thread while an update is being published waits for that publication to end, as sending
    /// does; subscribing from inside a subscriber, during a publication, starts from the state being
    /// published.
    ///
    /// - Parameter keyPath: The part of the state to observe.
    /// - Returns: A publisher of that part's distinct values.
    @inlinable
    public func slice<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> StoreSlice<Value> {
        let node = lock.withLock { () -> StoreSliceNode<State, Value> in
            if let existing = slices[keyPath] as? StoreSliceNode<State, Value> { return existing }
            let node = StoreSliceNode(
                keyPath: keyPath, initial: subject.value[keyPath: keyPath], distribution: distribution)
            slices[keyPath] = node
            sliceUpdates.append { [node] in node.update(from: $0) }
            return node
        }
        return StoreSlice(node: node)
    }

    /// How many distinct slices the store compares on each update.
    public var sliceCount: Int {
        lock.withLock { slices.count }
    }

    private func distribute(_ state: State) {
        let updates = lock.withLock { sliceUpdates }
        distribution.current = state
        for update in updates { update(state) }
        distribution.current = nil
    }
}

/// What a store's slices need of it to start a subscriber from the current state: the store's
/// subject, whose turn orders subscribing with publishing, and the state being distributed.
@usableFromInline
final class StoreDistribution<State> {
    @usableFromInline
    let subject: CurrentValueSubject<State, Never>

    /// The state whose slices are being updated, while they are; touched only by the thread holding
    /// the subject's turn.
    @exclusivity(unchecked)
    @usableFromInline
    var current: State?

    @usableFromInline
    init(subject: CurrentValueSubject<State, Never>) {
        self.subject = subject
    }
}

// `current` is touched only by the thread holding the subject's turn; the subject is thread-safe.
extension StoreDistribution: @unchecked Sendable where State: Sendable {}

/// How a ``StoreSlice`` attaches a subscriber: to its slice's subject, from the current state.
@usableFromInline
protocol StoreSliceSource<Value>: AnyObject {
    associatedtype Value

    /// Attaches a subscriber to the slice, starting from the store's current state.
    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Value, S.Failure == Never
}

// `slices` and `distribution` are guarded by `lock`; the subject is thread-safe; states cross threads.
extension Store: @unchecked Sendable where State: Sendable {}

/// The publisher of one slice of a ``Store``'s state.
public struct StoreSlice<Value>: Publisher {
    /// The kind of values published: the slice's.
    public typealias Output = Value

    /// The kind of errors this publisher might publish: it cannot fail.
    public typealias Failure = Never

    @usableFromInline
    let node: any StoreSliceSource<Value>

    @usableFromInline
    init(node: any StoreSliceSource<Value>) {
        self.node = node
    }

    /// Attaches a subscriber: it receives the slice's current value, then each change.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
        node.attach(subscriber)
    }
}

/// One distinct slice of a store: the store's state at one key path. It compares its part of each new
/// state with the last one it published, and publishes it if it differs.
///
/// Its part is read through the key path, or, when the key path names a stored property of a struct
/// (nested or not), straight from the property's place in the state.
@usableFromInline
final class StoreSliceNode<State, Value: Equatable>: StoreSliceSource {
    @usableFromInline
    let keyPath: KeyPath<State, Value>

    /// The part's offset in the state, for a stored property of a struct; `nil` otherwise.
    @usableFromInline
    let offset: Int?

    @usableFromInline
    let subject: CurrentValueSubject<Value, Never>

    /// The last value published: touched only by `update(from:)`, which the store's subject calls
    /// serially.
    @exclusivity(unchecked)
    @usableFromInline
    var last: Value

    @usableFromInline
    let distribution: StoreDistribution<State>

    @inlinable
    init(keyPath: KeyPath<State, Value>, initial: Value, distribution: StoreDistribution<State>) {
        self.keyPath = keyPath
        offset = MemoryLayout<State>.offset(of: keyPath)
        subject = CurrentValueSubject(initial)
        last = initial
        self.distribution = distribution
    }

    /// Attaches a subscriber holding the store's turn: no update is being published meanwhile, so
    /// this slice holds the part of the current state; from inside a publication, this slice first
    /// takes its part of the state being published, if it has not yet.
    @inlinable
    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Value, S.Failure == Never {
        distribution.subject.broadcaster.withTurn { insideDelivery in
            if insideDelivery, let state = distribution.current { update(from: state) }
            subject.subscribe(subscriber)
        }
    }

    /// Publishes the slice's part of `state` if it changed. Called serially, by the store's subject.
    @inlinable
    func update(from state: State) {
        let value =
            if let offset {
                withUnsafePointer(to: state) {
                    UnsafeRawPointer($0).advanced(by: offset).assumingMemoryBound(to: Value.self).pointee
                }
            } else {
                state[keyPath: keyPath]
            }
        guard value != last else { return }
        last = value
        subject.value = value
    }
}
