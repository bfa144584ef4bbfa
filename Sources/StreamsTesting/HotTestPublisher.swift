public import Streams

/// A publisher that plays a script of events at fixed virtual times on a ``TestScheduler``, whether
/// or not anyone is subscribed, and records what its subscribers ask of it.
///
/// A hot publisher stands for a source that lives on its own — a sensor, a notification, a user
/// typing, a socket — in tests of code that subscribes to such a source. Its script's times count
/// from the scheduler's ``TestScheduler/startTime``: an event at `.seconds(2)` happens when the
/// test's virtual clock shows two seconds, to whoever is subscribed then. A subscriber that arrives
/// late misses what happened before it.
///
/// For example, a thermostat model shows each reading from a sensor while it is connected, flagging
/// readings that are too hot:
///
/// ```swift
/// final class ThermostatModel {
///     private(set) var readings: [String] = []
///     private var cancellable: AnyCancellable?
///
///     func connect<P: Publisher<Double, Never>>(to sensor: P) {
///         cancellable = sensor
///             .map { $0 > 30 ? "\($0)° too hot" : "\($0)°" }
///             .sink { [weak self] in self?.readings.append($0) }
///     }
///
///     func disconnect() {
///         cancellable = nil
///     }
/// }
/// ```
///
/// A test plays a sensor that reports every second, connects between two readings and disconnects
/// between two others, then checks both what the model showed and how it used the sensor:
///
/// ```swift
/// @Test func showsReadingsOnlyWhileConnected() {
///     let scheduler = DispatchQueue.test
///     let sensor = scheduler.createHotPublisher([
///         .value(21.5, at: .seconds(1)),
///         .value(31.0, at: .seconds(2)),
///         .value(29.0, at: .seconds(3)),
///         .value(25.0, at: .seconds(4)),
///     ])
///     let model = ThermostatModel()
///
///     scheduler.advance(by: .milliseconds(1500))  // the reading at 1s reaches no one
///     model.connect(to: sensor)
///     scheduler.advance(by: .seconds(2))
///     model.disconnect()
///     scheduler.advance(by: .seconds(10))
///
///     #expect(model.readings == ["31.0° too hot", "29.0°"])
///     #expect(sensor.subscriptions == [
///         RecordedSubscription(
///             subscribed: .milliseconds(1500),
///             demands: [.demand(.unlimited, at: .milliseconds(1500))],
///             cancelled: .milliseconds(3500)
///         ),
///     ])
/// }
/// ```
///
/// The rules:
/// - Each event of the script is an action on the test scheduler at `startTime + time`; events due at
///   the same instant happen in script order. A time the clock has already passed when the publisher
///   is created happens at the next advance.
/// - A subscriber receives its subscription at once, when it subscribes.
/// - A value goes to every subscriber that has demand for it; a subscriber without demand misses it,
///   as with a `PassthroughSubject`.
/// - The completion goes to every subscriber, whatever its demand. A subscriber that arrives after
///   the completion receives its subscription and then the completion at once.
/// - Nothing reaches a subscriber after it cancels.
/// - ``subscriptions`` records, for each subscriber, when it subscribed, each demand and when it
///   cancelled (see ``RecordedSubscription``).
///
/// The script may hold values and at most one completion, which must come last; times may not be
/// negative. A script that breaks these rules fails the running test with a message saying which,
/// and plays only the events before the first that breaks one.
///
/// Use ``ColdTestPublisher`` for a source that starts over for each subscriber, such as a request.
public final class HotTestPublisher<Output, Failure: Error, SchedulerTimeType: Strideable>: Publisher,
    // @unchecked: every mutable stored property below is guarded by `lock`; the rest is immutable.
    @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {

    /// A stride of the scheduler's time: the type of every time in the script and the records.
    public typealias Stride = SchedulerTimeType.Stride

    /// One event of the script, at a time since the scheduler's start.
    public typealias Event = Recorded<Stride, TestEvent<Output, Failure>>

    /// The events this publisher plays, as it was given them.
    public let script: [Event]

    private let clock: VirtualClock<SchedulerTimeType>
    private let lock = Lock()
    private var all: [ScriptedSubscription<Output, Failure, SchedulerTimeType>] = []
    private var completion: Subscribers.Completion<Failure>?

    /// Creates a hot publisher that plays `script` on `scheduler`, counting from the scheduler's
    /// start.
    ///
    /// `TestScheduler.createHotPublisher(_:)` is a shorter way to say the same.
    ///
    /// A script that breaks the rules fails the running test at the line that creates the publisher.
    ///
    /// - Parameters:
    ///   - scheduler: The test scheduler whose virtual time drives the script.
    ///   - script: The events to play, each at a time since the scheduler's start.
    ///   - fileID: The file a malformed script is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a malformed script is reported at; leave the default.
    ///   - column: The column a malformed script is reported at; leave the default.
    public init<Options>(
        scheduler: TestScheduler<SchedulerTimeType, Options>, script: [Event],
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        self.script = playableScript(
            script, publisher: "HotTestPublisher",
            at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
        clock = VirtualClock(scheduler)
        scheduleScript()
    }

    /// Creates a hot publisher that plays `script` on `scheduler`; the form of
    /// ``init(scheduler:script:fileID:filePath:line:column:)`` without a source location, which reports
    /// a script that breaks the rules in StreamsTesting's source rather than the caller's.
    ///
    /// - Parameters:
    ///   - scheduler: The test scheduler whose virtual time drives the script.
    ///   - script: The events to play, each at a time since the scheduler's start.
    @_disfavoredOverload
    public init<Options>(scheduler: TestScheduler<SchedulerTimeType, Options>, script: [Event]) {
        self.script = playableScript(script, publisher: "HotTestPublisher", at: .here())
        clock = VirtualClock(scheduler)
        scheduleScript()
    }

    /// Puts each event of the script on the scheduler, at its time since the scheduler's start.
    private func scheduleScript() {
        for event in script {
            clock.schedule(atElapsed: event.time) { [weak self] in self?.play(event.value) }
        }
    }

    /// What each subscriber asked, in the order they subscribed.
    public var subscriptions: [RecordedSubscription<Stride>] {
        lock.withLock { all }.map(\.recorded)
    }

    /// Gives `subscriber` a subscription at once; after the completion, the completion follows at
    /// once.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = ScriptedSubscription(
            name: "HotTestPublisher", publisher: self, subscriber: AnySubscriber(subscriber), clock: clock,
            backlog: .drop)
        let ended = lock.withLock {
            all.append(subscription)
            return completion
        }
        subscription.start()
        if let ended { subscription.send(completion: ended) }
    }

    private func play(_ event: TestEvent<Output, Failure>) {
        switch event {
        case .subscription:
            break
        case .value(let value):
            for subscription in lock.withLock({ all }) { subscription.send(value) }
        case .completion(let ending):
            let subscribers = lock.withLock {
                completion = ending
                return all
            }
            for subscription in subscribers { subscription.send(completion: ending) }
        }
    }
}

extension TestScheduler {
    /// Creates a ``HotTestPublisher`` that plays `script` on this scheduler, each event at its time
    /// since ``startTime``, whether or not anyone is subscribed.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let taps = scheduler.createHotPublisher([
    ///     .value("tap", at: .seconds(1)),
    ///     .value("tap", at: .seconds(3)),
    /// ])
    /// scheduler.advance(by: .seconds(2))
    /// let recorder = scheduler.record(taps)
    /// scheduler.advance(by: .seconds(2))
    /// #expect(recorder.events == [.subscription(at: .seconds(2)), .value("tap", at: .seconds(3))])
    /// ```
    ///
    /// The output type is inferred from the script's values or from the context; a script with no
    /// values names it with `outputType`, as in `createHotPublisher([.finished(at: .seconds(1))],
    /// outputType: Int.self)`. The failure type is inferred from a `.failure` event or from the
    /// context; this overload is for scripts that cannot fail.
    ///
    /// - Parameters:
    ///   - script: The events to play, each at a time since the scheduler's start.
    ///   - outputType: The publisher's output type, when the script does not show it.
    ///   - fileID: The file a script that breaks the rules is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a script that breaks the rules is reported at; leave the default.
    ///   - column: The column a script that breaks the rules is reported at; leave the default.
    /// - Returns: The publisher, already playing.
    public func createHotPublisher<Output>(
        _ script: [Recorded<SchedulerTimeType.Stride, TestEvent<Output, Never>>],
        outputType: Output.Type = Output.self,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> HotTestPublisher<Output, Never, SchedulerTimeType> {
        HotTestPublisher(
            scheduler: self, script: script, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// The form of ``createHotPublisher(_:outputType:fileID:filePath:line:column:)`` without a source
    /// location, kept for compatibility: a script that breaks the rules is reported in StreamsTesting's
    /// source rather than the caller's.
    ///
    /// - Parameters:
    ///   - script: The events to play, each at a time since the scheduler's start.
    ///   - outputType: The publisher's output type, when the script does not show it.
    /// - Returns: The publisher, already playing.
    @_disfavoredOverload
    public func createHotPublisher<Output>(
        _ script: [Recorded<SchedulerTimeType.Stride, TestEvent<Output, Never>>],
        outputType: Output.Type = Output.self
    ) -> HotTestPublisher<Output, Never, SchedulerTimeType> {
        createHotPublisher(script, outputType: outputType)
    }

    /// Creates a ``HotTestPublisher`` that can fail, and plays `script` on this scheduler, each event
    /// at its time since ``startTime``, whether or not anyone is subscribed.
    ///
    /// ```swift
    /// struct Disconnected: Error, Equatable {}
    /// let socket = scheduler.createHotPublisher([
    ///     .value("hello", at: .seconds(1)),
    ///     .failure(Disconnected(), at: .seconds(2)),
    /// ])
    /// // Or, with a script that does not say how it fails:
    /// let quiet = scheduler.createHotPublisher([.value("hello", at: .seconds(1))], failureType: Disconnected.self)
    /// ```
    ///
    /// - Parameters:
    ///   - script: The events to play, each at a time since the scheduler's start.
    ///   - outputType: The publisher's output type, when the script does not show it.
    ///   - failureType: The publisher's failure type, when the script does not show it.
    ///   - fileID: The file a script that breaks the rules is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a script that breaks the rules is reported at; leave the default.
    ///   - column: The column a script that breaks the rules is reported at; leave the default.
    /// - Returns: The publisher, already playing.
    public func createHotPublisher<Output, Failure: Error>(
        _ script: [Recorded<SchedulerTimeType.Stride, TestEvent<Output, Failure>>],
        outputType: Output.Type = Output.self,
        failureType: Failure.Type = Failure.self,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> HotTestPublisher<Output, Failure, SchedulerTimeType> {
        HotTestPublisher(
            scheduler: self, script: script, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// The form of ``createHotPublisher(_:outputType:failureType:fileID:filePath:line:column:)`` without a
    /// source location, kept for compatibility: a script that breaks the rules is reported in
    /// StreamsTesting's source rather than the caller's.
    ///
    /// - Parameters:
    ///   - script: The events to play, each at a time since the scheduler's start.
    ///   - outputType: The publisher's output type, when the script does not show it.
    ///   - failureType: The publisher's failure type, when the script does not show it.
    /// - Returns: The publisher, already playing.
    @_disfavoredOverload
    public func createHotPublisher<Output, Failure: Error>(
        _ script: [Recorded<SchedulerTimeType.Stride, TestEvent<Output, Failure>>],
        outputType: Output.Type = Output.self,
        failureType: Failure.Type = Failure.self
    ) -> HotTestPublisher<Output, Failure, SchedulerTimeType> {
        createHotPublisher(script, outputType: outputType, failureType: failureType)
    }
}
