/// Why a ``TimelineRecorder`` could not be made, or could not write its trace.
public enum TimelineError: Error, Equatable, CustomStringConvertible {
    /// A recorder keeps at least one event: the capacity asked for was this.
    case capacityNotPositive(Int)
    /// A recorder keeps at least one character of each value's description: the limit asked for was
    /// this.
    case valueLengthLimitNotPositive(Int)
    /// The trace file could not be written at this path, for this reason.
    case cannotWrite(path: String, reason: String)

    /// The error in a sentence.
    public var description: String {
        switch self {
        case .capacityNotPositive(let capacity):
            "a timeline recorder needs a capacity of at least 1 event, got \(capacity)"
        case .valueLengthLimitNotPositive(let limit):
            "a timeline recorder needs a value length limit of at least 1 character, got \(limit)"
        case .cannotWrite(let path, let reason):
            "cannot write the timeline's trace to \(path): \(reason)"
        }
    }
}
