/// A write of the script, with the words the comparison table shows for it.
public struct ScriptedWrite: Sendable {
    /// What the write does, in words.
    public var label: String
    /// The write.
    public var write: MailWrite

    /// Creates a scripted write.
    ///
    /// - Parameters:
    ///   - label: What the write does, in words.
    ///   - write: The write.
    public init(_ label: String, _ write: MailWrite) {
        self.label = label
        self.write = write
    }
}
