extension Publisher {
    /// Replaces `nil` elements in the stream with the provided element.
    ///
    /// It is a ``Publishers/Map`` whose transform unwraps each element or substitutes `output`, so
    /// demand, completion and cancellation pass through unchanged.
    ///
    /// ```swift
    /// let numbers: [Double?] = [1.0, 2.0, nil, 3.0]
    /// let cancellable = numbers.publisher
    ///     .replaceNil(with: 0.0)
    ///     .sink { print($0, terminator: " ") }
    /// // Prints: 1.0 2.0 0.0 3.0
    /// ```
    ///
    /// - Parameter output: The element to use when replacing `nil`.
    /// - Returns: A publisher that replaces `nil` elements from the upstream publisher with the
    ///   provided element.
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        Publishers.Map(upstream: self) { $0 ?? output }
    }
}
