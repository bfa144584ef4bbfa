extension Publisher {
    /// The elements produced by the publisher, as a throwing asynchronous sequence.
    ///
    /// This property provides an ``AsyncThrowingPublisher``, which lets you receive the publisher's
    /// elements with a `for`-`try`-`await`-`in` loop instead of attaching a subscriber. If the
    /// publisher fails, the loop throws its error.
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

/// A publisher that exposes its elements as a throwing asynchronous sequence.
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
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    /// The type of element produced by this asynchronous sequence: the publisher's output.
    public typealias Element = P.Output

    /// The type of asynchronous iterator that produces elements of this asynchronous sequence.
    public typealias AsyncIterator = Iterator

    /// The iterator that produces elements of the asynchronous publisher sequence.
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

        /// Produces the next element in the prefix sequence.
        ///
        /// - Returns: The next published element, or `nil` if the publisher finishes normally or the
        ///   waiting task is cancelled. If the publisher terminates with an error, the call point
        ///   receives the error as a `throw`.
        @inlinable
        nonisolated(nonsending) public mutating func next() async throws -> P.Output? {
            try await next(isolation: #isolation)
        }

        /// Produces the next element in the prefix sequence, waiting on the caller's actor.
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

    /// Creates a publisher that exposes elements received from an upstream publisher as a throwing
    /// asynchronous sequence.
    ///
    /// - Parameter publisher: An upstream publisher. The asynchronous publisher converts elements
    ///   received from this publisher into an asynchronous sequence.
    @inlinable
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Creates the asynchronous iterator that produces elements of this asynchronous sequence.
    ///
    /// The iterator subscribes to the publisher now; it requests elements only when asked for them.
    ///
    /// - Returns: An instance of the `AsyncIterator` type used to produce elements of the asynchronous
    ///   sequence.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        let subscriber = AsyncValuesSubscriber<P.Output, P.Failure>()
        let lifetime = AsyncValuesLifetime(subscriber: subscriber)
        publisher.receive(subscriber: subscriber)
        return Iterator(lifetime: lifetime)
    }
}

extension AsyncThrowingPublisher: Sendable where P: Sendable {}

// Copies of an iterator share one thread-safe subscriber, and concurrent calls to `next()` are served
// in the order they arrive; sharing an iterator between tasks hands elements across them, hence the
// condition.
extension AsyncThrowingPublisher.Iterator: Sendable where P.Output: Sendable {}
