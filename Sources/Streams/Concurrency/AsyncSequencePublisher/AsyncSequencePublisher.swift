extension AsyncSequence where Self: Sendable {
    /// The sequence's elements, as a publisher that pulls one element for each element its subscriber
    /// asks for.
    ///
    /// Each subscription iterates the sequence on its own, in a task started at the subscriber's
    /// first request: it asks the iterator for the next element only while the subscriber has demand
    /// left, so nothing is read ahead or buffered; with `.unlimited` demand it iterates freely. The
    /// publisher finishes when the sequence ends, fails with the sequence's error, and cancelling
    /// the subscription cancels the task.
    ///
    /// ```swift
    /// let (numbers, continuation) = AsyncStream.makeStream(of: Int.self)
    /// let cancellable = numbers.publisher
    ///     .map { $0 * 10 }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// continuation.yield(1)
    /// continuation.yield(2)
    /// continuation.finish()
    /// // Prints, once the iterating task has run:
    /// // 10
    /// // 20
    /// // finished
    /// ```
    ///
    /// The task runs on the global concurrent executor, with no priority of its own; use
    /// ``publisher(priority:)`` or ``publisher(on:priority:)`` to choose. Values are delivered from
    /// that task: put `receive(on:)` after the publisher to deliver them elsewhere.
    @inlinable
    public var publisher: AsyncSequencePublisher<Self> {
        AsyncSequencePublisher(self)
    }

    /// The sequence's elements, as a publisher whose iterating task runs with the given priority.
    ///
    /// - Parameter priority: The priority of the task that iterates the sequence for each
    ///   subscription; `nil` gives it none of its own.
    /// - Returns: A publisher of the sequence's elements; see ``publisher``.
    @inlinable
    public func publisher(priority: TaskPriority?) -> AsyncSequencePublisher<Self> {
        AsyncSequencePublisher(self, priority: priority)
    }

    /// The sequence's elements, as a publisher whose iterating task prefers the given executor.
    ///
    /// - Parameters:
    ///   - executor: The task executor the iterating task runs on (its preference, in Swift's terms).
    ///   - priority: The priority of the iterating task; `nil` gives it none of its own.
    /// - Returns: A publisher of the sequence's elements; see ``publisher``.
    @inlinable
    public func publisher(on executor: any TaskExecutor, priority: TaskPriority? = nil) -> AsyncSequencePublisher<Self>
    {
        AsyncSequencePublisher(self, executor: executor, priority: priority)
    }
}

/// A publisher of the elements of an asynchronous sequence, pulled one per unit of demand.
///
/// Get one from an `AsyncSequence`'s ``_Concurrency/AsyncSequence/publisher`` property. Each
/// subscription makes its own iterator and iterates it in a task of its own, which the subscriber's
/// first request starts: the iterator's `next()` is called once for each element the subscriber
/// asks for, never ahead of it, and freely under `.unlimited` demand. The publisher fails with the
/// sequence's `Failure` (`Never` for a sequence that cannot throw), finishes when the sequence ends,
/// and cancelling the subscription cancels the task: an element the iterator returns after the
/// cancellation is not delivered.
public struct AsyncSequencePublisher<Base: AsyncSequence & Sendable>: Publisher {
    /// The kind of values published by this publisher: the sequence's elements.
    public typealias Output = Base.Element

    /// The kind of errors this publisher might publish: the sequence's.
    public typealias Failure = Base.Failure

    /// The sequence this publisher iterates.
    public let base: Base

    /// The priority of the task that iterates the sequence for each subscription.
    public let priority: TaskPriority?

    /// The executor the iterating task prefers, if one was chosen.
    public let executor: (any TaskExecutor)?

    /// Creates a publisher of the elements of `base`.
    ///
    /// - Parameters:
    ///   - base: The sequence to iterate, once per subscription.
    ///   - executor: The task executor the iterating task prefers; `nil` for the global concurrent
    ///     executor.
    ///   - priority: The priority of the iterating task; `nil` gives it none of its own.
    @inlinable
    public init(_ base: Base, executor: (any TaskExecutor)? = nil, priority: TaskPriority? = nil) {
        self.base = base
        self.executor = executor
        self.priority = priority
    }

    /// Gives the subscriber a subscription; the sequence is iterated from its first request on.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = AsyncSequenceSubscription(publisher: self, downstream: subscriber)
        subscriber.receive(subscription: subscription)
    }
}
