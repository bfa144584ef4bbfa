// Operators on `Optional.Publisher` that compute their result at once and return another simple
// publisher, as Combine declares them. Being declared on the concrete type, they take precedence over
// the generic operators on `Publisher`.

extension Optional.Publisher where Wrapped: Equatable {
    /// Publishes whether the value equals the given one; publishes nothing if there is no value.
    ///
    /// - Parameter output: The value to compare against.
    /// - Returns: An `Optional.Publisher` of the comparison, or of `nil`.
    @inlinable
    public func contains(_ output: Output) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(self.output.map { $0 == output })
    }

    /// Publishes only elements that don't match the previous element: the value, if any.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func removeDuplicates() -> Optional<Wrapped>.Publisher {
        self
    }
}

extension Optional.Publisher where Wrapped: Comparable {
    /// Publishes the minimum value received: the value, if any.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func min() -> Optional<Wrapped>.Publisher {
        self
    }

    /// Publishes the maximum value received: the value, if any.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func max() -> Optional<Wrapped>.Publisher {
        self
    }
}

extension Optional.Publisher {
    /// Publishes whether the value satisfies the predicate; publishes nothing if there is no value.
    ///
    /// - Parameter predicate: A closure that evaluates the value.
    /// - Returns: An `Optional.Publisher` of the predicate's answer, or of `nil`.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// Collects the value, if any, into an array.
    ///
    /// ```swift
    /// let none: Int? = nil
    /// let cancellable = none.publisher.collect().sink { print($0) }
    /// // Prints: []
    /// ```
    ///
    /// - Returns: An `Optional.Publisher` of `[value]`, or of `[]` when there is no value.
    @inlinable
    public func collect() -> Optional<[Output]>.Publisher {
        Optional<[Output]>.Publisher(output.map { [$0] } ?? [])
    }

    /// Transforms the value with a closure, and publishes the result if it is not `nil`.
    ///
    /// - Parameter transform: A closure that returns an optional new value.
    /// - Returns: An `Optional.Publisher` of the transformed value.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.flatMap(transform))
    }

    /// Publishes the minimum value received according to a comparison: the value, if any. The
    /// closure is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering predicate.
    /// - Returns: This publisher.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Publishes the maximum value received according to a comparison: the value, if any. The
    /// closure is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering predicate.
    /// - Returns: This publisher.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Publishes whether the value satisfies the predicate; publishes nothing if there is no value.
    ///
    /// - Parameter predicate: A closure that evaluates the value.
    /// - Returns: An `Optional.Publisher` of the predicate's answer, or of `nil`.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// Publishes the number of elements: one if there is a value; as in Combine, nothing otherwise.
    ///
    /// - Returns: An `Optional.Publisher` of `1`, or of `nil`.
    @inlinable
    public func count() -> Optional<Int>.Publisher {
        Optional<Int>.Publisher(output.map { _ in 1 })
    }

    /// Omits the value if it is among the first `count` elements.
    ///
    /// Passing a negative `count` stops the program.
    ///
    /// - Parameter count: The number of elements to omit.
    /// - Returns: An `Optional.Publisher` of the value when `count` is zero, or of `nil`.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Wrapped>.Publisher {
        precondition(count >= 0, "dropFirst(_:) requires a count of zero or more, got \(count)")
        return Optional<Wrapped>.Publisher(count == 0 ? output : nil)
    }

    /// Omits the value if the predicate holds for it.
    ///
    /// - Parameter predicate: A closure that tells whether to drop the value.
    /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? nil : $0 })
    }

    /// Publishes the first element: the value, if any.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func first() -> Optional<Wrapped>.Publisher {
        self
    }

    /// Publishes the value if it satisfies the predicate.
    ///
    /// - Parameter predicate: A closure that tells whether the value qualifies.
    /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
    }

    /// Publishes the last element: the value, if any.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func last() -> Optional<Wrapped>.Publisher {
        self
    }

    /// Publishes the value if it satisfies the predicate.
    ///
    /// - Parameter predicate: A closure that tells whether the value qualifies.
    /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
    }

    /// Publishes the value if it satisfies the predicate.
    ///
    /// - Parameter isIncluded: A closure that tells whether to publish the value.
    /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
    }

    /// Ignores the value and only finishes.
    ///
    /// - Returns: An `Empty` publisher that finishes immediately.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty()
    }

    /// Transforms the value, if any, with a closure.
    ///
    /// ```swift
    /// let cancellable = Optional(2).publisher.map { $0 * 10 }.sink { print($0) }
    /// // Prints: 20
    /// ```
    ///
    /// - Parameter transform: A closure that returns a new value.
    /// - Returns: An `Optional.Publisher` of the transformed value, or of `nil`.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map(transform))
    }

    /// Publishes the element at the given index: the value, when the index is zero.
    ///
    /// Passing a negative index stops the program.
    ///
    /// - Parameter index: The index of the element to publish.
    /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
    @inlinable
    public func output(at index: Int) -> Optional<Wrapped>.Publisher {
        precondition(index >= 0, "output(at:) requires an index of zero or more, got \(index)")
        return Optional<Wrapped>.Publisher(index == 0 ? output : nil)
    }

    /// Publishes the elements in the given range: the value, when the range contains index zero.
    ///
    /// A range with a negative lower bound, or one reaching `Int.max - 1` or beyond, stops the
    /// program, as in Combine.
    ///
    /// - Parameter range: The range of indices to publish.
    /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Wrapped>.Publisher where R.Bound == Int {
        let bounds = range.relative(to: 0..<Int.max)
        precondition(bounds.lowerBound >= 0, "output(in:) requires a lower bound of zero or more")
        precondition(bounds.upperBound < Int.max - 1, "output(in:) requires an upper bound below Int.max - 1")
        return Optional<Wrapped>.Publisher(bounds.lowerBound == 0 && bounds.upperBound != 0 ? output : nil)
    }

    /// Publishes at most the given number of elements: the value, unless `maxLength` is zero.
    ///
    /// Passing a negative `maxLength` stops the program.
    ///
    /// - Parameter maxLength: The maximum number of elements to publish.
    /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Wrapped>.Publisher {
        precondition(maxLength >= 0, "prefix(_:) requires a maxLength of zero or more, got \(maxLength)")
        return Optional<Wrapped>.Publisher(maxLength > 0 ? output : nil)
    }

    /// Publishes the value if the predicate holds for it.
    ///
    /// - Parameter predicate: A closure that tells whether to keep publishing.
    /// - Returns: An `Optional.Publisher` of the value, or of `nil`.
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? $0 : nil })
    }

    /// Folds the value, if any, into an initial result; as in Combine, publishes nothing when there is
    /// no value.
    ///
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: A closure that combines the initial result with the value.
    /// - Returns: An `Optional.Publisher` of the combined value, or of `nil`.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// Combines the value, if any, with an initial result.
    ///
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: A closure that combines the initial result with the value.
    /// - Returns: An `Optional.Publisher` of the combined value, or of `nil`.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// Publishes only elements that don't match the previous one: the value, if any. The closure is
    /// never called.
    ///
    /// - Parameter predicate: A closure that tells whether two elements are duplicates.
    /// - Returns: This publisher.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Replaces any error with the given element: the publisher cannot fail, so it stays the same.
    ///
    /// - Parameter output: The element that would replace an error.
    /// - Returns: This publisher.
    @inlinable
    public func replaceError(with output: Output) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Publishes the value, or the given element when there is no value.
    ///
    /// - Parameter output: The element to publish in place of `nil`.
    /// - Returns: A `Just` of the value or of `output`.
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Wrapped> {
        Just(self.output ?? output)
    }

    /// Retries after a failure: the publisher cannot fail, so it stays the same.
    ///
    /// - Parameter times: The number of retries that would be attempted.
    /// - Returns: This publisher.
    @inlinable
    public func retry(_ times: Int) -> Optional<Wrapped>.Publisher {
        self
    }
}
