/// The error ``TestClock/checkSuspension()`` throws while a sleep is still waiting on the clock.
public struct SuspensionError: Error {
    /// Creates the error.
    public init() {}
}
