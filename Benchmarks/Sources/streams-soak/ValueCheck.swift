/// What a ``CheckedSubscriber`` checks in the values it receives: one value at a time as it arrives,
/// and the whole run when the subscriber receives its completion.
protocol ValueCheck {
    /// The kind of values checked.
    associatedtype Input

    /// Checks a value that just arrived; returns what is wrong with it, or nil.
    mutating func check(_ input: Input) -> String?

    /// Checks the whole run when the publisher finished; returns what is wrong, or nil.
    func checkFinished() -> String?
}

/// Checks nothing in the values themselves: for `objectWillChange`-style signals, which carry no
/// value; the subscriber still counts them and checks their delivery.
struct SignalCheck: ValueCheck {
    /// Nothing to check in a signal.
    mutating func check(_ input: Void) -> String? {
        nil
    }

    /// Nothing to check at the end.
    func checkFinished() -> String? {
        nil
    }
}
