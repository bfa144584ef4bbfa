extension Publisher {
    /// Raises a fatal error when its upstream publisher fails, and otherwise republishes all received
    /// input.
    ///
    /// Use it for internal integrity checks that are active in both debug and release builds: values
    /// and a normal completion pass through unchanged, and a failure stops the program with a message
    /// made of `prefix`, the error, `file` and `line`.
    ///
    /// ```swift
    /// struct BadNumber: Error {}
    /// let subject = PassthroughSubject<Int, BadNumber>()
    /// let cancellable = subject
    ///     .assertNoFailure("numbers")
    ///     .sink { print($0) }
    /// subject.send(1)
    /// subject.send(completion: .failure(BadNumber()))
    /// // Prints: 1
    /// // Then stops with: Fatal error: numbers: BadNumber()
    /// ```
    ///
    /// - Parameters:
    ///   - prefix: A string used at the beginning of the fatal error message.
    ///   - file: A filename used in the error message. This defaults to `#file`.
    ///   - line: A line number used in the error message. This defaults to `#line`.
    /// - Returns: A publisher that raises a fatal error when its upstream publisher fails.
    @inlinable
    public func assertNoFailure(
        _ prefix: String = "", file: StaticString = #file, line: UInt = #line
    ) -> Publishers.AssertNoFailure<Self> {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}

extension Publishers {
    /// A publisher that raises a fatal error upon receiving any failure, and otherwise republishes
    /// all received input.
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: it stops the program instead of failing.
        public typealias Failure = Never

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The string used at the beginning of the fatal error message.
        public let prefix: String

        /// The filename used in the error message.
        public let file: StaticString

        /// The line number used in the error message.
        public let line: UInt

        /// Creates a publisher that raises a fatal error upon receiving any failure, and otherwise
        /// republishes all received input.
        ///
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - prefix: The string used at the beginning of the fatal error message.
        ///   - file: The filename used in the error message.
        ///   - line: The line number used in the error message.
        @inlinable
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        /// Attaches the subscriber through a subscriber that stops the program on failure.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == Never {
            upstream.subscribe(Inner(downstream: subscriber, prefix: prefix, file: file, line: line))
        }
    }
}

extension Publishers.AssertNoFailure {
    /// The subscriber that passes everything through and turns a failure into a fatal error.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Never {
        @usableFromInline
        let downstream: Downstream

        @usableFromInline
        let prefix: String

        @usableFromInline
        let file: StaticString

        @usableFromInline
        let line: UInt

        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, prefix: String, file: StaticString, line: UInt) {
            self.downstream = downstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            switch completion {
            case .finished:
                downstream.receive(completion: .finished)
            case .failure(let error):
                let lead = prefix.isEmpty ? "" : prefix + ": "
                fatalError("\(lead)\(error)", file: file, line: line)
            }
        }

        @usableFromInline
        var description: String { "AssertNoFailure" }

        @usableFromInline
        var customMirror: Mirror {
            Mirror(self, children: ["file": file, "line": line, "prefix": prefix])
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
