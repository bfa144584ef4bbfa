public import Streams

// Drawing what a publisher sent as a marble diagram, and comparing it with an expected one.
//
// How a recording is drawn: each frame of `frame` since the scheduler's start is one character;
// events of one frame are grouped, `(b|)`; the diagram ends at the last event. The subscription is
// not drawn. A value is drawn as the key `values` gives it (the smallest key, if several), else as
// its description when that is one character that is not a marble symbol, else as `?`, which a
// legend explains. A recording that cannot be drawn (an event between two frames, or events too
// close after a group) draws as a message beginning `cannot draw:`.

extension TimedTestSubscriber {
    /// What the subscriber received, drawn as a marble diagram: one character for each `frame` of
    /// virtual time since the scheduler's start.
    ///
    /// Values are drawn as their description when it is one character (`"a"`, `7`), and as `?`
    /// otherwise, with a legend after the diagram; the subscription is not drawn.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let recorder = scheduler.record([1, 2, 30].publisher.delay(for: .seconds(2), scheduler: scheduler))
    /// scheduler.advance(by: .seconds(5))
    /// #expect(recorder.marbles() == "--(12?|)  (? at column 6: 30)")
    /// ```
    ///
    /// - Parameter frame: How long each character lasts.
    /// - Returns: The diagram, or a message beginning `cannot draw:` if the events do not fall on
    ///   frames.
    public func marbles(frame: Stride = .seconds(1)) -> String {
        marbleDrawing(frame: frame, draw: marbleCharacter(describing:)).diagram
    }

    /// What the subscriber received, drawn as a marble diagram, each value as its key in `values`.
    ///
    /// A value missing from `values` is drawn as its description when it is one character, and as
    /// `?` otherwise, with a legend after the diagram.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let recorder = scheduler.record(Just(true).delay(for: .seconds(1), scheduler: scheduler))
    /// scheduler.advance(by: .seconds(1))
    /// #expect(recorder.marbles(values: ["t": true, "f": false]) == "-(t|)")
    /// ```
    ///
    /// - Parameters:
    ///   - values: The character each value is drawn as.
    ///   - frame: How long each character lasts.
    /// - Returns: The diagram, or a message beginning `cannot draw:` if the events do not fall on
    ///   frames.
    public func marbles(values: [Character: Input], frame: Stride = .seconds(1)) -> String
    where Input: Equatable {
        marbleDrawing(frame: frame, draw: marbleDrawer(values)).diagram
    }

    /// The drawing, or the reason there is none, as a diagram-like string.
    func marbleDrawing(frame: Stride, draw: (Input) -> Character?) -> (diagram: String, drawing: MarbleDrawing?) {
        do {
            let drawing = try events.marbleDrawing(frame: frame, time: \.time) { event in
                switch event.value {
                case .subscription: nil
                case .value(let value):
                    draw(value).map { .symbol($0, event: "value \(value)") } ?? .placeholder("\(value)")
                case .completion(.finished): .symbol("|", event: "the completion")
                case .completion(.failure(let error)): .symbol("#", event: "failure \(error)")
                }
            }
            return (drawing.diagramWithLegend, drawing)
        } catch {
            return (error.placeholderDiagram, nil)
        }
    }
}

/// Draws a value as its smallest key in `values`, or else as its one-character description if that
/// character is not a key for another value.
func marbleDrawer<Output: Equatable>(_ values: [Character: Output]) -> (Output) -> Character? {
    { value in
        if let key = values.filter({ $0.value == value }).keys.min() { return key }
        guard let character = marbleCharacter(describing: value), values[character] == nil else { return nil }
        return character
    }
}

extension TestScheduler {
    /// Subscribes to `publisher`, moves the clock, and returns what it sent as a marble diagram.
    ///
    /// The diagram counts frames of `frame` from the scheduler's ``startTime``. With `frames` the
    /// clock moves that many frames forward; without, ``run()-4lg9v`` runs everything scheduled. The
    /// subscription is not cancelled afterwards. Values are drawn as their description when it is one
    /// character, and as `?` with a legend otherwise.
    ///
    /// ```swift
    /// @Test func debouncesKeystrokes() {
    ///     let scheduler = DispatchQueue.test
    ///     let keys = scheduler.createHotPublisher(marbles: "ab---c---|")
    ///     let debounced = keys.debounce(for: .seconds(2), scheduler: scheduler)
    ///     #expect(scheduler.marbles(of: debounced) == "---b---c-|")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - publisher: The publisher to draw.
    ///   - frame: How long each character lasts.
    ///   - frames: How many frames to move the clock; `nil` runs until nothing is scheduled.
    ///   - fileID: The file a failure while moving the clock is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a failure while moving the clock is reported at; leave the default.
    ///   - column: The column a failure while moving the clock is reported at; leave the default.
    /// - Returns: The diagram, or a message beginning `cannot draw:` if the events do not fall on
    ///   frames.
    public func marbles<P: Publisher>(
        of publisher: P, frame: SchedulerTimeType.Stride = .seconds(1), frames: Int? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> String {
        let recorder = record(publisher)
        play(frame: frame, frames: frames, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
        return recorder.marbles(frame: frame)
    }

    /// The form of ``marbles(of:frame:frames:fileID:filePath:line:column:)`` without a source location, kept
    /// for compatibility: a failure while moving the clock is reported in StreamsTesting's source rather than the
    /// caller's.
    ///
    /// - Parameters:
    ///   - publisher: The publisher to draw.
    ///   - frame: How long each character lasts.
    ///   - frames: How many frames to move the clock; `nil` runs until nothing is scheduled.
    /// - Returns: The diagram, or a message beginning `cannot draw:` if the events do not fall on
    ///   frames.
    @_disfavoredOverload
    public func marbles<P: Publisher>(
        of publisher: P, frame: SchedulerTimeType.Stride = .seconds(1), frames: Int? = nil
    ) -> String {
        marbles(of: publisher, frame: frame, frames: frames)
    }

    /// Subscribes to `publisher`, moves the clock, and returns what it sent as a marble diagram, each
    /// value drawn as its key in `values`.
    ///
    /// ```swift
    /// @Test func timesOutWhenTheServerIsSlow() {
    ///     let scheduler = DispatchQueue.test
    ///     let server = scheduler.createColdPublisher(marbles: "-a----b|", values: ["a": 1, "b": 2])
    ///     let answer = server.timeout(.seconds(3), scheduler: scheduler)
    ///     #expect(scheduler.marbles(of: answer, values: ["a": 1, "b": 2]) == "-a--|")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - publisher: The publisher to draw.
    ///   - values: The character each value is drawn as.
    ///   - frame: How long each character lasts.
    ///   - frames: How many frames to move the clock; `nil` runs until nothing is scheduled.
    ///   - fileID: The file a failure while moving the clock is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a failure while moving the clock is reported at; leave the default.
    ///   - column: The column a failure while moving the clock is reported at; leave the default.
    /// - Returns: The diagram, or a message beginning `cannot draw:` if the events do not fall on
    ///   frames.
    public func marbles<P: Publisher>(
        of publisher: P, values: [Character: P.Output], frame: SchedulerTimeType.Stride = .seconds(1),
        frames: Int? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> String where P.Output: Equatable {
        let recorder = record(publisher)
        play(frame: frame, frames: frames, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
        return recorder.marbles(values: values, frame: frame)
    }

    /// The form of ``marbles(of:values:frame:frames:fileID:filePath:line:column:)`` without a source
    /// location, kept for compatibility: a failure while moving the clock is reported in StreamsTesting's source
    /// rather than the caller's.
    ///
    /// - Parameters:
    ///   - publisher: The publisher to draw.
    ///   - values: The character each value is drawn as.
    ///   - frame: How long each character lasts.
    ///   - frames: How many frames to move the clock; `nil` runs until nothing is scheduled.
    /// - Returns: The diagram, or a message beginning `cannot draw:` if the events do not fall on
    ///   frames.
    @_disfavoredOverload
    public func marbles<P: Publisher>(
        of publisher: P, values: [Character: P.Output], frame: SchedulerTimeType.Stride = .seconds(1),
        frames: Int? = nil
    ) -> String where P.Output: Equatable {
        marbles(of: publisher, values: values, frame: frame, frames: frames)
    }

    /// Checks that `publisher` sends what the marble diagram `marbles` shows; otherwise records a
    /// test failure with both diagrams, one above the other, and a caret under the first column
    /// where they differ.
    ///
    /// It subscribes, moves the clock (`frames` frames, or until nothing is scheduled), and draws
    /// what arrived, values as their one-character description. The diagrams are compared by the
    /// events they show: spaces and trailing `-` in `marbles` make no difference. With `error`, a failure must also be that error (when
    /// the failure type is `Equatable`).
    ///
    /// ```swift
    /// @Test func delaysByTwoFrames() {
    ///     let scheduler = DispatchQueue.test
    ///     let input = scheduler.createHotPublisher(marbles: "-a-b|")
    ///     scheduler.expect(input.delay(for: .seconds(2), scheduler: scheduler), marbles: "---a-b|")
    /// }
    /// ```
    ///
    /// `delay` delays the completion too. Had the test expected `"---a-(b|)"`, it would fail with:
    ///
    /// ```text
    /// Marble diagrams differ at column 6:
    /// expected: ---a-(b|)
    /// actual:   ---a-b|
    ///                ^
    /// ```
    ///
    /// - Parameters:
    ///   - publisher: The publisher under test.
    ///   - marbles: What it should send, one character a frame from the scheduler's start.
    ///   - error: What `#` stands for, checked when given.
    ///   - frame: How long each character lasts.
    ///   - frames: How many frames to move the clock; `nil` runs until nothing is scheduled.
    ///   - fileID: The file the failure is recorded in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line the failure is recorded at; leave the default.
    ///   - column: The column the failure is recorded at; leave the default.
    public func expect<P: Publisher>(
        _ publisher: P, marbles: String, error: P.Failure? = nil, frame: SchedulerTimeType.Stride = .seconds(1),
        frames: Int? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let caller = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let expected = MarbleDiagram.parseOrReport(marbles, kind: .expected, at: caller) else { return }
        let recorder = record(publisher)
        play(frame: frame, frames: frames, at: caller)
        let actual = recorder.marbleDrawing(frame: frame, draw: marbleCharacter(describing:))
        compare(
            recorder, drawn: actual, expected: expected, error: error, fileID: fileID, filePath: filePath, line: line,
            column: column)
    }

    /// Checks that `publisher` sends what the marble diagram `marbles` shows, each character standing
    /// for the value `values` gives it; otherwise records a test failure with both diagrams, one
    /// above the other, and a caret under the first column where they differ.
    ///
    /// ```swift
    /// @Test func mergesTwoSensors() {
    ///     let scheduler = DispatchQueue.test
    ///     let values: [Character: Double] = ["a": 20.5, "b": 21, "x": -3]
    ///     let inside = scheduler.createHotPublisher(marbles: "a---b", values: values)
    ///     let outside = scheduler.createHotPublisher(marbles: "--x", values: values)
    ///     scheduler.expect(inside.merge(with: outside), marbles: "a-x-b", values: values)
    /// }
    /// ```
    ///
    /// A value that is not in `values` and has no one-character description is drawn as `?`, and the
    /// failure message adds a legend, such as `? at column 3: 21.25`.
    ///
    /// - Parameters:
    ///   - publisher: The publisher under test.
    ///   - marbles: What it should send, one character a frame from the scheduler's start.
    ///   - values: The value each value character stands for.
    ///   - error: What `#` stands for, checked when given.
    ///   - frame: How long each character lasts.
    ///   - frames: How many frames to move the clock; `nil` runs until nothing is scheduled.
    ///   - fileID: The file the failure is recorded in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line the failure is recorded at; leave the default.
    ///   - column: The column the failure is recorded at; leave the default.
    public func expect<P: Publisher>(
        _ publisher: P, marbles: String, values: [Character: P.Output], error: P.Failure? = nil,
        frame: SchedulerTimeType.Stride = .seconds(1), frames: Int? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) where P.Output: Equatable {
        let caller = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let expected = MarbleDiagram.parseOrReport(marbles, kind: .expected, at: caller) else { return }
        let recorder = record(publisher)
        play(frame: frame, frames: frames, at: caller)
        let actual = recorder.marbleDrawing(frame: frame, draw: marbleDrawer(values))
        compare(
            recorder, drawn: actual, expected: expected, error: error, fileID: fileID, filePath: filePath, line: line,
            column: column)
    }

    /// Moves the clock `frames` frames, or runs everything scheduled; what goes wrong (a negative
    /// `frames`, a run that never ends) fails the running test at `caller`.
    private func play(frame: SchedulerTimeType.Stride, frames: Int?, at caller: CallSite) {
        if let frames {
            guard frames >= 0 else {
                TestIssueReporter.report("A marble test cannot move the clock back: frames is \(frames).", at: caller)
                return
            }
            advance(by: frame * SchedulerTimeType.Stride(exactly: frames)!, at: caller)
        } else {
            run(at: caller)
        }
    }

    private func compare<Output, Failure>(
        _ recorder: TimedTestSubscriber<Output, Failure, SchedulerTimeType>,
        drawn: (diagram: String, drawing: MarbleDrawing?), expected: MarbleDiagram, error: Failure?,
        fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
    ) {
        let expectedDiagram = normalizedMarbles(expected.source, kind: .expected)
        let actualDiagram = drawn.drawing?.diagram ?? drawn.diagram
        var message = marbleMismatch(
            expected: expectedDiagram, actual: actualDiagram, notes: drawn.drawing?.legendLines ?? [])
        if message == nil, let error, case .failure(let actualError)? = recorder.completion,
            !sameError(actualError, error)
        {
            message = "Marble diagrams match, but the publisher failed with \(actualError), not \(error)."
        }
        if let message {
            TestIssueReporter.report(message, fileID: fileID, filePath: filePath, line: line, column: column)
        }
    }
}

/// Whether two errors are equal, when their type is `Equatable`; `true` when it is not.
private func sameError<Failure: Error>(_ actual: Failure, _ expected: Failure) -> Bool {
    let boxed: Any = actual
    guard let equatable = boxed as? any Equatable else { return true }
    return equatable.isEqual(to: expected)
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool {
        (other as? Self).map { $0 == self } ?? false
    }
}
