/// Something an operator that delivers on a scheduler (`receive(on:)`, `delay`, `timeout`) has taken in
/// from upstream and will hand downstream later.
@usableFromInline
enum ScheduledEvent<Input, Failure: Error> {
    /// A value to deliver.
    case value(Input)
    /// The upstream's completion, delivered after every value before it.
    case completion(Subscribers.Completion<Failure>)
}

/// A first-in, first-out queue with amortized constant-time `append` and `popFirst`, for the events
/// `delay`, `receive(on:)` and `timeout` hold until their time comes.
///
/// It keeps two stacks: new elements go on `inbox`; `outbox` holds the oldest ones in reverse order,
/// refilled from `inbox` when it runs dry. It is a plain value: its owner guards it with its lock.
@usableFromInline
struct ScheduledEventQueue<Element> {
    @usableFromInline
    var inbox = ContiguousArray<Element>()

    /// The oldest elements, the next one last.
    @usableFromInline
    var outbox = ContiguousArray<Element>()

    @inlinable
    init() {}

    /// Whether the queue holds nothing.
    @inlinable
    var isEmpty: Bool { inbox.isEmpty && outbox.isEmpty }

    /// Adds an element at the back.
    @inlinable
    mutating func append(_ element: Element) {
        inbox.append(element)
    }

    /// Removes and returns the element at the front, or `nil` if there is none.
    @inlinable
    mutating func popFirst() -> Element? {
        if outbox.isEmpty {
            guard !inbox.isEmpty else { return nil }
            inbox.reverse()
            swap(&inbox, &outbox)
        }
        return outbox.popLast()
    }

    /// Empties the queue, handing back what it held so that the caller can let go of it outside its
    /// lock.
    @inlinable
    mutating func removeAll() -> ScheduledEventQueue {
        var taken = ScheduledEventQueue()
        swap(&taken, &self)
        return taken
    }
}

extension ScheduledEventQueue {
    /// Lets go of the storage once the queue is empty, if a burst left it large.
    @inlinable
    mutating func shrinkIfEmpty() {
        guard isEmpty, inbox.capacity + outbox.capacity > ScheduledDeliveryLimits.retainedCapacity else { return }
        inbox = []
        outbox = []
    }
}

/// Bounds shared by the operators that buffer events for their scheduler.
@usableFromInline
enum ScheduledDeliveryLimits {
    /// An empty buffer with more capacity than this gives its storage back.
    @inlinable
    static var retainedCapacity: Int { 1024 }
}
