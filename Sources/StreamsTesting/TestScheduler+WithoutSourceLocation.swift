/// The advancing methods as 0.1.0 declared them, without the caller's source location: kept so that
/// code built against them still builds. Calls that name no location pick the forms that take one
/// (these are disfavored), which report misuse at the caller's line.
extension TestScheduler {
    /// The form of `advance(by:fileID:filePath:line:column:)` without a source location, kept
    /// for compatibility: a negative stride is reported in StreamsTesting's source rather than the
    /// caller's.
    ///
    /// - Parameter stride: How far to move the clock; `.zero` runs only what is already due.
    @_disfavoredOverload
    public func advance(by stride: SchedulerTimeType.Stride = .zero) {
        advance(by: stride, at: .here())
    }

    /// The form of `advance(to:fileID:filePath:line:column:)` without a source location, kept
    /// for compatibility: misuse found by the actions it runs is reported in StreamsTesting's source
    /// rather than the caller's.
    ///
    /// - Parameter instant: The instant to move the clock to; ``now`` runs only what is already due.
    @_disfavoredOverload
    public func advance(to instant: SchedulerTimeType) {
        advance(to: instant, at: .here())
    }

    /// The form of `run(fileID:filePath:line:column:)` without a source location, kept for
    /// compatibility: a run that never ends is reported in StreamsTesting's source rather than the
    /// caller's.
    @_disfavoredOverload
    public func run() {
        run(at: .here())
    }

    /// The form of `advance(by:fileID:filePath:line:column:)` without a source location, kept
    /// for compatibility: a negative stride is reported in StreamsTesting's source rather than the
    /// caller's.
    ///
    /// - Parameter stride: How far to move the clock; `.zero` runs only what is already due.
    @_disfavoredOverload
    @MainActor
    public func advance(by stride: SchedulerTimeType.Stride = .zero) async {
        await advance(by: stride, at: .here())
    }

    /// The form of `advance(to:fileID:filePath:line:column:)` without a source location, kept
    /// for compatibility: misuse found by the actions it runs is reported in StreamsTesting's source
    /// rather than the caller's.
    ///
    /// - Parameter instant: The instant to move the clock to; ``now`` runs only what is already due.
    @_disfavoredOverload
    @MainActor
    public func advance(to instant: SchedulerTimeType) async {
        await advance(to: instant, at: .here())
    }

    /// The form of `run(fileID:filePath:line:column:)` without a source location, kept for
    /// compatibility: a run that never ends is reported in StreamsTesting's source rather than the
    /// caller's.
    @_disfavoredOverload
    @MainActor
    public func run() async {
        await run(at: .here())
    }
}
