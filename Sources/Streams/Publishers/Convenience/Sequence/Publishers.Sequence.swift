extension Sequence {
    /// A publisher that publishes the elements of this sequence, one per unit of demand, then finishes.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher.sink { print($0) }
    /// // Prints:
    /// // 1
    /// // 2
    /// // 3
    /// ```
    @inlinable
    public var publisher: Publishers.Sequence<Self, Never> {
        Publishers.Sequence(sequence: self)
    }
}

extension Publishers {
    /// A publisher that publishes a given sequence of elements.
    ///
    /// It publishes only as many elements as its subscriber requests and finishes right after the last
    /// one; an empty sequence finishes at once. Requests made from inside `receive(_:)` add to the
    /// demand without recursing.
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        /// The kind of values published by this publisher: the sequence's elements.
        public typealias Output = Elements.Element

        /// The sequence of elements to publish.
        public let sequence: Elements

        /// Creates a publisher for a sequence of elements.
        ///
        /// - Parameter sequence: The sequence of elements to publish.
        @inlinable
        public init(sequence: Elements) {
            self.sequence = sequence
        }

        /// Gives the subscriber a subscription that iterates the sequence as demand arrives.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Elements.Element == S.Input {
            var iterator = sequence.makeIterator()
            guard let first = iterator.next() else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            subscriber.receive(
                subscription: SequenceSubscription(
                    downstream: subscriber, iterator: iterator, next: first, sequence: sequence))
        }
    }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}

extension Publishers.Sequence: Sendable where Elements: Sendable {}

/// The subscription of ``Publishers/Sequence``: it emits from the thread that requests, one element
/// per unit of demand, in a loop rather than recursively.
@usableFromInline
final class SequenceSubscription<Downstream: Subscriber, Iterator: IteratorProtocol>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Iterator.Element {
    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`; `nil` once finished or cancelled.
    @usableFromInline
    var downstream: Downstream?

    /// Touched only by the emitting thread (the one that set `isEmitting`).
    @usableFromInline
    var iterator: Iterator

    /// Touched only by the emitting thread: the element to send next, already taken from the iterator.
    @usableFromInline
    var next: Iterator.Element?

    /// Guarded by `lock`.
    @usableFromInline
    var demand = Subscribers.Demand.none

    /// Guarded by `lock`: whether a thread is in the emitting loop.
    @usableFromInline
    var isEmitting = false

    /// Guarded by `lock`: the sequence, kept only to describe the subscription; `nil` once finished or
    /// cancelled.
    @usableFromInline
    var sequence: Any?

    @inlinable
    init(downstream: Downstream, iterator: Iterator, next: Iterator.Element, sequence: Any) {
        self.downstream = downstream
        self.iterator = iterator
        self.next = next
        self.sequence = sequence
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // Combine ignores a request for no values rather than stopping the program.
        let emit = lock.withLock { () -> Bool in
            guard downstream != nil, demand > 0 else { return false }
            self.demand += demand
            guard !isEmitting else { return false }
            isEmitting = true
            return true
        }
        if emit { emitWhileDemanded() }
    }

    @inlinable
    func emitWhileDemanded() {
        while true {
            let target = lock.withLock { () -> Downstream? in
                guard let downstream, demand > 0 else {
                    isEmitting = false
                    return nil
                }
                demand -= 1
                return downstream
            }
            guard let target, let element = next.take() else { return }
            let more = target.receive(element)
            next = iterator.next()
            if next == nil {
                let finishing = lock.withLock { () -> (Downstream?, Any?) in (downstream.take(), sequence.take()) }
                finishing.0?.receive(completion: .finished)
                return
            }
            if more > 0 { lock.withLock { demand += more } }
        }
    }

    @inlinable
    func cancel() {
        let released = lock.withLock { () -> (Downstream?, Any?) in (downstream.take(), sequence.take()) }
        withExtendedLifetime(released) {}
    }

    /// The sequence, as Combine prints it: `[1, 2, 3]`; `Sequence` once finished or cancelled.
    @usableFromInline
    var description: String {
        lock.withLock { sequence }.map { String(describing: $0) } ?? "Sequence"
    }

    @usableFromInline
    var customMirror: Mirror {
        let sequence = lock.withLock { self.sequence }
        return Mirror(self, children: ["sequence": sequence ?? [Iterator.Element]()])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
