/// A value sent during the soak: the sender thread that sent it and its place in that thread's
/// sequence (0, 1, 2, ...), so a subscriber can check that each sender's values keep their order and
/// that none is missing.
struct Stamp: Hashable, Sendable {
    /// The sender thread, from 0.
    let sender: Int
    /// The value's place in its sender's sequence.
    let sequence: Int
}
