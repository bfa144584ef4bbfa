/// The publishers a ``SubjectBroadcaster`` serves.
@usableFromInline
enum SubjectKind: UInt8, Sendable {
    /// A ``PassthroughSubject``.
    case passthrough
    /// A ``CurrentValueSubject``.
    case currentValue
    /// The publisher of a `@Published` property.
    case published
    /// An ``ObservableObjectPublisher``: it delivers to every subscriber whatever its demand.
    case observableObject

    /// How a subscription to such a publisher describes itself.
    @usableFromInline
    var subscriptionDescription: String {
        switch self {
        case .passthrough: "PassthroughSubject"
        case .currentValue: "CurrentValueSubject"
        case .published: "PublishedSubject"
        case .observableObject: "ObservableObjectPublisher"
        }
    }
}

extension SubjectBroadcaster: CustomStringConvertible {
    /// The subject's type, as a subscription's mirror shows the subject it belongs to: the broadcaster
    /// is the state the subject's subscriptions share, and they reflect it as their `parent` and
    /// `subject`.
    @usableFromInline
    var description: String {
        switch kind {
        case .passthrough: String(reflecting: PassthroughSubject<Output, Failure>.self)
        case .currentValue: String(reflecting: CurrentValueSubject<Output, Failure>.self)
        case .published: "PublishedSubject<\(String(reflecting: Output.self))>"
        case .observableObject: String(reflecting: ObservableObjectPublisher.self)
        }
    }
}
