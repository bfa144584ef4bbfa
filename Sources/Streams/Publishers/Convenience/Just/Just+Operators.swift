// Operators on `Just` that compute their result at once and return another simple publisher, as
// Combine declares them. Being declared on the concrete type, they take precedence over the generic
// operators on `Publisher`.

extension Just where Output: Comparable {
    /// Publishes the minimum value received: for `Just`, its own value.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func min() -> Just<Output> {
        self
    }

    /// Publishes the maximum value received: for `Just`, its own value.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func max() -> Just<Output> {
        self
    }
}

extension Just where Output: Equatable {
    /// Publishes whether the value equals the given one.
    ///
    /// ```swift
    /// let cancellable = Just(3).contains(3).sink { print($0) }
    /// // Prints: true
    /// ```
    ///
    /// - Parameter output: The value to compare against.
    /// - Returns: A `Just` publishing `true` when the value equals `output`, and `false` otherwise.
    @inlinable
    public func contains(_ output: Output) -> Just<Bool> {
        Just<Bool>(self.output == output)
    }

    /// Publishes only elements that don't match the previous element: for `Just`, its value.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func removeDuplicates() -> Just<Output> {
        self
    }
}

extension Just {
    /// Publishes whether the value satisfies the predicate.
    ///
    /// - Parameter predicate: A closure that evaluates the value.
    /// - Returns: A `Just` publishing the predicate's answer.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> {
        Just<Bool>(predicate(output))
    }

    /// Publishes whether the value satisfies an error-throwing predicate, or fails with its error.
    ///
    /// - Parameter predicate: A closure that evaluates the value, and may throw.
    /// - Returns: A `Result.Publisher` with the predicate's answer or the error it threw.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try predicate(output) })
    }

    /// Collects the value into a one-element array.
    ///
    /// ```swift
    /// let cancellable = Just(5).collect().sink { print($0) }
    /// // Prints: [5]
    /// ```
    ///
    /// - Returns: A `Just` publishing `[output]`.
    @inlinable
    public func collect() -> Just<[Output]> {
        Just<[Output]>([output])
    }

    /// Transforms the value with a closure, and publishes the result if it is not `nil`.
    ///
    /// - Parameter transform: A closure that returns an optional new value.
    /// - Returns: An `Optional.Publisher` of the transformed value.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(transform(output))
    }

    /// Publishes the minimum value received according to a comparison: for `Just`, its value. The
    /// closure is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering predicate.
    /// - Returns: This publisher.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// Publishes the maximum value received according to a comparison: for `Just`, its value. The
    /// closure is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering predicate.
    /// - Returns: This publisher.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// Publishes the given elements before the value.
    ///
    /// ```swift
    /// let cancellable = Just(3).prepend(1, 2).sink { print($0, terminator: " ") }
    /// // Prints: 1 2 3
    /// ```
    ///
    /// - Parameter elements: The elements to publish first.
    /// - Returns: A sequence publisher of `elements` followed by the value.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Failure> {
        prepend(elements)
    }

    /// Publishes the elements of a sequence before the value.
    ///
    /// - Parameter elements: The elements to publish first.
    /// - Returns: A sequence publisher of `elements` followed by the value.
    @inlinable
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Failure>
    where Output == S.Element {
        // Concatenated as Combine does, asking `elements` only for its underestimated count: a
        // collection's `count` may walk it.
        Publishers.Sequence(sequence: elements + [output])
    }

    /// Publishes the given elements after the value.
    ///
    /// - Parameter elements: The elements to publish last.
    /// - Returns: A sequence publisher of the value followed by `elements`.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Failure> {
        append(elements)
    }

    /// Publishes the elements of a sequence after the value.
    ///
    /// - Parameter elements: The elements to publish last.
    /// - Returns: A sequence publisher of the value followed by `elements`.
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Failure>
    where Output == S.Element {
        Publishers.Sequence(sequence: [output] + elements)
    }

    /// Publishes whether the value satisfies the predicate.
    ///
    /// - Parameter predicate: A closure that evaluates the value.
    /// - Returns: A `Just` publishing the predicate's answer.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Just<Bool> {
        Just<Bool>(predicate(output))
    }

    /// Publishes whether the value satisfies an error-throwing predicate, or fails with its error.
    ///
    /// - Parameter predicate: A closure that evaluates the value, and may throw.
    /// - Returns: A `Result.Publisher` with the predicate's answer or the error it threw.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try predicate(output) })
    }

    /// Publishes the number of elements: one.
    ///
    /// - Returns: A `Just` publishing `1`.
    @inlinable
    public func count() -> Just<Int> {
        Just<Int>(1)
    }

    /// Omits the given number of elements: the value, unless `count` is zero.
    ///
    /// Passing a negative `count` stops the program.
    ///
    /// - Parameter count: The number of elements to omit.
    /// - Returns: An `Optional.Publisher` of the value when `count` is zero, or of `nil`.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        precondition(count >= 0, "dropFirst(_:) requires a count of zero or more, got \(count)")
        return Optional<Output>.Publisher(count > 0 ? nil : output)
    }

    /// Omits the value if the predicate holds for it.
    ///
    /// - Parameter predicate: A closure that tells whether to drop the value.
    /// - Returns: An `Optional.Publisher` of the value, or of `nil` when it is dropped.
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? nil : output)
    }

    /// Publishes the first element: the value.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func first() -> Just<Output> {
        self
    }

    /// Publishes the value if it satisfies the predicate.
    ///
    /// - Parameter predicate: A closure that tells whether the value qualifies.
    /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? output : nil)
    }

    /// Publishes the last element: the value.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func last() -> Just<Output> {
        self
    }

    /// Publishes the value if it satisfies the predicate.
    ///
    /// - Parameter predicate: A closure that tells whether the value qualifies.
    /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? output : nil)
    }

    /// Publishes the value if it satisfies the predicate.
    ///
    /// ```swift
    /// let cancellable = Just(4).filter { $0.isMultiple(of: 2) }.sink { print($0) }
    /// // Prints: 4
    /// ```
    ///
    /// - Parameter isIncluded: A closure that tells whether to publish the value.
    /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(isIncluded(output) ? output : nil)
    }

    /// Ignores the value and only finishes.
    ///
    /// - Returns: An `Empty` publisher that finishes immediately.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty()
    }

    /// Transforms the value with a closure.
    ///
    /// ```swift
    /// let cancellable = Just(21).map { $0 * 2 }.sink { print($0) }
    /// // Prints: 42
    /// ```
    ///
    /// - Parameter transform: A closure that returns a new value.
    /// - Returns: A `Just` of the transformed value.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Just<T> {
        Just<T>(transform(output))
    }

    /// Transforms the value with an error-throwing closure.
    ///
    /// - Parameter transform: A closure that returns a new value, and may throw.
    /// - Returns: A `Result.Publisher` of the transformed value, or of the error thrown.
    @inlinable
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try transform(output) })
    }

    /// Changes the failure type; the closure is never called, as `Just` cannot fail.
    ///
    /// - Parameter transform: A closure that would convert the failure.
    /// - Returns: A `Result.Publisher` of the value with the new failure type.
    @inlinable
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(.success(output))
    }

    /// Publishes the element at the given index: the value, when the index is zero.
    ///
    /// Passing a negative index stops the program.
    ///
    /// - Parameter index: The index of the element to publish.
    /// - Returns: An `Optional.Publisher` of the value when `index` is zero, or of `nil`.
    @inlinable
    public func output(at index: Int) -> Optional<Output>.Publisher {
        precondition(index >= 0, "output(at:) requires an index of zero or more, got \(index)")
        return Optional<Output>.Publisher(index == 0 ? output : nil)
    }

    /// Publishes the elements in the given range: the value, when the range starts at zero.
    ///
    /// As in Combine, the value is published for any range whose lower bound is zero, even an empty
    /// one.
    ///
    /// - Parameter range: The range of indices to publish.
    /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        let bounds = range.relative(to: 0..<Int.max)
        return Optional<Output>.Publisher(bounds.lowerBound == 0 ? output : nil)
    }

    /// Publishes at most the given number of elements: the value, unless `maxLength` is zero.
    ///
    /// Passing a negative `maxLength` stops the program.
    ///
    /// - Parameter maxLength: The maximum number of elements to publish.
    /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        precondition(maxLength >= 0, "prefix(_:) requires a maxLength of zero or more, got \(maxLength)")
        return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
    }

    /// Publishes the value if the predicate holds for it.
    ///
    /// - Parameter predicate: A closure that tells whether to keep publishing.
    /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? output : nil)
    }

    /// Folds the value into an initial result.
    ///
    /// ```swift
    /// let cancellable = Just(4).reduce(10, +).sink { print($0) }
    /// // Prints: 14
    /// ```
    ///
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: A closure that combines the initial result with the value.
    /// - Returns: A `Result.Publisher` of the combined value.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(.success(nextPartialResult(initialResult, output)))
    }

    /// Folds the value into an initial result with an error-throwing closure.
    ///
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: A closure that combines the initial result with the value, and may
    ///     throw.
    /// - Returns: A `Result.Publisher` of the combined value, or of the error thrown.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
    }

    /// Publishes only elements that don't match the previous one: for `Just`, its value. The
    /// closure is never called.
    ///
    /// - Parameter predicate: A closure that tells whether two elements are duplicates.
    /// - Returns: This publisher.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// Publishes the value unless an error-throwing duplicate test throws.
    ///
    /// The closure is called once, with the value as both arguments; its answer is ignored, and an
    /// error it throws becomes the failure.
    ///
    /// - Parameter predicate: A closure that tells whether two elements are duplicates, and may
    ///   throw.
    /// - Returns: A `Result.Publisher` of the value, or of the error thrown.
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(
            Result {
                _ = try predicate(output, output)
                return output
            })
    }

    /// Replaces any error with the given element: `Just` cannot fail, so it stays the same.
    ///
    /// - Parameter output: The element that would replace an error.
    /// - Returns: This publisher.
    @inlinable
    public func replaceError(with output: Output) -> Just<Output> {
        self
    }

    /// Replaces an empty stream with the given element: `Just` is never empty, so it stays the same.
    ///
    /// - Parameter output: The element that would replace an empty stream.
    /// - Returns: This publisher.
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> {
        self
    }

    /// Retries after a failure: `Just` cannot fail, so it stays the same.
    ///
    /// - Parameter times: The number of retries that would be attempted.
    /// - Returns: This publisher.
    @inlinable
    public func retry(_ times: Int) -> Just<Output> {
        self
    }

    /// Combines the value with an initial result, publishing the combination.
    ///
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: A closure that combines the initial result with the value.
    /// - Returns: A `Result.Publisher` of the combined value.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(.success(nextPartialResult(initialResult, output)))
    }

    /// Combines the value with an initial result using an error-throwing closure.
    ///
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: A closure that combines the initial result with the value, and may
    ///     throw.
    /// - Returns: A `Result.Publisher` of the combined value, or of the error thrown.
    @inlinable
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
    }

    /// Changes the failure type the publisher declares; it still cannot fail.
    ///
    /// ```swift
    /// struct Oops: Error {}
    /// let publisher: Result<Int, Oops>.Publisher = Just(1).setFailureType(to: Oops.self)
    /// ```
    ///
    /// - Parameter failureType: The failure type to declare.
    /// - Returns: A `Result.Publisher` of the value with the new failure type.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(.success(output))
    }
}
