/// A clock that fails the running test whenever it is used: a test that passes with it proves the
/// code it exercises neither reads the time nor sleeps.
///
/// Each use — ``now``, ``minimumResolution``, a sleep — reports "Unimplemented: Clock.now" (or
/// `.minimumResolution`, `.sleep`; `Clock` is the name given to the clock) at the place the clock
/// was created, then goes on as the clock it wraps would (an ``ImmediateClock`` unless another is
/// given), so the test keeps running and can show what else goes wrong.
///
/// ```swift
/// @Test func favoritingDoesNotWait() async throws {
///     let model = FavoritesModel(clock: UnimplementedClock())
///     model.favoriteButtonTapped()   // any sleep here would fail the test
///     #expect(model.isFavorite)
/// }
/// ```
///
/// Failures go to the test library running the test: Swift Testing's `Issue.record` inside a Swift
/// Testing test, `XCTFail` inside an XCTest test case, and standard error outside any test. The
/// names and messages are those of the `UnimplementedClock` of Point-Free's swift-clocks.
public struct UnimplementedClock<Duration: DurationProtocol & Hashable>: Clock {
    /// An instant of an unimplemented clock: an instant of the clock it wraps.
    public struct Instant: InstantProtocol {
        fileprivate let base: AnyClock<Duration>.Instant

        /// The instant `duration` later than this one (earlier, for a negative duration).
        ///
        /// - Parameter duration: How far to move.
        /// - Returns: The moved instant.
        public func advanced(by duration: Duration) -> Self {
            Self(base: base.advanced(by: duration))
        }

        /// The duration from this instant to `other`, negative when `other` is earlier.
        ///
        /// - Parameter other: The instant to measure to.
        /// - Returns: The duration between the two.
        public func duration(to other: Self) -> Duration {
            base.duration(to: other.base)
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Self, rhs: Self) -> Bool {
            lhs.base < rhs.base
        }
    }

    private let base: AnyClock<Duration>
    private let name: String
    private let fileID: StaticString
    private let filePath: StaticString
    private let line: UInt
    private let column: UInt

    /// Creates a clock that reports every use, then forwards it to `base`.
    ///
    /// ```swift
    /// let clock = UnimplementedClock(ContinuousClock(), name: "ContinuousClock")
    /// ```
    ///
    /// - Parameters:
    ///   - base: The clock that does the work after each report.
    ///   - name: The name in the messages; the wrapped clock's type by default.
    ///   - fileID: The file ID where uses are reported.
    ///   - filePath: The file path where uses are reported.
    ///   - line: The line where uses are reported.
    ///   - column: The column where uses are reported.
    public init<C: Clock>(
        _ base: C,
        name: String = "\(C.self)",
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) where C.Duration == Duration {
        self.base = AnyClock(base)
        self.name = name
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// Creates a clock that reports every use, then behaves as an ``ImmediateClock`` starting at
    /// `now`.
    ///
    /// - Parameters:
    ///   - name: The name in the messages.
    ///   - now: Where the immediate clock's time starts.
    ///   - fileID: The file ID where uses are reported.
    ///   - filePath: The file path where uses are reported.
    ///   - line: The line where uses are reported.
    ///   - column: The column where uses are reported.
    public init(
        name: String = "Clock",
        now: ImmediateClock<Duration>.Instant = .init(),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            ImmediateClock(now: now), name: name, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Reports the use, then returns the wrapped clock's current instant.
    public var now: Instant {
        reportUse("now")
        return Instant(base: base.now)
    }

    /// Reports the use, then returns the wrapped clock's minimum resolution.
    public var minimumResolution: Duration {
        reportUse("minimumResolution")
        return base.minimumResolution
    }

    /// Reports the use, then sleeps on the wrapped clock.
    ///
    /// - Parameters:
    ///   - deadline: The instant to wake at.
    ///   - tolerance: Passed on to the wrapped clock.
    /// - Throws: What the wrapped clock's sleep throws, such as `CancellationError`.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        reportUse("sleep")
        try await base.sleep(until: deadline.base, tolerance: tolerance)
    }

    private func reportUse(_ member: String) {
        TestIssueReporter.report(
            "Unimplemented: \(name).\(member)", fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

extension UnimplementedClock where Duration == Swift.Duration {
    /// Creates a clock that reports every use under `name`, then behaves as an ``ImmediateClock``.
    ///
    /// ```swift
    /// let clock = UnimplementedClock(name: "AnalyticsClock")
    /// ```
    ///
    /// - Parameter name: The name in the messages.
    public init(name: String = "Clock") {
        self.init(name: name, now: .init())
    }
}

extension Clock where Self == UnimplementedClock<Swift.Duration> {
    /// A clock that fails the running test whenever it is used, where a `Clock` is expected.
    ///
    /// ```swift
    /// let model = FavoritesModel(clock: .unimplemented())
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: The file ID where uses are reported.
    ///   - filePath: The file path where uses are reported.
    ///   - line: The line where uses are reported.
    ///   - column: The column where uses are reported.
    /// - Returns: An unimplemented clock named `Clock`.
    public static func unimplemented(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        UnimplementedClock(fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
