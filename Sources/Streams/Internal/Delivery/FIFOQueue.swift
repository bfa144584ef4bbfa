/// A first-in, first-out queue: appending and popping take amortized constant time, and an element is
/// released as soon as it leaves the queue. Every operator that holds values or events in arrival
/// order keeps one (zip, flatMap, buffer, delay, receive(on:), timeout, the paced deliveries).
///
/// The oldest element has a place of its own, so that elements coming and going one at a time, the
/// usual case, never touch the arrays. The others wait in two stacks: new ones go on `inbox`;
/// `outbox` holds the oldest in reverse order and is refilled from `inbox` when it runs dry. It is a
/// plain value: its owner guards it with its lock.
@usableFromInline
struct FIFOQueue<Element> {
    /// The oldest element; `nil` only when the queue is empty.
    @usableFromInline
    var head: Element?

    /// The newest elements after `head`, in arrival order.
    @usableFromInline
    var inbox = ContiguousArray<Element>()

    /// The elements after `head` that arrived before those in `inbox`, the next one last.
    @usableFromInline
    var outbox = ContiguousArray<Element>()

    /// An empty queue.
    @inlinable
    init() {}

    /// Whether the queue holds nothing.
    @inlinable
    var isEmpty: Bool {
        if case .none = head { return true }
        return false
    }

    /// How many elements the queue holds.
    @inlinable
    var count: Int { isEmpty ? 0 : 1 + outbox.count + inbox.count }

    /// The oldest element, left in the queue.
    @inlinable
    var first: Element? { head }

    /// Adds an element at the back.
    @inlinable
    mutating func append(_ element: Element) {
        if isEmpty {
            head = element
        } else {
            inbox.append(element)
        }
    }

    /// Removes and returns the oldest element, or `nil` if there is none.
    @inlinable
    mutating func popFirst() -> Element? {
        guard let element = head.take() else { return nil }
        if !outbox.isEmpty || !inbox.isEmpty { head = popRest() }
        return element
    }

    /// Removes and returns the oldest element; the queue must not be empty.
    @inlinable
    mutating func removeFirst() -> Element {
        guard let element = popFirst() else { preconditionFailure("A value was taken from an empty queue") }
        return element
    }

    /// Removes and returns the oldest element of `inbox` and `outbox`, one of which holds some.
    @inlinable
    mutating func popRest() -> Element? {
        if outbox.isEmpty {
            inbox.reverse()
            swap(&inbox, &outbox)
        }
        return outbox.popLast()
    }

    /// Removes the oldest `count` elements, or all of them if there are fewer, and returns them in
    /// order.
    @inlinable
    mutating func removeFirst(upTo count: Int) -> [Element] {
        var taken: [Element] = []
        taken.reserveCapacity(Swift.min(count, self.count))
        while taken.count < count, let element = popFirst() { taken.append(element) }
        return taken
    }

    /// Empties the queue, handing back what it held so that the caller can let go of it outside its
    /// lock.
    @inlinable
    mutating func removeAll() -> FIFOQueue {
        var taken = FIFOQueue()
        swap(&taken, &self)
        return taken
    }

    /// Lets go of the storage once the queue is empty, if a burst left it larger than
    /// `retainedCapacity` elements.
    @inlinable
    mutating func shrinkIfEmpty(retainedCapacity: Int = 1024) {
        guard isEmpty, inbox.capacity + outbox.capacity > retainedCapacity else { return }
        inbox = []
        outbox = []
    }
}

extension FIFOQueue: Sequence {
    /// The elements from the oldest to the newest, for mirrors and for handing a batch on.
    @inlinable
    func makeIterator() -> IndexingIterator<[Element]> {
        var elements: [Element] = []
        elements.reserveCapacity(count)
        if let head { elements.append(head) }
        elements.append(contentsOf: outbox.reversed())
        elements.append(contentsOf: inbox)
        return elements.makeIterator()
    }

    @inlinable
    var underestimatedCount: Int { count }
}
