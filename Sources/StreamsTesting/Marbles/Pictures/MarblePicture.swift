public import Streams

/// A marble diagram drawn as a picture, from a real run on a ``TestScheduler``: one time line for
/// each input of an operator, the operator's code in a box, and one time line for each subscriber
/// of its output.
///
/// Pass each input through ``input(_:_:label:)`` and subscribe to the result with
/// ``output(_:title:initialDemand:demandPerValue:label:)``; both record on the scheduler's virtual time
/// what passes: the subscription, each value, the completion or failure, and a cancellation. Then
/// move the scheduler and draw: ``svg(appearance:)`` gives an SVG picture, and ``altText`` says in
/// words what it shows, for the image's alternative text.
///
/// ```swift
/// @Test func drawsDebounce() throws {
///     let scheduler = DispatchQueue.test
///     let picture = MarblePicture(
///         of: "debounce(for: .seconds(2), scheduler: scheduler)", scheduler: scheduler)
///     let keys = picture.input("keys", scheduler.createHotPublisher(marbles: "-a-b----c--|"))
///     picture.output(keys.debounce(for: .seconds(2), scheduler: scheduler))
///     scheduler.run()
///
///     #expect(picture.altText.hasSuffix(
///         "output sends b at 5 s and c at 10 s, then finishes at 11 s."))
///     try picture.svg().write(toFile: "debounce.svg", atomically: true, encoding: .utf8)
/// }
/// ```
///
/// The picture spans from the scheduler's start to the later of its current time and the last event,
/// with one column for each `frame` of virtual time. The same run always draws the same picture, byte
/// for byte, so a picture committed next to the code it shows can be checked for being up to date.
/// Inputs are drawn above the box and outputs below it, each in the order of their first
/// subscriptions: a publisher that an operator subscribes to later, such as an inner publisher of
/// `flatMap`, is drawn below the ones subscribed earlier. A
/// publisher subscribed several times is drawn on one line, each subscription from the time it
/// began (a retried publisher's attempts follow one another).
///
/// - Note: Pictures are made on a test scheduler, driven by one thread; the picture records from
///   any thread, but events that happen on several threads at one virtual time are drawn in the
///   order they were recorded.
public final class MarblePicture<SchedulerTimeType: Strideable, SchedulerOptions>:
    // @unchecked: `lines` and `subscriptionCount` are guarded by `lock`; the rest is immutable.
    @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    /// A stride of the scheduler's time.
    public typealias Stride = SchedulerTimeType.Stride

    /// The colours a picture is drawn in: dark text and lines for a light page, light ones for a
    /// dark page.
    public enum Appearance: Sendable {
        /// For a light background.
        case light
        /// For a dark background.
        case dark
    }

    /// The code of the operator the picture shows, written in its box, such as
    /// `debounce(for: .seconds(2), scheduler: scheduler)`.
    public let caption: String

    /// How much virtual time one column of the picture stands for.
    public let frame: Stride

    private let scheduler: TestScheduler<SchedulerTimeType, SchedulerOptions>
    private let lock = Lock()
    private var lines: [MarbleLine<Stride>] = []
    /// How many lines have been subscribed to so far.
    private var subscriptionCount = 0

    /// Creates an empty picture of the operator written as `caption`, timed on `scheduler`.
    ///
    /// - Parameters:
    ///   - caption: The operator's code, written in the picture's box.
    ///   - scheduler: The test scheduler whose virtual time places each event.
    ///   - frame: How much virtual time one column stands for; events between columns are drawn
    ///     between them.
    public init(
        of caption: String, scheduler: TestScheduler<SchedulerTimeType, SchedulerOptions>,
        frame: Stride = .seconds(1)
    ) {
        precondition(frame > .zero, "A marble picture's frame must last longer than zero")
        self.caption = caption
        self.scheduler = scheduler
        self.frame = frame
    }

    /// Adds an input line titled `title` and returns `publisher` unchanged, except that what passes
    /// through it is drawn on that line: each subscription from the time it began, its values (as
    /// `label` writes them), its completion or failure, and its cancellation.
    ///
    /// - Parameters:
    ///   - title: The line's name, written at its left.
    ///   - publisher: The input.
    ///   - label: How a value is written in its marble; its description by default.
    /// - Returns: The same publisher, to pass to the operator.
    public func input<P: Publisher>(
        _ title: String, _ publisher: P, label: @escaping (P.Output) -> String = { String(describing: $0) }
    ) -> AnyPublisher<P.Output, P.Failure> {
        tap(publisher, line: addLine(title, isOutput: false), label: label).eraseToAnyPublisher()
    }

    /// Adds an output line titled `title` and subscribes a recorder to `publisher` through it.
    ///
    /// The recorder is returned so that the test can request more or cancel, now or at a virtual
    /// time; a cancellation is drawn on the line.
    ///
    /// - Parameters:
    ///   - publisher: What the operator publishes.
    ///   - title: The line's name, written at its left.
    ///   - initialDemand: What the recorder requests when the subscription arrives.
    ///   - demandPerValue: What the recorder requests after each value.
    ///   - label: How a value is written in its marble; its description by default.
    /// - Returns: The recorder, already subscribed.
    @discardableResult
    public func output<P: Publisher>(
        _ publisher: P, title: String = "output", initialDemand: Subscribers.Demand = .unlimited,
        demandPerValue: Subscribers.Demand = .none, label: @escaping (P.Output) -> String = { String(describing: $0) }
    ) -> TimedTestSubscriber<P.Output, P.Failure, SchedulerTimeType> {
        let recorder = TimedTestSubscriber<P.Output, P.Failure, SchedulerTimeType>(
            scheduler: scheduler, initialDemand: initialDemand, demandPerValue: demandPerValue)
        tap(publisher, line: addLine(title, isOutput: true), label: label).subscribe(recorder)
        return recorder
    }

    /// What the picture shows, in words: the operator, then each line's events with their times.
    ///
    /// For example: "A marble diagram of `debounce(for: .seconds(2), scheduler: scheduler)`. keys
    /// sends a at 1 s, b at 3 s and c at 8 s, then finishes at 11 s. output sends b at 5 s and c at
    /// 10 s, then finishes at 11 s."
    public var altText: String {
        words(recordedLines)
    }

    /// What `lines` show, in words.
    private func words(_ lines: [MarbleLine<Stride>]) -> String {
        MarblePictureWords(caption: caption, lines: lines) { ReadableTime.describe($0) }.text
    }

    /// The picture as an SVG document, in the colours of `appearance`.
    ///
    /// Its size fits its content (about 40 points a column); it carries the ``altText`` as its
    /// accessible description.
    public func svg(appearance: Appearance = .light) -> String {
        let lines = recordedLines
        let columns = frameCount(lines)
        let layout = MarblePictureLayout(
            caption: caption, lines: lines.map { $0.placed(at: position(of:)) }, columns: columns,
            rulerLabel: { ReadableTime.describe(self.frame * Stride(exactly: $0)!) })
        return MarbleSVGWriter(
            layout: layout, palette: appearance == .light ? .light : .dark, title: "A marble diagram of \(caption)",
            description: words(lines)
        ).document
    }

    // MARK: Recording

    /// The lines in the order they are drawn: in the order of their first subscriptions, then, for
    /// lines never subscribed, in the order they were added.
    private var recordedLines: [MarbleLine<Stride>] {
        let lines = lock.withLock { self.lines }
        return lines.indices.sorted { first, second in
            switch (lines[first].subscriptionOrder, lines[second].subscriptionOrder) {
            case (let one?, let other?): one < other
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): first < second
            }
        }.map { lines[$0] }
    }

    private func addLine(_ title: String, isOutput: Bool) -> Int {
        lock.withLock {
            lines.append(MarbleLine(title: title, isOutput: isOutput))
            return lines.count - 1
        }
    }

    private func tap<P: Publisher>(_ publisher: P, line: Int, label: @escaping (P.Output) -> String)
        -> MarbleTap<P>
    {
        MarbleTap(upstream: publisher, label: label) { [self] event in
            let time = scheduler.elapsed
            lock.withLock {
                if event == .subscribed, lines[line].subscriptionOrder == nil {
                    lines[line].subscriptionOrder = subscriptionCount
                    subscriptionCount += 1
                }
                lines[line].record(event, at: time)
            }
        }
    }

    // MARK: Placing

    /// How many columns the picture spans: to the current time or one past the last event.
    private func frameCount(_ lines: [MarbleLine<Stride>]) -> Int {
        let last = lines.flatMap(\.segments).flatMap { [$0.start] + $0.marks.map(\.time) }.max() ?? .zero
        let end = max(last, scheduler.elapsed)
        let columns = Int(position(of: end).rounded(.up))
        return min(max(columns + 1, 4), Self.mostColumns)
    }

    /// The most columns a picture draws; later events are drawn at its right edge.
    private static var mostColumns: Int { 400 }

    /// Where `time` falls, in columns from the start, to a hundredth of a column.
    private func position(of time: Stride) -> Double {
        switch marbleFrame(of: time, frame: frame) {
        case .beforeZero:
            return 0
        case .tooFar:
            return Double(Self.mostColumns)
        case .frame(let index, let exact):
            guard index < Self.mostColumns else { return Double(Self.mostColumns) }
            if exact { return Double(index) }
            let remainder = time - frame * Stride(exactly: index)!
            let scaled = remainder * Stride(exactly: 100)!
            var hundredths = 0
            while hundredths < 99, frame * Stride(exactly: hundredths + 1)! <= scaled { hundredths += 1 }
            return Double(index) + Double(hundredths) / 100
        }
    }
}
