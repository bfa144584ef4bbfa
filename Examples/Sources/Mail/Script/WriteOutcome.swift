/// Who woke for one write: the observers of slices, and the same observers subscribed to the whole
/// state.
public struct WriteOutcome: Sendable {
    /// The write, with its label.
    public var write: ScriptedWrite
    /// The wakes among the observers of slices.
    public var slicing: Wakes
    /// The wakes among the observers of the whole state.
    public var wholeState: Wakes

    /// Creates an outcome.
    ///
    /// - Parameters:
    ///   - write: The write, with its label.
    ///   - slicing: The wakes among the observers of slices.
    ///   - wholeState: The wakes among the observers of the whole state.
    public init(write: ScriptedWrite, slicing: Wakes, wholeState: Wakes) {
        self.write = write
        self.slicing = slicing
        self.wholeState = wholeState
    }
}
