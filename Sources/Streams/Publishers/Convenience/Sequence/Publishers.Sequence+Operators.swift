// Operators on `Publishers.Sequence` that apply the operation to the sequence at once and return
// another simple publisher, as Combine declares them. Being declared on the concrete type, they take
// precedence over the generic operators on `Publisher`.

extension Publishers.Sequence where Failure == Never {
    /// Publishes the minimum element according to the ordering, or finishes without a value when the
    /// sequence is empty.
    ///
    /// - Parameter areInIncreasingOrder: A predicate that returns `true` if its first argument should
    ///   be ordered before its second argument.
    /// - Returns: An `Optional.Publisher` of the minimum element.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.min(by: areInIncreasingOrder))
    }

    /// Publishes the maximum element according to the ordering, or finishes without a value when the
    /// sequence is empty.
    ///
    /// - Parameter areInIncreasingOrder: A predicate that returns `true` if its first argument should
    ///   be ordered before its second argument.
    /// - Returns: An `Optional.Publisher` of the maximum element.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.max(by: areInIncreasingOrder))
    }

    /// Publishes the first element that satisfies the predicate, if there is one.
    ///
    /// - Parameter predicate: A closure that tells whether an element qualifies.
    /// - Returns: An `Optional.Publisher` of the first matching element.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.first(where: predicate))
    }
}

extension Publishers.Sequence {
    /// Publishes whether every element satisfies the predicate.
    ///
    /// - Parameter predicate: A closure that evaluates each element.
    /// - Returns: A `Result.Publisher` of the answer.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.allSatisfy(predicate)))
    }

    /// Publishes whether every element satisfies an error-throwing predicate, or the error it throws.
    ///
    /// - Parameter predicate: A closure that evaluates each element, and may throw.
    /// - Returns: A `Result.Publisher` of the answer, or of the error thrown.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try sequence.allSatisfy(predicate) })
    }

    /// Collects all the elements into an array.
    ///
    /// ```swift
    /// let cancellable = (1...3).publisher.collect().sink { print($0) }
    /// // Prints: [1, 2, 3]
    /// ```
    ///
    /// - Returns: A `Result.Publisher` of the array.
    @inlinable
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(.success(Array(sequence)))
    }

    /// Transforms each element with a closure, keeping the results that are not `nil`.
    ///
    /// - Parameter transform: A closure that returns an optional new element.
    /// - Returns: A sequence publisher of the non-`nil` results.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
    }

    /// Publishes whether any element satisfies the predicate.
    ///
    /// - Parameter predicate: A closure that evaluates each element.
    /// - Returns: A `Result.Publisher` of the answer.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.contains(where: predicate)))
    }

    /// Publishes whether any element satisfies an error-throwing predicate, or the error it throws.
    ///
    /// - Parameter predicate: A closure that evaluates each element, and may throw.
    /// - Returns: A `Result.Publisher` of the answer, or of the error thrown.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try sequence.contains(where: predicate) })
    }

    /// Omits elements while the predicate holds, then publishes the rest.
    ///
    /// - Parameter predicate: A closure that tells whether to drop an element.
    /// - Returns: A sequence publisher of the remaining elements.
    @inlinable
    public func drop(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
        Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
    }

    /// Omits the given number of elements, then publishes the rest.
    ///
    /// - Parameter count: The number of elements to omit; it must not be negative.
    /// - Returns: A sequence publisher of the remaining elements.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
    }

    /// Publishes the elements that satisfy the predicate.
    ///
    /// ```swift
    /// let cancellable = (1...6).publisher
    ///     .filter { $0.isMultiple(of: 3) }
    ///     .sink { print($0, terminator: " ") }
    /// // Prints: 3 6
    /// ```
    ///
    /// - Parameter isIncluded: A closure that tells whether to publish an element.
    /// - Returns: A sequence publisher of the matching elements.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: sequence.filter(isIncluded))
    }

    /// Ignores the elements and only finishes.
    ///
    /// - Returns: An `Empty` publisher that finishes immediately.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty()
    }

    /// Transforms each element with a closure.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher.map { $0 * 10 }.sink { print($0, terminator: " ") }
    /// // Prints: 10 20 30
    /// ```
    ///
    /// - Parameter transform: A closure that returns a new element.
    /// - Returns: A sequence publisher of the transformed elements.
    @inlinable
    public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
    }

    /// Publishes at most the given number of elements.
    ///
    /// - Parameter maxLength: The maximum number of elements to publish; it must not be negative.
    /// - Returns: A sequence publisher of the leading elements.
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
    }

    /// Publishes elements while the predicate holds.
    ///
    /// - Parameter predicate: A closure that tells whether to keep publishing.
    /// - Returns: A sequence publisher of the leading matching elements.
    @inlinable
    public func prefix(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.prefix(while: predicate))
    }

    /// Folds all the elements into a single result.
    ///
    /// ```swift
    /// let cancellable = (1...4).publisher.reduce(0, +).sink { print($0) }
    /// // Prints: 10
    /// ```
    ///
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: A closure that combines the result so far with the next element.
    /// - Returns: A `Result.Publisher` of the final result.
    @inlinable
    public func reduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(.success(sequence.reduce(initialResult, nextPartialResult)))
    }

    /// Folds all the elements into a single result with an error-throwing closure.
    ///
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: A closure that combines the result so far with the next element, and
    ///     may throw.
    /// - Returns: A `Result.Publisher` of the final result, or of the error thrown.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try sequence.reduce(initialResult, nextPartialResult) })
    }

    /// Replaces each `nil` element with the given value.
    ///
    /// - Parameter output: The value to publish in place of `nil`.
    /// - Returns: A sequence publisher of the elements with `nil` replaced.
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Output], Failure> where Elements.Element == T? {
        Publishers.Sequence<[Output], Failure>(sequence: sequence.map { $0 ?? output })
    }

    /// Publishes each intermediate result of folding the elements.
    ///
    /// ```swift
    /// let cancellable = (1...4).publisher.scan(0, +).sink { print($0, terminator: " ") }
    /// // Prints: 1 3 6 10
    /// ```
    ///
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: A closure that combines the result so far with the next element.
    /// - Returns: A sequence publisher of the intermediate results.
    @inlinable
    public func scan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Sequence<[T], Failure> {
        var accumulated = initialResult
        var results: [T] = []
        results.reserveCapacity(sequence.underestimatedCount)
        for element in sequence {
            accumulated = nextPartialResult(accumulated, element)
            results.append(accumulated)
        }
        return Publishers.Sequence<[T], Failure>(sequence: results)
    }

    /// Changes the failure type the publisher declares; it still cannot fail.
    ///
    /// - Parameter error: The failure type to declare.
    /// - Returns: A sequence publisher of the same elements with the new failure type.
    @inlinable
    public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
        Publishers.Sequence<Elements, E>(sequence: sequence)
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// Drops each element equal to the one before it.
    ///
    /// ```swift
    /// let cancellable = [1, 1, 2, 2, 1].publisher.removeDuplicates().sink { print($0, terminator: " ") }
    /// // Prints: 1 2 1
    /// ```
    ///
    /// - Returns: A sequence publisher without consecutive duplicates.
    @inlinable
    public func removeDuplicates() -> Publishers.Sequence<[Output], Failure> {
        var kept: [Output] = []
        for element in sequence where kept.last != element {
            kept.append(element)
        }
        return Publishers.Sequence<[Output], Failure>(sequence: kept)
    }

    /// Publishes whether the sequence contains the given element.
    ///
    /// - Parameter output: The element to look for.
    /// - Returns: A `Result.Publisher` of the answer.
    @inlinable
    public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(.success(sequence.contains(output)))
    }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// Publishes the minimum element, or finishes without a value when the sequence is empty.
    ///
    /// - Returns: An `Optional.Publisher` of the minimum element.
    @inlinable
    public func min() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.min())
    }

    /// Publishes the maximum element, or finishes without a value when the sequence is empty.
    ///
    /// - Returns: An `Optional.Publisher` of the maximum element.
    @inlinable
    public func max() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.max())
    }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
    /// Publishes the first element, or finishes without a value when the collection is empty.
    ///
    /// - Returns: An `Optional.Publisher` of the first element.
    @inlinable
    public func first() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.first)
    }

    /// Publishes the element at the given index, or finishes without a value when the index is not a
    /// valid index of the collection.
    ///
    /// - Parameter index: The index of the element to publish.
    /// - Returns: An `Optional.Publisher` of the element.
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// Publishes the number of elements.
    ///
    /// - Returns: A `Result.Publisher` of the count.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(.success(sequence.count))
    }

    /// Publishes the elements in the given range of indices.
    ///
    /// - Parameter range: The range of indices to publish; it must lie within the collection.
    /// - Returns: A sequence publisher of the elements in the range.
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: Array(sequence[range]))
    }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
    /// Publishes the last element, or finishes without a value when the collection is empty.
    ///
    /// - Returns: An `Optional.Publisher` of the last element.
    @inlinable
    public func last() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.last)
    }

    /// Publishes the last element that satisfies the predicate, if there is one.
    ///
    /// - Parameter predicate: A closure that tells whether an element qualifies.
    /// - Returns: An `Optional.Publisher` of the last matching element.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.last(where: predicate))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// Publishes the element at the given index, or finishes without a value when the index is not a
    /// valid index of the collection.
    ///
    /// - Parameter index: The index of the element to publish.
    /// - Returns: An `Optional.Publisher` of the element.
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
    }

    /// Publishes the number of elements.
    ///
    /// ```swift
    /// let cancellable = ["a", "b"].publisher.count().sink { print($0) }
    /// // Prints: 2
    /// ```
    ///
    /// - Returns: A `Just` of the count.
    @inlinable
    public func count() -> Just<Int> {
        Just(sequence.count)
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
    /// Publishes the elements in the given range of indices.
    ///
    /// - Parameter range: The range of indices to publish; it must lie within the collection.
    /// - Returns: A sequence publisher of the elements in the range.
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: Array(sequence[range]))
    }

    /// Publishes the number of elements.
    ///
    /// - Returns: A `Result.Publisher` of the count.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(.success(sequence.count))
    }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
    /// Publishes the given elements before the sequence.
    ///
    /// ```swift
    /// let cancellable = [3, 4].publisher.prepend(1, 2).sink { print($0, terminator: " ") }
    /// // Prints: 1 2 3 4
    /// ```
    ///
    /// - Parameter elements: The elements to publish first.
    /// - Returns: A sequence publisher of `elements` followed by this sequence.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
        prepend(elements)
    }

    /// Publishes the elements of another sequence before this one.
    ///
    /// - Parameter elements: The elements to publish first.
    /// - Returns: A sequence publisher of `elements` followed by this sequence.
    @inlinable
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where Elements.Element == S.Element {
        var combined = Elements()
        combined.reserveCapacity(sequence.count + elements.underestimatedCount)
        combined.append(contentsOf: elements)
        combined.append(contentsOf: sequence)
        return Publishers.Sequence<Elements, Failure>(sequence: combined)
    }

    /// Publishes the elements of another sequence publisher before this one.
    ///
    /// - Parameter publisher: The sequence publisher whose elements come first.
    /// - Returns: A sequence publisher of `publisher`'s elements followed by this sequence.
    @inlinable
    public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        var combined = publisher.sequence
        combined.append(contentsOf: sequence)
        return Publishers.Sequence<Elements, Failure>(sequence: combined)
    }

    /// Publishes the given elements after the sequence.
    ///
    /// - Parameter elements: The elements to publish last.
    /// - Returns: A sequence publisher of this sequence followed by `elements`.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
        append(elements)
    }

    /// Publishes the elements of another sequence after this one.
    ///
    /// - Parameter elements: The elements to publish last.
    /// - Returns: A sequence publisher of this sequence followed by `elements`.
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where Elements.Element == S.Element {
        var combined = sequence
        combined.append(contentsOf: elements)
        return Publishers.Sequence<Elements, Failure>(sequence: combined)
    }

    /// Publishes the elements of another sequence publisher after this one.
    ///
    /// - Parameter publisher: The sequence publisher whose elements come last.
    /// - Returns: A sequence publisher of this sequence followed by `publisher`'s elements.
    @inlinable
    public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        append(publisher.sequence)
    }
}
