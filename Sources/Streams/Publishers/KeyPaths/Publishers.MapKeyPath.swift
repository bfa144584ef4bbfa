extension Publisher {
    /// Publishes the value of a key path.
    ///
    /// ```swift
    /// struct DiceRoll {
    ///     let die: Int
    /// }
    ///
    /// let cancellable = Just(DiceRoll(die: 4))
    ///     .map(\.die)
    ///     .sink { print("Rolled: \($0)") }
    /// // Prints: Rolled: 4
    /// ```
    ///
    /// - Parameter keyPath: The key path of a property on `Output`.
    /// - Returns: A publisher that publishes the value of the key path.
    @inlinable
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
    }

    /// Publishes the values of two key paths as a tuple.
    ///
    /// ```swift
    /// struct DiceRoll {
    ///     let die: Int
    ///     let bonus: Int
    /// }
    ///
    /// let cancellable = Just(DiceRoll(die: 4, bonus: 2))
    ///     .map(\.die, \.bonus)
    ///     .sink { print("Rolled: \($0.0) + \($0.1)") }
    /// // Prints: Rolled: 4 + 2
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath0: The key path of a property on `Output`.
    ///   - keyPath1: The key path of another property on `Output`.
    /// - Returns: A publisher that publishes the values of two key paths as a tuple.
    @inlinable
    public func map<T0, T1>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>
    ) -> Publishers.MapKeyPath2<Self, T0, T1> {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
    }

    /// Publishes the values of three key paths as a tuple.
    ///
    /// ```swift
    /// struct DiceRoll {
    ///     let die: Int
    ///     let bonus: Int
    ///     let player: String
    /// }
    ///
    /// let cancellable = Just(DiceRoll(die: 4, bonus: 2, player: "Ann"))
    ///     .map(\.player, \.die, \.bonus)
    ///     .sink { print("\($0.0) rolled \($0.1 + $0.2)") }
    /// // Prints: Ann rolled 6
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath0: The key path of a property on `Output`.
    ///   - keyPath1: The key path of a second property on `Output`.
    ///   - keyPath2: The key path of a third property on `Output`.
    /// - Returns: A publisher that publishes the values of three key paths as a tuple.
    @inlinable
    public func map<T0, T1, T2>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>, _ keyPath2: KeyPath<Output, T2>
    ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
    }
}

extension Publishers {
    /// A publisher that publishes the value of a key path.
    ///
    /// Demand, completion and cancellation pass through unchanged.
    public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The key path of a property to publish.
        public let keyPath: KeyPath<Upstream.Output, Output>

        /// Creates a publisher that publishes the value of a key path; only `map(_:)` calls it.
        @inlinable
        init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
            self.upstream = upstream
            self.keyPath = keyPath
        }

        /// Attaches the subscriber through a key-path-reading subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(KeyPathInner(downstream: subscriber, keyPaths: keyPath))
        }
    }

    /// A publisher that publishes the values of two key paths as a tuple.
    ///
    /// Demand, completion and cancellation pass through unchanged.
    public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
        /// The kind of values published by this publisher: a tuple of the two properties.
        public typealias Output = (Output0, Output1)

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The key path of a property to publish.
        public let keyPath0: KeyPath<Upstream.Output, Output0>

        /// The key path of a second property to publish.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        /// Creates a publisher that publishes the values of two key paths; only `map(_:_:)` calls it.
        @inlinable
        init(
            upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
        }

        /// Attaches the subscriber through a key-path-reading subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(KeyPathInner(downstream: subscriber, keyPaths: keyPath0, keyPath1))
        }
    }

    /// A publisher that publishes the values of three key paths as a tuple.
    ///
    /// Demand, completion and cancellation pass through unchanged.
    public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
        /// The kind of values published by this publisher: a tuple of the three properties.
        public typealias Output = (Output0, Output1, Output2)

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The key path of a property to publish.
        public let keyPath0: KeyPath<Upstream.Output, Output0>

        /// The key path of a second property to publish.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        /// The key path of a third property to publish.
        public let keyPath2: KeyPath<Upstream.Output, Output2>

        /// Creates a publisher that publishes the values of three key paths; only `map(_:_:_:)` calls
        /// it.
        @inlinable
        init(
            upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>, keyPath2: KeyPath<Upstream.Output, Output2>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
            self.keyPath2 = keyPath2
        }

        /// Attaches the subscriber through a key-path-reading subscriber to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
            upstream.subscribe(KeyPathInner(downstream: subscriber, keyPaths: keyPath0, keyPath1, keyPath2))
        }
    }
}

/// The subscriber of the key-path `map` operators: it reads its one, two or three key paths from each
/// value on its way downstream, and passes the subscription and the completion through.
@usableFromInline
struct KeyPathInner<Downstream: Subscriber, Root, each Value>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == (repeat each Value) {
    @usableFromInline
    let downstream: Downstream

    @usableFromInline
    let keyPaths: (repeat KeyPath<Root, each Value>)

    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream, keyPaths: repeat KeyPath<Root, each Value>) {
        self.downstream = downstream
        self.keyPaths = (repeat each keyPaths)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Root) -> Subscribers.Demand {
        downstream.receive((repeat input[keyPath: each keyPaths]))
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        downstream.receive(completion: completion)
    }

    /// The key paths as Combine's mirror labels them: `keyPath` when there is one, otherwise
    /// `keyPath0`, `keyPath1`...
    @usableFromInline
    var labelledKeyPaths: [Mirror.Child] {
        var children: [Mirror.Child] = []
        for keyPath in repeat each keyPaths {
            children.append((label: "keyPath\(children.count)", value: keyPath))
        }
        if children.count == 1 { children[0].label = "keyPath" }
        return children
    }

    /// What Combine prints for this subscriber.
    @usableFromInline
    var description: String { labelledKeyPaths.count == 1 ? "ValueForKey" : "ValueForKeys" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: labelledKeyPaths) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
