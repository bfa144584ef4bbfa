extension Future where Failure == Never {
    /// The future's value, awaited.
    ///
    /// This property subscribes to the future and returns its value once the future publishes it. Use
    /// it to consume a future with `async`-`await` syntax instead of a subscriber.
    ///
    /// ```swift
    /// let answer = Future<Int, Never> { promise in
    ///     DispatchQueue.global().async { promise(.success(42)) }
    /// }
    /// print(await answer.value)
    /// // Prints: 42
    /// ```
    ///
    /// The wait ends only when the future settles: cancelling the waiting task does not end it, since
    /// a future whose `Failure` is `Never` has nothing else to return.
    @inlinable
    nonisolated(nonsending) public var value: Output {
        get async {
            await awaitSettlement().get()
        }
    }

    /// Creates a future that runs an asynchronous closure in a new task and publishes what it returns.
    ///
    /// Like a future made with a promise, it starts at once, runs its work once however many
    /// subscribers it has, and keeps the result for subscribers that come later. The work runs in an
    /// unstructured task, outside the caller's actor: cancelling a subscription, or every subscription,
    /// does not cancel it.
    ///
    /// ```swift
    /// func loadCount() async -> Int { 3 }
    ///
    /// let count = Future { await loadCount() }
    /// let cancellable = count.sink { print("count:", $0) }
    /// // Prints, once the task has run: count: 3
    /// ```
    ///
    /// `Output` must be `Sendable`: the value is made on the task and handed to every subscriber, on
    /// whatever thread each one is, and the task keeps a reference to the future while it runs.
    ///
    /// - Parameter operation: The work to run; the future publishes the value it returns.
    @inlinable
    public convenience init(_ operation: sending @escaping () async -> Output) where Output: Sendable {
        self.init { _ in }
        Task { [self] in
            promise(.success(await operation()))
        }
    }
}

extension Future {
    /// The future's value, awaited; its failure is thrown instead if it fails.
    ///
    /// This property subscribes to the future and returns its value once the future publishes it. If
    /// the future fails, the awaiting caller receives the error instead. Use it to consume a future
    /// whose `Failure` type is not `Never` with `async`-`await` syntax.
    ///
    /// ```swift
    /// struct NotFound: Error {}
    ///
    /// let lookup = Future<String, NotFound> { promise in promise(.failure(NotFound())) }
    /// do {
    ///     print(try await lookup.value)
    /// } catch {
    ///     print("failed:", error)
    /// }
    /// // Prints: failed: NotFound()
    /// ```
    ///
    /// The wait ends only when the future settles: cancelling the waiting task does not end it.
    @inlinable
    nonisolated(nonsending) public var value: Output {
        get async throws {
            try await awaitSettlement().get()
        }
    }
}

extension Future where Failure == any Error {
    /// Creates a future that runs a throwing asynchronous closure in a new task and publishes what it
    /// returns, or fails with what it throws.
    ///
    /// Like a future made with a promise, it starts at once, runs its work once however many
    /// subscribers it has, and keeps the result for subscribers that come later. The work runs in an
    /// unstructured task, outside the caller's actor: cancelling a subscription, or every subscription,
    /// does not cancel it. If the work throws `CancellationError`, the future fails with it.
    ///
    /// ```swift
    /// struct Offline: Error {}
    /// func fetchGreeting() async throws -> String { throw Offline() }
    ///
    /// let greeting = Future { try await fetchGreeting() }
    /// let cancellable = greeting.sink(
    ///     receiveCompletion: { print($0) },
    ///     receiveValue: { print($0) })
    /// // Prints, once the task has run: failure(Offline())
    /// ```
    ///
    /// `Output` must be `Sendable`: the value is made on the task and handed to every subscriber, on
    /// whatever thread each one is, and the task keeps a reference to the future while it runs.
    ///
    /// - Parameter operation: The work to run; the future publishes the value it returns, or fails
    ///   with the error it throws.
    @inlinable
    public convenience init(_ operation: sending @escaping () async throws -> Output) where Output: Sendable {
        self.init { _ in }
        Task { [self] in
            do {
                promise(.success(try await operation()))
            } catch {
                promise(.failure(error))
            }
        }
    }
}

extension Future {
    /// Subscribes, requests the value and waits, ignoring cancellation, until the future settles.
    @inlinable
    func awaitSettlement(isolation actor: isolated (any Actor)? = #isolation) async -> Result<Output, Failure> {
        let subscriber = AsyncValuesSubscriber<Output, Failure>()
        subscribe(subscriber)
        switch await subscriber.awaitNext(isolation: actor) {
        case .success(let output?):
            return .success(output)
        case .success(nil):
            preconditionFailure("A future finished without publishing a value")
        case .failure(let error):
            return .failure(error)
        }
    }
}
