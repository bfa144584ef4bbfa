/// An observer's identity: what it shows, how it subscribes, and which of the observers with those
/// two it is.
public struct ObserverID: Hashable, Sendable {
    /// The part of the state the observer shows.
    public var part: MailPart
    /// How the observer subscribes to its part.
    public var way: ObservationWay
    /// Which of the observers with the same part and way this one is, from 0.
    public var copy: Int

    /// Creates an identity.
    ///
    /// - Parameters:
    ///   - part: The part of the state the observer shows.
    ///   - way: How the observer subscribes to its part.
    ///   - copy: Which of the observers with the same part and way this one is, from 0.
    public init(part: MailPart, way: ObservationWay, copy: Int) {
        self.part = part
        self.way = way
        self.copy = copy
    }
}
