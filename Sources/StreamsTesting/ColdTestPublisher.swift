public import Streams

/// A publisher that plays its script of events anew for each subscriber, at virtual times counted
/// from that subscription on a ``TestScheduler``, and records what its subscribers ask of it.
///
/// A cold publisher stands for work that starts when someone subscribes — a network request, a
/// database query, a file read — in tests of code that subscribes to such work, perhaps more than
/// once. An event at `.milliseconds(300)` in its script happens 300 milliseconds after each
/// subscription, to that subscriber only.
///
/// It respects back-pressure: a value that falls due while its subscriber has no demand waits in a
/// buffer, and buffered values are delivered, in order, as soon as demand arrives. The completion
/// waits behind the buffered values too, so a subscriber always sees the whole script, in order,
/// as fast as its demand allows.
///
/// For example, a profile loader tries a request up to three times:
///
/// ```swift
/// struct Timeout: Error, Equatable {}
///
/// func loadProfile<P: Publisher<String, Timeout>>(_ request: P) -> AnyPublisher<String, Timeout> {
///     request.retry(2).eraseToAnyPublisher()
/// }
/// ```
///
/// A test plays a request that sends a cached copy and then times out. Each attempt plays the
/// script from its own start, so the test can check exactly when each attempt began and ended:
///
/// ```swift
/// @Test func triesThreeTimesThenGivesUp() {
///     let scheduler = DispatchQueue.test
///     let request = scheduler.createColdPublisher([
///         .value("cached", at: .milliseconds(100)),
///         .failure(Timeout(), at: .milliseconds(500)),
///     ])
///
///     let profile = scheduler.record(loadProfile(request))
///     scheduler.advance(by: .seconds(5))
///
///     #expect(profile.events == [
///         .subscription(at: .zero),
///         .value("cached", at: .milliseconds(100)),
///         .value("cached", at: .milliseconds(600)),
///         .value("cached", at: .milliseconds(1100)),
///         .failure(Timeout(), at: .milliseconds(1500)),
///     ])
///     #expect(request.subscriptions.map(\.subscribed) == [.zero, .milliseconds(500), .seconds(1)])
/// }
/// ```
///
/// And a test of back-pressure asks for one value at a time and sees the rest wait:
///
/// ```swift
/// @Test func valuesWaitForDemand() {
///     let scheduler = DispatchQueue.test
///     let numbers = scheduler.createColdPublisher([
///         .value(1, at: .seconds(1)),
///         .value(2, at: .seconds(2)),
///         .finished(at: .seconds(3)),
///     ])
///     let recorder = scheduler.record(numbers, initialDemand: .max(1))
///     recorder.request(.max(1), at: .seconds(5))
///     scheduler.advance(by: .seconds(10))
///
///     #expect(recorder.events == [
///         .subscription(at: .zero),
///         .value(1, at: .seconds(1)),
///         .value(2, at: .seconds(5)),
///         .finished(at: .seconds(5)),
///     ])
///     #expect(numbers.subscriptions == [
///         RecordedSubscription(
///             subscribed: .zero,
///             demands: [.demand(.max(1), at: .zero), .demand(.max(1), at: .seconds(5))]
///         ),
///     ])
/// }
/// ```
///
/// The rules:
/// - A subscriber receives its subscription at once, when it subscribes; then each event of the
///   script is an action on the test scheduler at the subscription's time plus the event's time.
///   Events due at the same instant happen in script order, and even an event at `.zero` happens at
///   the next advance, never inside `subscribe`.
/// - Values wait for demand, as described above; nothing reaches a subscriber after it cancels, and
///   what it had not received yet is discarded.
/// - ``subscriptions`` records, for each subscriber, when it subscribed, each demand and when it
///   cancelled (see ``RecordedSubscription``).
///
/// The script may hold values and at most one completion, which must come last; times may not be
/// negative. A script that breaks these rules fails the running test with a message saying which,
/// and plays only the events before the first that breaks one.
///
/// Use ``HotTestPublisher`` for a source that goes on whether or not anyone listens.
public final class ColdTestPublisher<Output, Failure: Error, SchedulerTimeType: Strideable>: Publisher,
    // @unchecked: every mutable stored property below is guarded by `lock`; the rest is immutable.
    @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {

    /// A stride of the scheduler's time: the type of every time in the script and the records.
    public typealias Stride = SchedulerTimeType.Stride

    /// One event of the script, at a time since the subscription.
    public typealias Event = Recorded<Stride, TestEvent<Output, Failure>>

    /// The events this publisher plays to each subscriber, as it was given them.
    public let script: [Event]

    private let clock: VirtualClock<SchedulerTimeType>
    private let lock = Lock()
    private var all: [ScriptedSubscription<Output, Failure, SchedulerTimeType>] = []

    /// Creates a cold publisher that plays `script` on `scheduler` for each subscriber, counting from
    /// its subscription.
    ///
    /// `TestScheduler.createColdPublisher(_:)` is a shorter way to say the same.
    ///
    /// A script that breaks the rules fails the running test at the line that creates the publisher.
    ///
    /// - Parameters:
    ///   - scheduler: The test scheduler whose virtual time drives the script.
    ///   - script: The events to play, each at a time since the subscription.
    ///   - fileID: The file a malformed script is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a malformed script is reported at; leave the default.
    ///   - column: The column a malformed script is reported at; leave the default.
    public init<Options>(
        scheduler: TestScheduler<SchedulerTimeType, Options>, script: [Event],
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        self.script = playableScript(
            script, publisher: "ColdTestPublisher",
            at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
        clock = VirtualClock(scheduler)
    }

    /// Creates a cold publisher that plays `script` on `scheduler` for each subscriber; the form of
    /// ``init(scheduler:script:fileID:filePath:line:column:)`` without a source location, which reports
    /// a script that breaks the rules in StreamsTesting's source rather than the caller's.
    ///
    /// - Parameters:
    ///   - scheduler: The test scheduler whose virtual time drives the script.
    ///   - script: The events to play, each at a time since the subscription.
    @_disfavoredOverload
    public init<Options>(scheduler: TestScheduler<SchedulerTimeType, Options>, script: [Event]) {
        self.script = playableScript(script, publisher: "ColdTestPublisher", at: .here())
        clock = VirtualClock(scheduler)
    }

    /// What each subscriber asked, in the order they subscribed; times count from the scheduler's
    /// start.
    public var subscriptions: [RecordedSubscription<Stride>] {
        lock.withLock { all }.map(\.recorded)
    }

    /// Gives `subscriber` a subscription at once, and schedules the script for it from now.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = ScriptedSubscription(
            name: "ColdTestPublisher", publisher: self, subscriber: AnySubscriber(subscriber), clock: clock,
            backlog: .buffer)
        lock.withLock { all.append(subscription) }
        let start = clock.elapsed
        for event in script {
            clock.schedule(atElapsed: start + event.time) { [weak subscription] in
                switch event.value {
                case .subscription: break
                case .value(let value): subscription?.send(value)
                case .completion(let completion): subscription?.send(completion: completion)
                }
            }
        }
        subscription.start()
    }
}

extension TestScheduler {
    /// Creates a ``ColdTestPublisher`` that plays `script` on this scheduler for each subscriber,
    /// each event at its time since that subscription.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let response = scheduler.createColdPublisher([
    ///     .value("data", at: .milliseconds(200)),
    ///     .finished(at: .milliseconds(200)),
    /// ])
    /// scheduler.advance(by: .seconds(1))
    /// let recorder = scheduler.record(response)
    /// scheduler.advance(by: .seconds(1))
    /// #expect(recorder.events == [
    ///     .subscription(at: .seconds(1)),
    ///     .value("data", at: .milliseconds(1200)),
    ///     .finished(at: .milliseconds(1200)),
    /// ])
    /// ```
    ///
    /// The output type is inferred from the script's values or from the context; a script with no
    /// values names it with `outputType`, as in `createColdPublisher([.finished(at: .seconds(1))],
    /// outputType: Int.self)`. The failure type is inferred from a `.failure` event or from the
    /// context; this overload is for scripts that cannot fail.
    ///
    /// - Parameters:
    ///   - script: The events to play, each at a time since the subscription.
    ///   - outputType: The publisher's output type, when the script does not show it.
    ///   - fileID: The file a script that breaks the rules is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a script that breaks the rules is reported at; leave the default.
    ///   - column: The column a script that breaks the rules is reported at; leave the default.
    /// - Returns: The publisher.
    public func createColdPublisher<Output>(
        _ script: [Recorded<SchedulerTimeType.Stride, TestEvent<Output, Never>>],
        outputType: Output.Type = Output.self,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> ColdTestPublisher<Output, Never, SchedulerTimeType> {
        ColdTestPublisher(
            scheduler: self, script: script, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// The form of ``createColdPublisher(_:outputType:fileID:filePath:line:column:)`` without a source
    /// location, kept for compatibility: a script that breaks the rules is reported in StreamsTesting's
    /// source rather than the caller's.
    ///
    /// - Parameters:
    ///   - script: The events to play, each at a time since the subscription.
    ///   - outputType: The publisher's output type, when the script does not show it.
    /// - Returns: The publisher.
    @_disfavoredOverload
    public func createColdPublisher<Output>(
        _ script: [Recorded<SchedulerTimeType.Stride, TestEvent<Output, Never>>],
        outputType: Output.Type = Output.self
    ) -> ColdTestPublisher<Output, Never, SchedulerTimeType> {
        createColdPublisher(script, outputType: outputType)
    }

    /// Creates a ``ColdTestPublisher`` that can fail, and plays `script` on this scheduler for each
    /// subscriber, each event at its time since that subscription.
    ///
    /// ```swift
    /// struct Timeout: Error, Equatable {}
    /// let request = scheduler.createColdPublisher([
    ///     .value("partial", at: .seconds(1)),
    ///     .failure(Timeout(), at: .seconds(30)),
    /// ])
    /// // Or, with a script that does not say how it fails:
    /// let fast = scheduler.createColdPublisher([.value(1, at: .zero)], failureType: Timeout.self)
    /// ```
    ///
    /// - Parameters:
    ///   - script: The events to play, each at a time since the subscription.
    ///   - outputType: The publisher's output type, when the script does not show it.
    ///   - failureType: The publisher's failure type, when the script does not show it.
    ///   - fileID: The file a script that breaks the rules is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a script that breaks the rules is reported at; leave the default.
    ///   - column: The column a script that breaks the rules is reported at; leave the default.
    /// - Returns: The publisher.
    public func createColdPublisher<Output, Failure: Error>(
        _ script: [Recorded<SchedulerTimeType.Stride, TestEvent<Output, Failure>>],
        outputType: Output.Type = Output.self,
        failureType: Failure.Type = Failure.self,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> ColdTestPublisher<Output, Failure, SchedulerTimeType> {
        ColdTestPublisher(
            scheduler: self, script: script, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// The form of ``createColdPublisher(_:outputType:failureType:fileID:filePath:line:column:)`` without a
    /// source location, kept for compatibility: a script that breaks the rules is reported in
    /// StreamsTesting's source rather than the caller's.
    ///
    /// - Parameters:
    ///   - script: The events to play, each at a time since the subscription.
    ///   - outputType: The publisher's output type, when the script does not show it.
    ///   - failureType: The publisher's failure type, when the script does not show it.
    /// - Returns: The publisher.
    @_disfavoredOverload
    public func createColdPublisher<Output, Failure: Error>(
        _ script: [Recorded<SchedulerTimeType.Stride, TestEvent<Output, Failure>>],
        outputType: Output.Type = Output.self,
        failureType: Failure.Type = Failure.self
    ) -> ColdTestPublisher<Output, Failure, SchedulerTimeType> {
        createColdPublisher(script, outputType: outputType, failureType: failureType)
    }
}
