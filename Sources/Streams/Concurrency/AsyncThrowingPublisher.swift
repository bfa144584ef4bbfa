extension Publisher {
    /// The publisher's elements, as a throwing asynchronous sequence that asks for them one at a time.
    ///
    /// This property provides an ``AsyncThrowingPublisher``, which lets you receive the publisher's
    /// elements with a `for`-`try`-`await`-`in` loop instead of attaching a subscriber. If the
    /// publisher fails, the loop throws its error.
    ///
    /// The loop asks for one element at a time, so an element a subject sends while the loop body
    /// runs is dropped, as with Combine: the subject has no demand for it. Put
    /// `.buffer(size: 100, prefetch: .keepFull, whenFull: .dropOldest)` before `.values` to keep up to
    /// 100 such elements; see ``AsyncThrowingPublisher``.
    ///
    /// ```swift
    /// struct Overflow: Error {}
    ///
    /// let numbers = [1, 2, 3].publisher
    ///     .tryMap { number -> Int in
    ///         guard number < 3 else { throw Overflow() }
    ///         return number * 10
    ///     }
    /// do {
    ///     for try await number in numbers.values {
    ///         print(number)
    ///     }
    /// } catch {
    ///     print("failed:", error)
    /// }
    /// // Prints:
    /// // 10
    /// // 20
    /// // failed: Overflow()
    /// ```
    @inlinable
    public var values: AsyncThrowingPublisher<Self> {
        AsyncThrowingPublisher(self)
    }
}

/// An asynchronous sequence of a publisher's elements that throws the publisher's failure.
///
/// `AsyncThrowingPublisher` conforms to `AsyncSequence`, which lets callers receive values with the
/// `for`-`try`-`await`-`in` syntax rather than by attaching a ``Subscriber``. If the upstream
/// publisher fails, `AsyncThrowingPublisher` throws the error to the awaiting caller. Use the
/// `values` property of a publisher to get one.
///
/// Each iterator subscribes to the publisher when it is made and requests one element for each call
/// to its `next()` method. The sequence ends when the publisher finishes or fails, when the task
/// iterating it is cancelled, or when the iterator goes away, after a `break` out of the loop for
/// instance; the last two cancel the subscription. Cancellation ends the sequence with `nil`, as a
/// finished publisher does: it does not throw.
///
/// ```swift
/// struct Disconnected: Error {}
///
/// let messages = PassthroughSubject<String, Disconnected>()
/// let task = Task {
///     do {
///         for try await message in messages.values {
///             print("received", message)
///         }
///     } catch {
///         print("failed:", error)
///     }
/// }
/// // Later, on any thread, once the loop is waiting:
/// messages.send("hello")
/// messages.send(completion: .failure(Disconnected()))
/// // Prints:
/// // received hello
/// // failed: Disconnected()
/// ```
///
/// A subject delivers an element only to a subscriber that has asked for one, and the loop asks for
/// the next element only when its body has finished with the last: an element a subject sends while
/// the loop body runs is dropped, as with Combine. To keep such elements, put a buffer in front of
/// `values` that asks for elements ahead of the loop:
///
/// ```swift
/// for try await message in messages.buffer(size: 100, prefetch: .keepFull, whenFull: .dropOldest).values {
///     try await handle(message)  // Messages sent meanwhile wait in the buffer, up to 100 of them.
/// }
/// ```
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    /// The type of element produced by this asynchronous sequence: the publisher's output.
    public typealias Element = P.Output

    /// The type of asynchronous iterator that produces elements of this asynchronous sequence.
    public typealias AsyncIterator = Iterator

    /// An iterator that requests the publisher's elements one at a time.
    ///
    /// Every call to `next()` requests one element from the publisher and waits for it. A failure is
    /// thrown by the call that receives it, or by the next call if none was waiting; later calls
    /// return `nil`. Cancelling the task that waits cancels the subscription, and that call and every
    /// later one return `nil`. When the last copy of the iterator goes away, the subscription is
    /// cancelled too.
    public struct Iterator: AsyncIteratorProtocol {
        /// The type of element this iterator produces: the publisher's output.
        public typealias Element = P.Output

        @usableFromInline
        let lifetime: AsyncValuesLifetime<P.Output, P.Failure>

        @inlinable
        init(lifetime: AsyncValuesLifetime<P.Output, P.Failure>) {
            self.lifetime = lifetime
        }

        /// Requests the next element from the publisher and waits for it.
        ///
        /// - Returns: The next published element, or `nil` if the publisher finishes normally or the
        ///   waiting task is cancelled. If the publisher terminates with an error, the call point
        ///   receives the error as a `throw`.
        @inlinable
        nonisolated(nonsending) public mutating func next() async throws -> P.Output? {
            try await next(isolation: #isolation)
        }

        /// Requests the next element from the publisher and waits for it on the caller's actor.
        ///
        /// A `for`-`try`-`await`-`in` loop calls this method: the loop body and the wait stay on the
        /// loop's actor, and elements never leave it, so they need not be `Sendable`.
        ///
        /// - Parameter actor: The actor to wait on; the caller's by default.
        /// - Returns: The next published element, or `nil` if the publisher finishes normally or the
        ///   waiting task is cancelled. If the publisher terminates with an error, the call point
        ///   receives the error as a `throw`.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> P.Output? {
            try await lifetime.subscriber.next(isolation: actor).get()
        }
    }

    /// The publisher whose elements this sequence produces.
    @usableFromInline
    let publisher: P

    /// Wraps a publisher as a throwing asynchronous sequence of its elements.
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
        let subscriber = AsyncValuesSubscriber<P.Output, P.Failure>()
        let lifetime = AsyncValuesLifetime(subscriber: subscriber)
        publisher.subscribe(subscriber)
        return Iterator(lifetime: lifetime)
    }
}

extension AsyncThrowingPublisher: Sendable where P: Sendable {}

// Copies of an iterator share one thread-safe subscriber, and concurrent calls to `next()` are served
// in the order they arrive; sharing an iterator between tasks hands elements across them, hence the
// condition.
extension AsyncThrowingPublisher.Iterator: Sendable where P.Output: Sendable {}
