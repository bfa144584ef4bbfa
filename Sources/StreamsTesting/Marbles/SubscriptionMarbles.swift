public import Streams

// Subscription marbles: one diagram per subscription to a test publisher. `^` is when the
// subscriber subscribed, `!` when it cancelled, `(^!)` both in one frame; frames count from the
// scheduler's start. A subscription that was never cancelled has no `!` — including one that ended
// because the publisher completed: in Combine a completion ends a subscription without cancelling
// it, so the publisher's own diagram shows when that happened.

extension RecordedSubscription where Time: SchedulerTimeIntervalConvertible & SignedNumeric & Comparable {
    /// The subscription drawn as a marble diagram: `^` when it began, `!` when it was cancelled, one
    /// character for each `frame` since the scheduler's start.
    ///
    /// ```swift
    /// let subscription = RecordedSubscription<DispatchQueue.SchedulerTimeType.Stride>(
    ///     subscribed: .seconds(2), cancelled: .seconds(5))
    /// #expect(subscription.marbles() == "--^--!")
    /// ```
    ///
    /// A subscription that was never cancelled ends at its `^`; one cancelled in the frame it began is
    /// `(^!)`.
    ///
    /// - Parameter frame: How long each character lasts.
    /// - Returns: The diagram, or a message beginning `cannot draw:` if a time does not fall on a
    ///   frame.
    public func marbles(frame: Time = .seconds(1)) -> String {
        var marks: [(time: Time, symbol: Character, event: String)] = [(subscribed, "^", "the subscription")]
        if let cancelled { marks.append((cancelled, "!", "the cancellation")) }
        do {
            return try marks.marbleDrawing(frame: frame, time: \.time) { .symbol($0.symbol, event: $0.event) }.diagram
        } catch {
            return error.placeholderDiagram
        }
    }
}

/// Records a test failure unless `actual` subscription diagrams are `expected`, in order.
func expectSubscriptionMarbles(
    _ actual: [String], _ expected: [String],
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
) {
    var malformed = false
    let expected = expected.map { diagram in
        let caller = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        if MarbleDiagram.parseOrReport(diagram, kind: .subscription, at: caller) == nil { malformed = true }
        return normalizedMarbles(diagram, kind: .subscription)
    }
    guard !malformed else { return }
    var message: String?
    if actual.count != expected.count {
        func listed(_ diagrams: [String]) -> String {
            diagrams.isEmpty ? "(none)" : diagrams.joined(separator: "\n          ")
        }
        message = """
            Expected \(expected.count) subscription\(expected.count == 1 ? "" : "s"), recorded \(actual.count):
            expected: \(listed(expected))
            actual:   \(listed(actual))
            """
    } else {
        for index in actual.indices {
            message = marbleMismatch(
                expected: expected[index], actual: actual[index],
                subject: "Subscription \(index + 1) of \(actual.count) differs")
            if message != nil { break }
        }
    }
    if let message {
        TestIssueReporter.report(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

extension ColdTestPublisher {
    /// Each subscription so far drawn as a marble diagram, in the order they began: `^` when it
    /// began, `!` when it was cancelled, one character for each `frame` since the scheduler's start.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let request = scheduler.createColdPublisher(marbles: "--#", error: URLError(.timedOut))
    /// _ = scheduler.marbles(of: request.retry(1))
    /// #expect(request.subscriptionMarbles() == ["^", "--^"])
    /// ```
    ///
    /// A subscription that ended because the publisher completed has no `!`: in Combine a completed
    /// subscription is not cancelled.
    ///
    /// - Parameter frame: How long each character lasts.
    /// - Returns: One diagram per subscription.
    public func subscriptionMarbles(frame: Stride = .seconds(1)) -> [String] {
        subscriptions.map { $0.marbles(frame: frame) }
    }

    /// Checks that the subscriptions so far are those the marble diagrams `expected` show, in order;
    /// otherwise records a test failure with the diagrams one above the other and a caret under the
    /// first column where they differ.
    ///
    /// ```swift
    /// @Test func timeoutCancelsTheSlowRequest() {
    ///     let scheduler = DispatchQueue.test
    ///     let request = scheduler.createColdPublisher(marbles: "-----a|")
    ///     scheduler.expect(request.timeout(.seconds(3), scheduler: scheduler), marbles: "---|")
    ///     request.expectSubscriptions(["^--!"])
    /// }
    /// ```
    ///
    /// Each expected diagram has one `^` and at most one `!` after it; spaces and trailing `-` make no
    /// difference.
    ///
    /// - Parameters:
    ///   - expected: One diagram per subscription, in the order they began.
    ///   - frame: How long each character lasts.
    ///   - fileID: The file the failure is recorded in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line the failure is recorded at; leave the default.
    ///   - column: The column the failure is recorded at; leave the default.
    public func expectSubscriptions(
        _ expected: [String], frame: Stride = .seconds(1),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        expectSubscriptionMarbles(
            subscriptionMarbles(frame: frame), expected, fileID: fileID, filePath: filePath, line: line,
            column: column)
    }
}

extension HotTestPublisher {
    /// Each subscription so far drawn as a marble diagram, in the order they began: `^` when it
    /// began, `!` when it was cancelled, one character for each `frame` since the scheduler's start.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let clicks = scheduler.createHotPublisher(marbles: "a-b-c-d")
    /// let recorder = scheduler.record(clicks.prefix(2))
    /// scheduler.advance(by: .seconds(10))
    /// #expect(recorder.marbles() == "a-(b|)")
    /// #expect(clicks.subscriptionMarbles() == ["^-!"])
    /// ```
    ///
    /// A subscription that ended because the publisher completed has no `!`: in Combine a completed
    /// subscription is not cancelled.
    ///
    /// - Parameter frame: How long each character lasts.
    /// - Returns: One diagram per subscription.
    public func subscriptionMarbles(frame: Stride = .seconds(1)) -> [String] {
        subscriptions.map { $0.marbles(frame: frame) }
    }

    /// Checks that the subscriptions so far are those the marble diagrams `expected` show, in order;
    /// otherwise records a test failure with the diagrams one above the other and a caret under the
    /// first column where they differ.
    ///
    /// ```swift
    /// @Test func switchesToTheLatestSearch() {
    ///     let scheduler = DispatchQueue.test
    ///     let first = scheduler.createHotPublisher(marbles: "-a-b-c")
    ///     let second = scheduler.createHotPublisher(marbles: "---x-y")
    ///     let searches = scheduler.createHotPublisher(marbles: "f-s", values: ["f": first, "s": second])
    ///     scheduler.expect(searches.switchToLatest(), marbles: "-a-x-y")
    ///     first.expectSubscriptions(["^-!"])
    ///     second.expectSubscriptions(["--^"])
    /// }
    /// ```
    ///
    /// Each expected diagram has one `^` and at most one `!` after it; spaces and trailing `-` make no
    /// difference.
    ///
    /// - Parameters:
    ///   - expected: One diagram per subscription, in the order they began.
    ///   - frame: How long each character lasts.
    ///   - fileID: The file the failure is recorded in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line the failure is recorded at; leave the default.
    ///   - column: The column the failure is recorded at; leave the default.
    public func expectSubscriptions(
        _ expected: [String], frame: Stride = .seconds(1),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        expectSubscriptionMarbles(
            subscriptionMarbles(frame: frame), expected, fileID: fileID, filePath: filePath, line: line,
            column: column)
    }
}
