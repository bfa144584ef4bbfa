public import Streams

/// The marble publishers as 0.1.0 declared them, without the caller's source location: kept so that
/// code built against them still builds. Calls that name no location pick the forms that take one
/// (these are disfavored), which report a malformed diagram at the caller's line.
extension TestScheduler {
    /// The form of ``createColdPublisher(marbles:values:frame:fileID:filePath:line:column:)`` without a
    /// source location, kept for compatibility: a malformed diagram is reported in StreamsTesting's source
    /// rather than the caller's.
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from each subscription.
    ///   - values: The value each value character stands for.
    ///   - frame: How long each character lasts.
    /// - Returns: The publisher.
    @_disfavoredOverload
    public func createColdPublisher<Output>(
        marbles: String, values: [Character: Output], frame: SchedulerTimeType.Stride = .seconds(1)
    ) -> ColdTestPublisher<Output, Never, SchedulerTimeType> {
        createColdPublisher(marbles: marbles, values: values, frame: frame)
    }

    /// The form of ``createColdPublisher(marbles:values:error:frame:fileID:filePath:line:column:)`` without a
    /// source location, kept for compatibility: a malformed diagram is reported in StreamsTesting's source
    /// rather than the caller's.
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from each subscription.
    ///   - values: The value each value character stands for.
    ///   - error: What `#` fails with.
    ///   - frame: How long each character lasts.
    /// - Returns: The publisher.
    @_disfavoredOverload
    public func createColdPublisher<Output, Failure: Error>(
        marbles: String, values: [Character: Output], error: Failure,
        frame: SchedulerTimeType.Stride = .seconds(1)
    ) -> ColdTestPublisher<Output, Failure, SchedulerTimeType> {
        createColdPublisher(marbles: marbles, values: values, error: error, frame: frame)
    }

    /// The form of ``createColdPublisher(marbles:frame:fileID:filePath:line:column:)`` without a source
    /// location, kept for compatibility: a malformed diagram is reported in StreamsTesting's source rather
    /// than the caller's.
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from each subscription.
    ///   - frame: How long each character lasts.
    /// - Returns: The publisher.
    @_disfavoredOverload
    public func createColdPublisher(
        marbles: String, frame: SchedulerTimeType.Stride = .seconds(1)
    ) -> ColdTestPublisher<String, Never, SchedulerTimeType> {
        createColdPublisher(marbles: marbles, frame: frame)
    }

    /// The form of ``createColdPublisher(marbles:error:frame:fileID:filePath:line:column:)`` without a source
    /// location, kept for compatibility: a malformed diagram is reported in StreamsTesting's source rather
    /// than the caller's.
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from each subscription.
    ///   - error: What `#` fails with.
    ///   - frame: How long each character lasts.
    /// - Returns: The publisher.
    @_disfavoredOverload
    public func createColdPublisher<Failure: Error>(
        marbles: String, error: Failure, frame: SchedulerTimeType.Stride = .seconds(1)
    ) -> ColdTestPublisher<String, Failure, SchedulerTimeType> {
        createColdPublisher(marbles: marbles, error: error, frame: frame)
    }

    /// The form of ``createColdPublisher(marbles:outputType:frame:fileID:filePath:line:column:)`` without a
    /// source location, kept for compatibility: a malformed diagram is reported in StreamsTesting's source
    /// rather than the caller's.
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from each subscription.
    ///   - outputType: The type each value character is read as, with `init?(_: String)`.
    ///   - frame: How long each character lasts.
    /// - Returns: The publisher.
    @_disfavoredOverload
    public func createColdPublisher<Output: LosslessStringConvertible>(
        marbles: String, outputType: Output.Type, frame: SchedulerTimeType.Stride = .seconds(1)
    ) -> ColdTestPublisher<Output, Never, SchedulerTimeType> {
        createColdPublisher(marbles: marbles, outputType: outputType, frame: frame)
    }

    /// The form of ``createColdPublisher(marbles:outputType:error:frame:fileID:filePath:line:column:)``
    /// without a source location, kept for compatibility: a malformed diagram is reported in StreamsTesting's
    /// source rather than the caller's.
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from each subscription.
    ///   - outputType: The type each value character is read as, with `init?(_: String)`.
    ///   - error: What `#` fails with.
    ///   - frame: How long each character lasts.
    /// - Returns: The publisher.
    @_disfavoredOverload
    public func createColdPublisher<Output: LosslessStringConvertible, Failure: Error>(
        marbles: String, outputType: Output.Type, error: Failure, frame: SchedulerTimeType.Stride = .seconds(1)
    ) -> ColdTestPublisher<Output, Failure, SchedulerTimeType> {
        createColdPublisher(marbles: marbles, outputType: outputType, error: error, frame: frame)
    }

    /// The form of ``createHotPublisher(marbles:values:frame:fileID:filePath:line:column:)`` without a source
    /// location, kept for compatibility: a malformed diagram is reported in StreamsTesting's source rather
    /// than the caller's.
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from `^` or from the scheduler's start.
    ///   - values: The value each value character stands for.
    ///   - frame: How long each character lasts.
    /// - Returns: The publisher, already playing.
    @_disfavoredOverload
    public func createHotPublisher<Output>(
        marbles: String, values: [Character: Output], frame: SchedulerTimeType.Stride = .seconds(1)
    ) -> HotTestPublisher<Output, Never, SchedulerTimeType> {
        createHotPublisher(marbles: marbles, values: values, frame: frame)
    }

    /// The form of ``createHotPublisher(marbles:values:error:frame:fileID:filePath:line:column:)`` without a
    /// source location, kept for compatibility: a malformed diagram is reported in StreamsTesting's source
    /// rather than the caller's.
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from `^` or from the scheduler's start.
    ///   - values: The value each value character stands for.
    ///   - error: What `#` fails with.
    ///   - frame: How long each character lasts.
    /// - Returns: The publisher, already playing.
    @_disfavoredOverload
    public func createHotPublisher<Output, Failure: Error>(
        marbles: String, values: [Character: Output], error: Failure,
        frame: SchedulerTimeType.Stride = .seconds(1)
    ) -> HotTestPublisher<Output, Failure, SchedulerTimeType> {
        createHotPublisher(marbles: marbles, values: values, error: error, frame: frame)
    }

    /// The form of ``createHotPublisher(marbles:frame:fileID:filePath:line:column:)`` without a source
    /// location, kept for compatibility: a malformed diagram is reported in StreamsTesting's source rather
    /// than the caller's.
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from `^` or from the scheduler's start.
    ///   - frame: How long each character lasts.
    /// - Returns: The publisher, already playing.
    @_disfavoredOverload
    public func createHotPublisher(
        marbles: String, frame: SchedulerTimeType.Stride = .seconds(1)
    ) -> HotTestPublisher<String, Never, SchedulerTimeType> {
        createHotPublisher(marbles: marbles, frame: frame)
    }

    /// The form of ``createHotPublisher(marbles:error:frame:fileID:filePath:line:column:)`` without a source
    /// location, kept for compatibility: a malformed diagram is reported in StreamsTesting's source rather
    /// than the caller's.
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from `^` or from the scheduler's start.
    ///   - error: What `#` fails with.
    ///   - frame: How long each character lasts.
    /// - Returns: The publisher, already playing.
    @_disfavoredOverload
    public func createHotPublisher<Failure: Error>(
        marbles: String, error: Failure, frame: SchedulerTimeType.Stride = .seconds(1)
    ) -> HotTestPublisher<String, Failure, SchedulerTimeType> {
        createHotPublisher(marbles: marbles, error: error, frame: frame)
    }

    /// The form of ``createHotPublisher(marbles:outputType:frame:fileID:filePath:line:column:)`` without a
    /// source location, kept for compatibility: a malformed diagram is reported in StreamsTesting's source
    /// rather than the caller's.
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from `^` or from the scheduler's start.
    ///   - outputType: The type each value character is read as, with `init?(_: String)`.
    ///   - frame: How long each character lasts.
    /// - Returns: The publisher, already playing.
    @_disfavoredOverload
    public func createHotPublisher<Output: LosslessStringConvertible>(
        marbles: String, outputType: Output.Type, frame: SchedulerTimeType.Stride = .seconds(1)
    ) -> HotTestPublisher<Output, Never, SchedulerTimeType> {
        createHotPublisher(marbles: marbles, outputType: outputType, frame: frame)
    }

    /// The form of ``createHotPublisher(marbles:outputType:error:frame:fileID:filePath:line:column:)``
    /// without a source location, kept for compatibility: a malformed diagram is reported in StreamsTesting's
    /// source rather than the caller's.
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from `^` or from the scheduler's start.
    ///   - outputType: The type each value character is read as, with `init?(_: String)`.
    ///   - error: What `#` fails with.
    ///   - frame: How long each character lasts.
    /// - Returns: The publisher, already playing.
    @_disfavoredOverload
    public func createHotPublisher<Output: LosslessStringConvertible, Failure: Error>(
        marbles: String, outputType: Output.Type, error: Failure, frame: SchedulerTimeType.Stride = .seconds(1)
    ) -> HotTestPublisher<Output, Failure, SchedulerTimeType> {
        createHotPublisher(marbles: marbles, outputType: outputType, error: error, frame: frame)
    }
}
