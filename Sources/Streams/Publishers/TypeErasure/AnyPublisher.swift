/// A publisher that performs type erasure by wrapping another publisher.
///
/// Use `AnyPublisher` at API boundaries so callers see only the output and failure types, not the
/// chain of operators behind them:
///
/// ```swift
/// var title: AnyPublisher<String, Never> {
///     store.map(\.title).removeDuplicates().eraseToAnyPublisher()
/// }
/// ```
@frozen
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    let box: AnyPublisherBase<Output, Failure>

    /// Creates a type-erasing publisher to wrap the provided publisher.
    ///
    /// - Parameter publisher: A publisher to wrap with a type-eraser.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where Output == P.Output, Failure == P.Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            self = erased
            return
        }
        box = AnyPublisherBox(publisher)
    }

    /// Attaches the subscriber to the wrapped publisher.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        box.receive(subscriber: subscriber)
    }

    /// `AnyPublisher`.
    public var description: String { "AnyPublisher" }

    /// The same as ``description``.
    public var playgroundDescription: Any { description }
}

extension AnyPublisher: TimelineNamedPublisher {
    /// The name of the publisher it erases.
    @usableFromInline
    var timelineName: String { box.timelineName }
}

extension Publisher {
    /// Wraps this publisher with a type eraser.
    ///
    /// - Returns: An ``AnyPublisher`` wrapping this publisher.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}

extension AnyPublisher {
    /// Returns this publisher: it is already type-erased.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        self
    }
}

/// The class the boxes of ``AnyPublisher`` inherit from.
@usableFromInline
class AnyPublisherBase<Output, Failure: Error> {
    @inlinable
    init() {}

    @inlinable
    func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        preconditionFailure("AnyPublisherBase.receive(subscriber:) must be overridden")
    }

    /// The name a timeline gives the publisher it holds.
    var timelineName: String { "AnyPublisher" }
}

/// Holds a concrete publisher.
@usableFromInline
final class AnyPublisherBox<Base: Publisher>: AnyPublisherBase<Base.Output, Base.Failure> {
    @usableFromInline
    let base: Base

    @inlinable
    init(_ base: Base) {
        self.base = base
    }

    @inlinable
    override func receive<S: Subscriber>(subscriber: S) where Base.Output == S.Input, Base.Failure == S.Failure {
        base.subscribe(subscriber)
    }

    override var timelineName: String { Streams.timelineName(of: base) }
}
