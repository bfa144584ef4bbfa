extension Publisher {
    /// Marks a point of the pipeline: every subscription through it gets a lane in `recorder`'s
    /// timeline, which records its start, each demand, each value, its completion and its cancel,
    /// with the time, the thread and, for a cancel, why.
    ///
    /// The operator passes everything through unchanged. Mark several points of one chain to see a
    /// value go through each; several subscriptions through one point (after `share()`, say) each
    /// get a lane of their own.
    ///
    /// ```swift
    /// let recorder = TimelineRecorder()
    /// let query = PassthroughSubject<String, Never>()
    /// let cancellable = query
    ///     .removeDuplicates()
    ///     .recordTimeline("search terms", to: recorder)
    ///     .sink { _ in }
    /// query.send("swift")
    /// query.send("swift")  // dropped by removeDuplicates: the timeline shows one value
    /// cancellable.cancel()
    /// print(recorder.table)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The point's name, shown on each of its lanes.
    ///   - recorder: Where the events go: ``TimelineRecorder/shared`` unless told otherwise.
    /// - Returns: A publisher that publishes what this one publishes, recording as it goes.
    public func recordTimeline(_ name: String, to recorder: TimelineRecorder = .shared) -> TimelinePublisher<Self> {
        TimelinePublisher(upstream: self, name: name, recorder: recorder)
    }
}

/// A publisher that passes everything through from its upstream publisher and records each
/// subscription's life in a ``TimelineRecorder``; made by ``Publisher/recordTimeline(_:to:)``.
public struct TimelinePublisher<Upstream: Publisher>: Publisher, TimelineMarkedPublisher {
    /// The upstream publisher's output.
    public typealias Output = Upstream.Output

    /// The upstream publisher's failure.
    public typealias Failure = Upstream.Failure

    /// The publisher whose subscriptions are recorded.
    public let upstream: Upstream

    /// The point's name, shown on each of its lanes.
    public let name: String

    /// Where the events go.
    public let recorder: TimelineRecorder

    /// Creates a publisher that records each subscription to `upstream` in `recorder`, under `name`.
    public init(upstream: Upstream, name: String, recorder: TimelineRecorder) {
        self.upstream = upstream
        self.name = name
        self.recorder = recorder
    }

    /// Subscribes `subscriber` to the upstream publisher through a new lane.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let innermost = TimelineRecording.isActive ? TimelineFrame.innermostTap : nil
        let tap = TimelineTapSubscription(
            recorder: recorder, lane: recorder.makeLane(named: name, below: innermost),
            everySubscription: TimelineRecording.isActive ? TimelineRecording.recorderForEverySubscription() : nil,
            downstream: subscriber)
        tap.subscribe(to: upstream)
    }
}
