public import Dispatch
public import Foundation
public import Streams

/// A scheduler that fails the running test whenever it is used: a test that passes with it proves
/// the code it exercises never schedules work nor reads the time.
///
/// Give code an unimplemented scheduler where a test's path is not supposed to involve time at all.
/// The test then says so in plain sight, and keeps saying it: if that path ever starts scheduling
/// — or asks the scheduler for ``now`` or ``minimumTolerance`` — the test fails with a message that
/// names the scheduler and what was asked of it, instead of the new work slipping quietly onto a
/// scheduler that would have accepted it.
///
/// For example, a player model loads its playlist on the scheduler it is given, but muting is
/// plain state:
///
/// ```swift
/// final class PlayerModel {
///     private(set) var playlist: [String] = []
///     private(set) var isMuted = false
///     private let scheduler: AnySchedulerOf<DispatchQueue>
///     private var cancellables = Set<AnyCancellable>()
///
///     init(scheduler: AnySchedulerOf<DispatchQueue> = .main) {
///         self.scheduler = scheduler
///     }
///
///     func load<P: Publisher<[String], Never>>(from fetch: P) {
///         fetch
///             .receive(on: scheduler)
///             .sink { [weak self] in self?.playlist = $0 }
///             .store(in: &cancellables)
///     }
///
///     func muteButtonTapped() {
///         isMuted.toggle()
///     }
/// }
/// ```
///
/// The test of the mute button hands the model an unimplemented scheduler, and so states that muting
/// involves no time:
///
/// ```swift
/// @Test func muteTogglesWithoutScheduling() {
///     let model = PlayerModel(scheduler: .unimplemented)
///     model.muteButtonTapped()
///     #expect(model.isMuted)
///     model.muteButtonTapped()
///     #expect(!model.isMuted)
/// }
/// ```
///
/// Loading, on the other hand, does use the scheduler. Run through an unimplemented one, it fails the
/// test with "DispatchQueue - An unimplemented scheduler scheduled an action to run immediately.",
/// which Swift Testing's `withKnownIssue` (or `XCTExpectFailure`) can expect:
///
/// ```swift
/// @Test func loadingUsesTheScheduler() {
///     let model = PlayerModel(scheduler: .unimplemented)
///     withKnownIssue {
///         model.load(from: Just(["Intro", "Outro"]))
///     }
///     #expect(model.playlist == ["Intro", "Outro"])
/// }
/// ```
///
/// After reporting, the scheduler does what was asked all the same, as if it were an immediate
/// scheduler, so the test goes on and can show what else goes wrong: an action runs at once, before
/// `schedule` returns (a repeating one runs once), ``now`` is the fixed instant it was created with,
/// and ``minimumTolerance`` is zero.
///
/// Failures go to the test library running the test: Swift Testing's `Issue.record` inside a Swift
/// Testing test, `XCTFail` inside an XCTest test case, and standard error outside any test.
///
/// `DispatchQueue.unimplemented`, `RunLoop.unimplemented` and `OperationQueue.unimplemented` create
/// one with the time and options types of those schedulers, and their erased forms, such as
/// `AnySchedulerOf<DispatchQueue>.unimplemented`, stand in for an erased scheduler; each also comes
/// with a `prefix` to tell several unimplemented schedulers apart in the messages.
public struct UnimplementedScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    /// The name that begins every failure message of this scheduler, followed by " - "; none when
    /// empty.
    ///
    /// ```swift
    /// let mainQueue = DispatchQueue.unimplemented("mainQueue")
    /// #expect(mainQueue.prefix == "mainQueue")
    /// #expect(DispatchQueue.unimplemented.prefix == "DispatchQueue")
    /// ```
    public let prefix: String

    private let instant: SchedulerTimeType

    /// Creates an unimplemented scheduler whose ``now`` is `now`.
    ///
    /// ```swift
    /// let scheduler = UnimplementedScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>(
    ///     "backgroundQueue", now: .init(.now())
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - prefix: A name for the scheduler that begins every failure message it reports.
    ///   - now: The instant the scheduler answers, after reporting, when asked the current time.
    public init(_ prefix: String = "", now: SchedulerTimeType) {
        self.prefix = prefix
        self.instant = now
    }

    /// Reports that the scheduler was asked the current time, then returns the instant it was created
    /// with.
    ///
    /// ```swift
    /// withKnownIssue {
    ///     _ = DispatchQueue.unimplemented.now
    ///     // DispatchQueue - An unimplemented scheduler was asked the current time.
    /// }
    /// ```
    public var now: SchedulerTimeType {
        fail("was asked the current time")
        return instant
    }

    /// Reports that the scheduler was asked its minimum tolerance, then returns zero.
    ///
    /// ```swift
    /// withKnownIssue {
    ///     _ = DispatchQueue.unimplemented.minimumTolerance
    ///     // DispatchQueue - An unimplemented scheduler was asked its minimum tolerance.
    /// }
    /// ```
    public var minimumTolerance: SchedulerTimeType.Stride {
        fail("was asked its minimum tolerance")
        return .zero
    }

    /// Reports that an action was scheduled, then performs it at once, before returning.
    ///
    /// ```swift
    /// withKnownIssue {
    ///     DispatchQueue.unimplemented.schedule { print("runs anyway") }
    ///     // DispatchQueue - An unimplemented scheduler scheduled an action to run immediately.
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - options: Ignored.
    ///   - action: The closure to perform.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        fail("scheduled an action to run immediately")
        action()
    }

    /// Reports that an action was scheduled for later, then performs it at once, before returning.
    ///
    /// ```swift
    /// let scheduler = RunLoop.unimplemented
    /// withKnownIssue {
    ///     scheduler.schedule(after: .init(Date()), tolerance: .zero, options: nil) { print("runs anyway") }
    ///     // RunLoop - An unimplemented scheduler scheduled an action to run later.
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - date: Ignored.
    ///   - tolerance: Ignored.
    ///   - options: Ignored.
    ///   - action: The closure to perform.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        fail("scheduled an action to run later")
        action()
    }

    /// Reports that a repeating action was scheduled, then performs it once, at once, before
    /// returning; it does not repeat.
    ///
    /// ```swift
    /// let scheduler = OperationQueue.unimplemented
    /// withKnownIssue {
    ///     _ = scheduler.schedule(after: .init(Date()), interval: .seconds(1), tolerance: .zero, options: nil) {
    ///         print("runs once")
    ///     }
    ///     // OperationQueue - An unimplemented scheduler scheduled an action to run on a timer.
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - date: Ignored.
    ///   - interval: Ignored: there is no second performance.
    ///   - tolerance: Ignored.
    ///   - options: Ignored.
    ///   - action: The closure to perform.
    /// - Returns: A cancellable whose cancellation does nothing, the action having already run.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        fail("scheduled an action to run on a timer")
        action()
        return AnyCancellable {}
    }

    private func fail(
        _ what: String, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) {
        let name = prefix.isEmpty ? "" : "\(prefix) - "
        TestIssueReporter.report(
            "\(name)An unimplemented scheduler \(what).", fileID: fileID, filePath: filePath, line: line,
            column: column)
    }
}

extension UnimplementedScheduler: Sendable where SchedulerTimeType: Sendable {}

/// An unimplemented scheduler with the time and options types of scheduler `S`, such as
/// `UnimplementedSchedulerOf<DispatchQueue>`.
///
/// ```swift
/// let scheduler: UnimplementedSchedulerOf<DispatchQueue> = .unimplemented("mainQueue")
/// ```
public typealias UnimplementedSchedulerOf<S: Scheduler> = UnimplementedScheduler<
    S.SchedulerTimeType, S.SchedulerOptions
>

extension DispatchQueue {
    /// An unimplemented scheduler with dispatch time, to stand in for a dispatch queue that a test
    /// expects never to be used; its failure messages begin with "DispatchQueue - ".
    ///
    /// Its ``UnimplementedScheduler/now`` is one nanosecond of uptime.
    ///
    /// ```swift
    /// withKnownIssue {
    ///     DispatchQueue.unimplemented.schedule {}
    ///     // DispatchQueue - An unimplemented scheduler scheduled an action to run immediately.
    /// }
    /// ```
    public static var unimplemented: UnimplementedSchedulerOf<DispatchQueue> {
        unimplemented("DispatchQueue")
    }

    /// An unimplemented scheduler with dispatch time, named `prefix` in its failure messages.
    ///
    /// ```swift
    /// withKnownIssue {
    ///     DispatchQueue.unimplemented("mainQueue").schedule {}
    ///     // mainQueue - An unimplemented scheduler scheduled an action to run immediately.
    /// }
    /// ```
    ///
    /// - Parameter prefix: The name that begins every failure message of the scheduler.
    /// - Returns: An unimplemented scheduler whose ``UnimplementedScheduler/now`` is one nanosecond of
    ///   uptime.
    public static func unimplemented(_ prefix: String) -> UnimplementedSchedulerOf<DispatchQueue> {
        UnimplementedScheduler(prefix, now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }
}

extension RunLoop {
    /// An unimplemented scheduler with run-loop time, to stand in for a run loop that a test expects
    /// never to be used; its failure messages begin with "RunLoop - ".
    ///
    /// Its ``UnimplementedScheduler/now`` is the start of 1970.
    ///
    /// ```swift
    /// withKnownIssue {
    ///     RunLoop.unimplemented.schedule {}
    ///     // RunLoop - An unimplemented scheduler scheduled an action to run immediately.
    /// }
    /// ```
    public static var unimplemented: UnimplementedSchedulerOf<RunLoop> {
        unimplemented("RunLoop")
    }

    /// An unimplemented scheduler with run-loop time, named `prefix` in its failure messages.
    ///
    /// ```swift
    /// withKnownIssue {
    ///     RunLoop.unimplemented("mainRunLoop").schedule {}
    ///     // mainRunLoop - An unimplemented scheduler scheduled an action to run immediately.
    /// }
    /// ```
    ///
    /// - Parameter prefix: The name that begins every failure message of the scheduler.
    /// - Returns: An unimplemented scheduler whose ``UnimplementedScheduler/now`` is the start of 1970.
    public static func unimplemented(_ prefix: String) -> UnimplementedSchedulerOf<RunLoop> {
        UnimplementedScheduler(prefix, now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
    }
}

extension OperationQueue {
    /// An unimplemented scheduler with operation-queue time, to stand in for an operation queue that a
    /// test expects never to be used; its failure messages begin with "OperationQueue - ".
    ///
    /// Its ``UnimplementedScheduler/now`` is the start of 1970.
    ///
    /// ```swift
    /// withKnownIssue {
    ///     OperationQueue.unimplemented.schedule {}
    ///     // OperationQueue - An unimplemented scheduler scheduled an action to run immediately.
    /// }
    /// ```
    public static var unimplemented: UnimplementedSchedulerOf<OperationQueue> {
        unimplemented("OperationQueue")
    }

    /// An unimplemented scheduler with operation-queue time, named `prefix` in its failure messages.
    ///
    /// ```swift
    /// withKnownIssue {
    ///     OperationQueue.unimplemented("imageQueue").schedule {}
    ///     // imageQueue - An unimplemented scheduler scheduled an action to run immediately.
    /// }
    /// ```
    ///
    /// - Parameter prefix: The name that begins every failure message of the scheduler.
    /// - Returns: An unimplemented scheduler whose ``UnimplementedScheduler/now`` is the start of 1970.
    public static func unimplemented(_ prefix: String) -> UnimplementedSchedulerOf<OperationQueue> {
        UnimplementedScheduler(prefix, now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
    }
}

extension AnySchedulerOf<DispatchQueue> {
    /// A type-erased unimplemented scheduler with dispatch time: `DispatchQueue.unimplemented`, erased.
    ///
    /// ```swift
    /// let model = PlayerModel(scheduler: .unimplemented)  // init(scheduler: AnySchedulerOf<DispatchQueue>)
    /// ```
    public static var unimplemented: Self {
        DispatchQueue.unimplemented.eraseToAnyScheduler()
    }

    /// A type-erased unimplemented scheduler with dispatch time, named `prefix` in its failure
    /// messages: `DispatchQueue.unimplemented(prefix)`, erased.
    ///
    /// ```swift
    /// let model = PlayerModel(scheduler: .unimplemented("mainQueue"))
    /// ```
    ///
    /// - Parameter prefix: The name that begins every failure message of the scheduler.
    /// - Returns: The erased unimplemented scheduler.
    public static func unimplemented(_ prefix: String) -> Self {
        DispatchQueue.unimplemented(prefix).eraseToAnyScheduler()
    }
}

extension AnySchedulerOf<RunLoop> {
    /// A type-erased unimplemented scheduler with run-loop time: `RunLoop.unimplemented`, erased.
    ///
    /// ```swift
    /// let scheduler: AnySchedulerOf<RunLoop> = .unimplemented
    /// ```
    public static var unimplemented: Self {
        RunLoop.unimplemented.eraseToAnyScheduler()
    }

    /// A type-erased unimplemented scheduler with run-loop time, named `prefix` in its failure
    /// messages: `RunLoop.unimplemented(prefix)`, erased.
    ///
    /// ```swift
    /// let scheduler: AnySchedulerOf<RunLoop> = .unimplemented("mainRunLoop")
    /// ```
    ///
    /// - Parameter prefix: The name that begins every failure message of the scheduler.
    /// - Returns: The erased unimplemented scheduler.
    public static func unimplemented(_ prefix: String) -> Self {
        RunLoop.unimplemented(prefix).eraseToAnyScheduler()
    }
}

extension AnySchedulerOf<OperationQueue> {
    /// A type-erased unimplemented scheduler with operation-queue time: `OperationQueue.unimplemented`,
    /// erased.
    ///
    /// ```swift
    /// let scheduler: AnySchedulerOf<OperationQueue> = .unimplemented
    /// ```
    public static var unimplemented: Self {
        OperationQueue.unimplemented.eraseToAnyScheduler()
    }

    /// A type-erased unimplemented scheduler with operation-queue time, named `prefix` in its failure
    /// messages: `OperationQueue.unimplemented(prefix)`, erased.
    ///
    /// ```swift
    /// let scheduler: AnySchedulerOf<OperationQueue> = .unimplemented("imageQueue")
    /// ```
    ///
    /// - Parameter prefix: The name that begins every failure message of the scheduler.
    /// - Returns: The erased unimplemented scheduler.
    public static func unimplemented(_ prefix: String) -> Self {
        OperationQueue.unimplemented(prefix).eraseToAnyScheduler()
    }
}
