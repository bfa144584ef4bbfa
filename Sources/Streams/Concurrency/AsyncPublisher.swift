extension Publisher where Failure == Never {
    /// The publisher's elements, as an asynchronous sequence that asks for them one at a time.
    ///
    /// This property provides an ``AsyncPublisher``, which lets you receive the publisher's elements
    /// with a `for`-`await`-`in` loop instead of attaching a subscriber. The loop asks for one element
    /// at a time, so the publisher never runs ahead of the code consuming its elements.
    ///
    /// Because of that, an element a subject sends while the loop body runs is dropped, as with
    /// Combine: the subject has no demand for it. Put
    /// `.buffer(size: 100, prefetch: .keepFull, whenFull: .dropOldest)` before `.values` to keep up to
    /// 100 such elements; see ``AsyncPublisher``.
    ///
    /// ```swift
    /// let numbers = [1, 2, 3].publisher
    /// for await number in numbers.values {
    ///     print(number)
    /// }
    /// print("done")
    /// // Prints:
    /// // 1
    /// // 2
    /// // 3
    /// // done
    /// ```
    @inlinable
    public var values: AsyncPublisher<Self> {
        AsyncPublisher(self)
    }
}

/// An asynchronous sequence of the elements of a publisher that cannot fail.
///
/// `AsyncPublisher` conforms to `AsyncSequence`, which lets callers receive values with the
/// `for`-`await`-`in` syntax rather than by attaching a ``Subscriber``. Use the
/// `values` property of a publisher whose `Failure` is `Never` to get one.
///
/// Each iterator subscribes to the publisher when it is made and requests one element for each call
/// to its `next()` method: the publisher is never asked for an element nobody is waiting for. The
/// sequence ends when the publisher finishes, when the task iterating it is cancelled, or when the
/// iterator goes away, after a `break` out of the loop for instance; the last two cancel the
/// subscription.
///
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// let task = Task {
///     for await value in subject.values {
///         print("received", value)
///     }
///     print("finished")
/// }
/// // Later, on any thread, once the loop is waiting:
/// subject.send(1)
/// subject.send(completion: .finished)
/// // Prints:
/// // received 1
/// // finished
/// ```
///
/// A subject delivers an element only to a subscriber that has asked for one, and the loop asks for
/// the next element only when its body has finished with the last: an element a subject sends while
/// the loop body runs is dropped, as with Combine. To keep such elements, put a buffer in front of
/// `values` that asks for elements ahead of the loop:
///
/// ```swift
/// for await value in subject.buffer(size: 100, prefetch: .keepFull, whenFull: .dropOldest).values {
///     await handle(value)  // Elements sent meanwhile wait in the buffer, up to 100 of them.
/// }
/// ```
///
/// Or use a ``CurrentValueSubject`` when only the latest value matters.
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
    /// The type of element produced by this asynchronous sequence: the publisher's output.
    public typealias Element = P.Output

    /// The type of asynchronous iterator that produces elements of this asynchronous sequence.
    public typealias AsyncIterator = Iterator

    /// An iterator that requests the publisher's elements one at a time.
    ///
    /// Every call to `next()` requests one element from the publisher and waits for it. Cancelling the
    /// task that waits cancels the subscription, and that call and every later one return `nil`. When
    /// the last copy of the iterator goes away, the subscription is cancelled too.
    public struct Iterator: AsyncIteratorProtocol {
        /// The type of element this iterator produces: the publisher's output.
        public typealias Element = P.Output

        @usableFromInline
        let lifetime: AsyncValuesLifetime<P.Output, Never>

        @inlinable
        init(lifetime: AsyncValuesLifetime<P.Output, Never>) {
            self.lifetime = lifetime
        }

        /// Requests the next element from the publisher and waits for it.
        ///
        /// - Returns: The next published element, or `nil` if the publisher finishes normally or the
        ///   waiting task is cancelled.
        @inlinable
        nonisolated(nonsending) public mutating func next() async -> P.Output? {
            await next(isolation: #isolation)
        }

        /// Requests the next element from the publisher and waits for it on the caller's actor.
        ///
        /// A `for`-`await`-`in` loop calls this method: the loop body and the wait stay on the
        /// loop's actor, and elements never leave it, so they need not be `Sendable`.
        ///
        /// - Parameter actor: The actor to wait on; the caller's by default.
        /// - Returns: The next published element, or `nil` if the publisher finishes normally or the
        ///   waiting task is cancelled.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> P.Output? {
            await lifetime.subscriber.next(isolation: actor).get()
        }
    }

    /// The publisher whose elements this sequence produces.
    @usableFromInline
    let publisher: P

    /// Wraps a publisher as an asynchronous sequence of its elements.
    ///
    /// - Parameter publisher: The publisher whose elements the sequence produces. Nothing subscribes
    ///   to it until an iterator is made.
    @inlinable
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Subscribes to the publisher and returns an iterator over its elements.
    ///
    /// The subscription starts now; elements are requested only as the iterator is asked for them.
    /// Each iterator made has a subscription of its own.
    ///
    /// - Returns: The iterator, which requests one element per call to `next()`.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        let subscriber = AsyncValuesSubscriber<P.Output, Never>()
        let lifetime = AsyncValuesLifetime(subscriber: subscriber)
        publisher.subscribe(subscriber)
        return Iterator(lifetime: lifetime)
    }
}

extension AsyncPublisher: Sendable where P: Sendable {}

// Copies of an iterator share one thread-safe subscriber, and concurrent calls to `next()` are served
// in the order they arrive; sharing an iterator between tasks hands elements across them, hence the
// condition.
extension AsyncPublisher.Iterator: Sendable where P.Output: Sendable {}
