// Operators on `Result.Publisher` that compute their result at once and return another simple
// publisher, as Combine declares them. Being declared on the concrete type, they take precedence over
// the generic operators on `Publisher`.

extension Result.Publisher where Output: Equatable {
    /// Publishes whether the value equals the given one, or the failure.
    ///
    /// - Parameter output: The value to compare against.
    /// - Returns: A `Result.Publisher` of the comparison, or of the failure.
    @inlinable
    public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map { $0 == output })
    }

    /// Publishes only elements that don't match the previous element: the value, or the failure.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func removeDuplicates() -> Result<Output, Failure>.Publisher {
        self
    }
}

extension Result.Publisher where Output: Comparable {
    /// Publishes the minimum value received: the value, or the failure.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func min() -> Result<Output, Failure>.Publisher {
        self
    }

    /// Publishes the maximum value received: the value, or the failure.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func max() -> Result<Output, Failure>.Publisher {
        self
    }
}

extension Result.Publisher {
    /// Runs an error-throwing closure on the value; a failure passes through without calling it.
    @inlinable
    func attempt<T>(_ body: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        switch result {
        case .success(let output):
            return Result<T, any Error>.Publisher(Result<T, any Error> { try body(output) })
        case .failure(let error):
            return Result<T, any Error>.Publisher(.failure(error))
        }
    }

    /// Publishes whether the value satisfies the predicate, or the failure.
    ///
    /// - Parameter predicate: A closure that evaluates the value.
    /// - Returns: A `Result.Publisher` of the predicate's answer, or of the failure.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Publishes whether the value satisfies an error-throwing predicate, or fails with the error it
    /// throws or the original failure.
    ///
    /// - Parameter predicate: A closure that evaluates the value, and may throw.
    /// - Returns: A `Result.Publisher` of the predicate's answer, or of an error.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        attempt(predicate)
    }

    /// Publishes whether the value satisfies the predicate, or the failure.
    ///
    /// - Parameter predicate: A closure that evaluates the value.
    /// - Returns: A `Result.Publisher` of the predicate's answer, or of the failure.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Publishes whether the value satisfies an error-throwing predicate, or fails with the error it
    /// throws or the original failure.
    ///
    /// - Parameter predicate: A closure that evaluates the value, and may throw.
    /// - Returns: A `Result.Publisher` of the predicate's answer, or of an error.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        attempt(predicate)
    }

    /// Collects the value into a one-element array, or publishes the failure.
    ///
    /// - Returns: A `Result.Publisher` of `[value]`, or of the failure.
    @inlinable
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(result.map { [$0] })
    }

    /// Publishes the minimum value received according to a comparison: the value, or the failure.
    /// The closure is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering predicate.
    /// - Returns: This publisher.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
        self
    }

    /// Publishes the value unless an error-throwing comparison throws.
    ///
    /// The closure is called once, with the value as both arguments; its answer is ignored, and an
    /// error it throws becomes the failure.
    ///
    /// - Parameter areInIncreasingOrder: An ordering predicate that may throw.
    /// - Returns: A `Result.Publisher` of the value, or of an error.
    @inlinable
    public func tryMin(
        by areInIncreasingOrder: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        attempt { output in
            _ = try areInIncreasingOrder(output, output)
            return output
        }
    }

    /// Publishes the maximum value received according to a comparison: the value, or the failure.
    /// The closure is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering predicate.
    /// - Returns: This publisher.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
        self
    }

    /// Publishes the value unless an error-throwing comparison throws.
    ///
    /// The closure is called once, with the value as both arguments; its answer is ignored, and an
    /// error it throws becomes the failure.
    ///
    /// - Parameter areInIncreasingOrder: An ordering predicate that may throw.
    /// - Returns: A `Result.Publisher` of the value, or of an error.
    @inlinable
    public func tryMax(
        by areInIncreasingOrder: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        attempt { output in
            _ = try areInIncreasingOrder(output, output)
            return output
        }
    }

    /// Publishes the number of elements, one, or the failure.
    ///
    /// - Returns: A `Result.Publisher` of `1`, or of the failure.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(result.map { _ in 1 })
    }

    /// Publishes the first element: the value, or the failure.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func first() -> Result<Output, Failure>.Publisher {
        self
    }

    /// Publishes the last element: the value, or the failure.
    ///
    /// - Returns: This publisher.
    @inlinable
    public func last() -> Result<Output, Failure>.Publisher {
        self
    }

    /// Ignores the value and only finishes; as in Combine, the returned publisher finishes even when
    /// the result is a failure.
    ///
    /// - Returns: An `Empty` publisher that finishes immediately.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty()
    }

    /// Transforms the value with a closure; a failure passes through.
    ///
    /// ```swift
    /// let cancellable = Result<Int, Never>.success(2).publisher
    ///     .map { $0 + 1 }
    ///     .sink { print($0) }
    /// // Prints: 3
    /// ```
    ///
    /// - Parameter transform: A closure that returns a new value.
    /// - Returns: A `Result.Publisher` of the transformed value, or of the failure.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map(transform))
    }

    /// Transforms the value with an error-throwing closure; a failure passes through.
    ///
    /// - Parameter transform: A closure that returns a new value, and may throw.
    /// - Returns: A `Result.Publisher` of the transformed value, or of an error.
    @inlinable
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        attempt(transform)
    }

    /// Converts the failure, if any, with a closure.
    ///
    /// - Parameter transform: A closure that returns a new error.
    /// - Returns: A `Result.Publisher` of the value, or of the converted failure.
    @inlinable
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(result.mapError(transform))
    }

    /// Publishes only elements that don't match the previous one: the value, or the failure. The
    /// closure is never called.
    ///
    /// - Parameter predicate: A closure that tells whether two elements are duplicates.
    /// - Returns: This publisher.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
        self
    }

    /// Publishes the value unless an error-throwing duplicate test throws.
    ///
    /// The closure is called once, with the value as both arguments; its answer is ignored, and an
    /// error it throws becomes the failure.
    ///
    /// - Parameter predicate: A closure that tells whether two elements are duplicates, and may
    ///   throw.
    /// - Returns: A `Result.Publisher` of the value, or of an error.
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        attempt { output in
            _ = try predicate(output, output)
            return output
        }
    }

    /// Replaces the failure, if any, with the given element.
    ///
    /// - Parameter output: The element to publish in place of a failure.
    /// - Returns: A `Result.Publisher` that cannot fail.
    @inlinable
    public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
        switch result {
        case .success(let value):
            return Result<Output, Never>.Publisher(.success(value))
        case .failure:
            return Result<Output, Never>.Publisher(.success(output))
        }
    }

    /// Replaces an empty stream with the given element: a `Result.Publisher` is never empty, so it
    /// stays the same.
    ///
    /// - Parameter output: The element that would replace an empty stream.
    /// - Returns: This publisher.
    @inlinable
    public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher {
        self
    }

    /// Retries after a failure: the result would be the same, so the publisher stays the same.
    ///
    /// - Parameter times: The number of retries that would be attempted.
    /// - Returns: This publisher.
    @inlinable
    public func retry(_ times: Int) -> Result<Output, Failure>.Publisher {
        self
    }

    /// Folds the value into an initial result; a failure passes through.
    ///
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: A closure that combines the initial result with the value.
    /// - Returns: A `Result.Publisher` of the combined value, or of the failure.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// Folds the value into an initial result with an error-throwing closure.
    ///
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: A closure that combines the initial result with the value, and may
    ///     throw.
    /// - Returns: A `Result.Publisher` of the combined value, or of an error.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        attempt { try nextPartialResult(initialResult, $0) }
    }

    /// Combines the value with an initial result; a failure passes through.
    ///
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: A closure that combines the initial result with the value.
    /// - Returns: A `Result.Publisher` of the combined value, or of the failure.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// Combines the value with an initial result using an error-throwing closure.
    ///
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: A closure that combines the initial result with the value, and may
    ///     throw.
    /// - Returns: A `Result.Publisher` of the combined value, or of an error.
    @inlinable
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        attempt { try nextPartialResult(initialResult, $0) }
    }
}

extension Result.Publisher where Failure == Never {
    /// Changes the failure type the publisher declares; it still cannot fail.
    ///
    /// - Parameter failureType: The failure type to declare.
    /// - Returns: A `Result.Publisher` of the value with the new failure type.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        switch result {
        case .success(let output):
            return Result<Output, E>.Publisher(.success(output))
        }
    }
}
