public import Streams

// Hot and cold test publishers written as marble diagrams. The syntax, in short: each character is
// one frame (`frame:`, one second unless given); `-` nothing happens; a letter or digit is a value;
// `|` finished; `#` failed; `(ab)` events at the frame of the `(`; `^` time zero of a hot publisher;
// spaces are ignored. See "Draw time: marble diagrams" in the StreamsTesting article.

extension TestScheduler {
    // MARK: Cold publishers

    /// Creates a ``ColdTestPublisher`` from a marble diagram, each character standing for the value
    /// `values` gives it; a diagram that cannot fail.
    ///
    /// Each character of `marbles` is one frame of `frame`, counted from each subscription: `-` is a
    /// frame where nothing happens, a character of `values` sends its value, `|` finishes, `(…)`
    /// makes its events happen together at the frame of the `(` (its characters still take a frame
    /// each, so columns stay time), and spaces are ignored.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let prices = scheduler.createColdPublisher(marbles: "-a-(bc)|", values: ["a": 9.5, "b": 9.75, "c": 10])
    /// let recorder = scheduler.record(prices)
    /// scheduler.advance(by: .seconds(10))
    /// #expect(recorder.events == [
    ///     .subscription(at: .zero),
    ///     .value(9.5, at: .seconds(1)),
    ///     .value(9.75, at: .seconds(3)),
    ///     .value(10, at: .seconds(3)),
    ///     .finished(at: .seconds(7)),
    /// ])
    /// ```
    ///
    /// A diagram that breaks the syntax (a group never closed, an event after `|`, a `^`, a character
    /// that is not a key of `values`, or `#`, since this publisher cannot fail) fails the running test
    /// (the rest of the run goes on) with a message that names the problem and its column.
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from each subscription.
    ///   - values: The value each value character stands for.
    ///   - frame: How long each character lasts.
    ///   - fileID: The file a malformed diagram is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a malformed diagram is reported at; leave the default.
    ///   - column: The column a malformed diagram is reported at; leave the default.
    /// - Returns: The publisher.
    public func createColdPublisher<Output>(
        marbles: String, values: [Character: Output], frame: SchedulerTimeType.Stride = .seconds(1),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> ColdTestPublisher<Output, Never, SchedulerTimeType> {
        ColdTestPublisher(
            scheduler: self,
            script: MarbleDiagram.script(
                marbles, kind: .cold, frame: frame, values: .dictionary(values), error: Never?.none,
                at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)))
    }

    /// Creates a ``ColdTestPublisher`` that can fail from a marble diagram, each character standing
    /// for the value `values` gives it and `#` for `error`.
    ///
    /// ```swift
    /// struct Offline: Error, Equatable {}
    /// let scheduler = DispatchQueue.test
    /// let request = scheduler.createColdPublisher(marbles: "--a#", values: ["a": 200], error: Offline())
    /// #expect(scheduler.marbles(of: request.retry(1), values: ["a": 200]) == "--a--a#")
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from each subscription.
    ///   - values: The value each value character stands for.
    ///   - error: What `#` fails with.
    ///   - frame: How long each character lasts.
    ///   - fileID: The file a malformed diagram is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a malformed diagram is reported at; leave the default.
    ///   - column: The column a malformed diagram is reported at; leave the default.
    /// - Returns: The publisher.
    public func createColdPublisher<Output, Failure: Error>(
        marbles: String, values: [Character: Output], error: Failure,
        frame: SchedulerTimeType.Stride = .seconds(1),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> ColdTestPublisher<Output, Failure, SchedulerTimeType> {
        ColdTestPublisher(
            scheduler: self,
            script: MarbleDiagram.script(
                marbles, kind: .cold, frame: frame, values: .dictionary(values), error: error,
                at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)))
    }

    /// Creates a ``ColdTestPublisher`` of strings from a marble diagram: each value character sends
    /// itself, as a one-character string.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let letters = scheduler.createColdPublisher(marbles: "a-b-|")
    /// #expect(scheduler.marbles(of: letters.map { $0.uppercased() }) == "A-B-|")
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from each subscription.
    ///   - frame: How long each character lasts.
    ///   - fileID: The file a malformed diagram is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a malformed diagram is reported at; leave the default.
    ///   - column: The column a malformed diagram is reported at; leave the default.
    /// - Returns: The publisher.
    public func createColdPublisher(
        marbles: String, frame: SchedulerTimeType.Stride = .seconds(1),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> ColdTestPublisher<String, Never, SchedulerTimeType> {
        createColdPublisher(
            marbles: marbles, outputType: String.self, frame: frame, fileID: fileID, filePath: filePath, line: line,
            column: column)
    }

    /// Creates a ``ColdTestPublisher`` of strings that can fail from a marble diagram: each value
    /// character sends itself, as a one-character string, and `#` fails with `error`.
    ///
    /// ```swift
    /// struct Offline: Error, Equatable {}
    /// let scheduler = DispatchQueue.test
    /// let request = scheduler.createColdPublisher(marbles: "-a-#", error: Offline())
    /// #expect(scheduler.marbles(of: request.replaceError(with: "z")) == "-a-(z|)")
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from each subscription.
    ///   - error: What `#` fails with.
    ///   - frame: How long each character lasts.
    ///   - fileID: The file a malformed diagram is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a malformed diagram is reported at; leave the default.
    ///   - column: The column a malformed diagram is reported at; leave the default.
    /// - Returns: The publisher.
    public func createColdPublisher<Failure: Error>(
        marbles: String, error: Failure, frame: SchedulerTimeType.Stride = .seconds(1),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> ColdTestPublisher<String, Failure, SchedulerTimeType> {
        createColdPublisher(
            marbles: marbles, outputType: String.self, error: error, frame: frame, fileID: fileID, filePath: filePath,
            line: line, column: column)
    }

    /// Creates a ``ColdTestPublisher`` from a marble diagram whose value characters are read as
    /// `outputType`, such as `Character` or `Int`.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let digits = scheduler.createColdPublisher(marbles: "1-2-(3|)", outputType: Int.self)
    /// #expect(scheduler.marbles(of: digits.scan(0, +)) == "1-3-(6|)")
    /// ```
    ///
    /// A character that `outputType` cannot read (a letter for `Int`) fails the running test with a
    /// message naming its column.
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from each subscription.
    ///   - outputType: The type each value character is read as, with `init?(_: String)`.
    ///   - frame: How long each character lasts.
    ///   - fileID: The file a malformed diagram is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a malformed diagram is reported at; leave the default.
    ///   - column: The column a malformed diagram is reported at; leave the default.
    /// - Returns: The publisher.
    public func createColdPublisher<Output: LosslessStringConvertible>(
        marbles: String, outputType: Output.Type, frame: SchedulerTimeType.Stride = .seconds(1),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> ColdTestPublisher<Output, Never, SchedulerTimeType> {
        ColdTestPublisher(
            scheduler: self,
            script: MarbleDiagram.script(
                marbles, kind: .cold, frame: frame, values: .lossless(), error: Never?.none,
                at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)))
    }

    /// Creates a ``ColdTestPublisher`` that can fail from a marble diagram whose value characters are
    /// read as `outputType`, such as `Character` or `Int`, and whose `#` fails with `error`.
    ///
    /// ```swift
    /// struct Corrupt: Error, Equatable {}
    /// let scheduler = DispatchQueue.test
    /// let bytes = scheduler.createColdPublisher(marbles: "ab#", outputType: Character.self, error: Corrupt())
    /// #expect(scheduler.marbles(of: bytes) == "ab#")
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from each subscription.
    ///   - outputType: The type each value character is read as, with `init?(_: String)`.
    ///   - error: What `#` fails with.
    ///   - frame: How long each character lasts.
    ///   - fileID: The file a malformed diagram is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a malformed diagram is reported at; leave the default.
    ///   - column: The column a malformed diagram is reported at; leave the default.
    /// - Returns: The publisher.
    public func createColdPublisher<Output: LosslessStringConvertible, Failure: Error>(
        marbles: String, outputType: Output.Type, error: Failure, frame: SchedulerTimeType.Stride = .seconds(1),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> ColdTestPublisher<Output, Failure, SchedulerTimeType> {
        ColdTestPublisher(
            scheduler: self,
            script: MarbleDiagram.script(
                marbles, kind: .cold, frame: frame, values: .lossless(), error: error,
                at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)))
    }

    // MARK: Hot publishers

    /// Creates a ``HotTestPublisher`` from a marble diagram, each character standing for the value
    /// `values` gives it; a diagram that cannot fail.
    ///
    /// Frames count from the scheduler's ``startTime``, or from `^` if the diagram has one: `^` is
    /// time zero, and what is drawn left of it happened before the test began. Values left of `^`
    /// reach no one (nobody could have subscribed yet); a completion left of `^` happens at time
    /// zero, so the publisher is already over when the test starts.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let clicks = scheduler.createHotPublisher(marbles: "-x-^-a--b", values: ["x": 0, "a": 1, "b": 2])
    /// let recorder = scheduler.record(clicks)
    /// scheduler.advance(by: .seconds(10))
    /// #expect(recorder.valuesWithTimes == [.value(1, at: .seconds(2)), .value(2, at: .seconds(5))])
    /// ```
    ///
    /// A diagram that breaks the syntax (a group never closed, an event after `|`, two `^`, a
    /// character that is not a key of `values`, or `#`, since this publisher cannot fail) stops the
    /// program with a message that names the problem and its column.
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from `^` or from the scheduler's start.
    ///   - values: The value each value character stands for.
    ///   - frame: How long each character lasts.
    ///   - fileID: The file a malformed diagram is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a malformed diagram is reported at; leave the default.
    ///   - column: The column a malformed diagram is reported at; leave the default.
    /// - Returns: The publisher, already playing.
    public func createHotPublisher<Output>(
        marbles: String, values: [Character: Output], frame: SchedulerTimeType.Stride = .seconds(1),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> HotTestPublisher<Output, Never, SchedulerTimeType> {
        HotTestPublisher(
            scheduler: self,
            script: MarbleDiagram.script(
                marbles, kind: .hot, frame: frame, values: .dictionary(values), error: Never?.none,
                at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)))
    }

    /// Creates a ``HotTestPublisher`` that can fail from a marble diagram, each character standing
    /// for the value `values` gives it and `#` for `error`.
    ///
    /// ```swift
    /// struct Disconnected: Error, Equatable {}
    /// let scheduler = DispatchQueue.test
    /// let socket = scheduler.createHotPublisher(
    ///     marbles: "^-a-b-#", values: ["a": "hello", "b": "bye"], error: Disconnected())
    /// #expect(scheduler.marbles(of: socket, values: ["a": "hello", "b": "bye"]) == "--a-b-#")
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from `^` or from the scheduler's start.
    ///   - values: The value each value character stands for.
    ///   - error: What `#` fails with.
    ///   - frame: How long each character lasts.
    ///   - fileID: The file a malformed diagram is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a malformed diagram is reported at; leave the default.
    ///   - column: The column a malformed diagram is reported at; leave the default.
    /// - Returns: The publisher, already playing.
    public func createHotPublisher<Output, Failure: Error>(
        marbles: String, values: [Character: Output], error: Failure,
        frame: SchedulerTimeType.Stride = .seconds(1),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> HotTestPublisher<Output, Failure, SchedulerTimeType> {
        HotTestPublisher(
            scheduler: self,
            script: MarbleDiagram.script(
                marbles, kind: .hot, frame: frame, values: .dictionary(values), error: error,
                at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)))
    }

    /// Creates a ``HotTestPublisher`` of strings from a marble diagram: each value character sends
    /// itself, as a one-character string.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let typing = scheduler.createHotPublisher(marbles: "a-^-b-c|")
    /// #expect(scheduler.marbles(of: typing) == "--b-c|")
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from `^` or from the scheduler's start.
    ///   - frame: How long each character lasts.
    ///   - fileID: The file a malformed diagram is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a malformed diagram is reported at; leave the default.
    ///   - column: The column a malformed diagram is reported at; leave the default.
    /// - Returns: The publisher, already playing.
    public func createHotPublisher(
        marbles: String, frame: SchedulerTimeType.Stride = .seconds(1),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> HotTestPublisher<String, Never, SchedulerTimeType> {
        createHotPublisher(
            marbles: marbles, outputType: String.self, frame: frame, fileID: fileID, filePath: filePath, line: line,
            column: column)
    }

    /// Creates a ``HotTestPublisher`` of strings that can fail from a marble diagram: each value
    /// character sends itself, as a one-character string, and `#` fails with `error`.
    ///
    /// ```swift
    /// struct Disconnected: Error, Equatable {}
    /// let scheduler = DispatchQueue.test
    /// let socket = scheduler.createHotPublisher(marbles: "-a-#", error: Disconnected())
    /// #expect(scheduler.marbles(of: socket) == "-a-#")
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from `^` or from the scheduler's start.
    ///   - error: What `#` fails with.
    ///   - frame: How long each character lasts.
    ///   - fileID: The file a malformed diagram is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a malformed diagram is reported at; leave the default.
    ///   - column: The column a malformed diagram is reported at; leave the default.
    /// - Returns: The publisher, already playing.
    public func createHotPublisher<Failure: Error>(
        marbles: String, error: Failure, frame: SchedulerTimeType.Stride = .seconds(1),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> HotTestPublisher<String, Failure, SchedulerTimeType> {
        createHotPublisher(
            marbles: marbles, outputType: String.self, error: error, frame: frame, fileID: fileID, filePath: filePath,
            line: line, column: column)
    }

    /// Creates a ``HotTestPublisher`` from a marble diagram whose value characters are read as
    /// `outputType`, such as `Character` or `Int`.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let readings = scheduler.createHotPublisher(marbles: "^1-5-3|", outputType: Int.self)
    /// #expect(scheduler.marbles(of: readings.filter { $0 > 2 }) == "---5-3|")
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from `^` or from the scheduler's start.
    ///   - outputType: The type each value character is read as, with `init?(_: String)`.
    ///   - frame: How long each character lasts.
    ///   - fileID: The file a malformed diagram is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a malformed diagram is reported at; leave the default.
    ///   - column: The column a malformed diagram is reported at; leave the default.
    /// - Returns: The publisher, already playing.
    public func createHotPublisher<Output: LosslessStringConvertible>(
        marbles: String, outputType: Output.Type, frame: SchedulerTimeType.Stride = .seconds(1),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> HotTestPublisher<Output, Never, SchedulerTimeType> {
        HotTestPublisher(
            scheduler: self,
            script: MarbleDiagram.script(
                marbles, kind: .hot, frame: frame, values: .lossless(), error: Never?.none,
                at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)))
    }

    /// Creates a ``HotTestPublisher`` that can fail from a marble diagram whose value characters are
    /// read as `outputType`, such as `Character` or `Int`, and whose `#` fails with `error`.
    ///
    /// ```swift
    /// struct SensorFault: Error, Equatable {}
    /// let scheduler = DispatchQueue.test
    /// let sensor = scheduler.createHotPublisher(marbles: "1-2-#", outputType: Int.self, error: SensorFault())
    /// #expect(scheduler.marbles(of: sensor.map { $0 * 2 }) == "2-4-#")
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram, one character a frame from `^` or from the scheduler's start.
    ///   - outputType: The type each value character is read as, with `init?(_: String)`.
    ///   - error: What `#` fails with.
    ///   - frame: How long each character lasts.
    ///   - fileID: The file a malformed diagram is reported in; leave the default.
    ///   - filePath: The path of that file; leave the default.
    ///   - line: The line a malformed diagram is reported at; leave the default.
    ///   - column: The column a malformed diagram is reported at; leave the default.
    /// - Returns: The publisher, already playing.
    public func createHotPublisher<Output: LosslessStringConvertible, Failure: Error>(
        marbles: String, outputType: Output.Type, error: Failure, frame: SchedulerTimeType.Stride = .seconds(1),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> HotTestPublisher<Output, Failure, SchedulerTimeType> {
        HotTestPublisher(
            scheduler: self,
            script: MarbleDiagram.script(
                marbles, kind: .hot, frame: frame, values: .lossless(), error: error,
                at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)))
    }

}
