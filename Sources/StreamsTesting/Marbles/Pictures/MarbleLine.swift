/// One time line of a ``MarblePicture``: what passed through one input, or reached one subscriber,
/// subscription by subscription.
struct MarbleLine<Time: Comparable> {
    /// An event other than a subscription, at its time.
    struct Mark {
        var event: MarblePictureEvent
        var time: Time
    }

    /// What one subscription saw, from the time it began.
    struct Segment {
        var start: Time
        var marks: [Mark] = []

        /// Whether it has finished, failed or been cancelled.
        var hasEnded: Bool { marks.last?.event.ends ?? false }
    }

    /// The line's name.
    var title: String
    /// Whether it shows what a subscriber of the operator received, rather than an input.
    var isOutput: Bool
    /// Its subscriptions, in the order they began.
    var segments: [Segment] = []
    /// Where its first subscription came among the picture's lines' first subscriptions.
    var subscriptionOrder: Int?

    /// Records `event` at `time`: a subscription starts a segment; anything else goes to the
    /// latest segment that has not ended (a cancellation after the end is not drawn).
    mutating func record(_ event: MarblePictureEvent, at time: Time) {
        if event == .subscribed {
            segments.append(Segment(start: time))
            return
        }
        guard let index = segments.lastIndex(where: { !$0.hasEnded }) else { return }
        segments[index].marks.append(Mark(event: event, time: time))
    }

    /// The line with its times turned into positions by `place`.
    func placed(at place: (Time) -> Double) -> MarbleLine<Double> {
        var line = MarbleLine<Double>(title: title, isOutput: isOutput, subscriptionOrder: subscriptionOrder)
        line.segments = segments.map { segment in
            var placed = MarbleLine<Double>.Segment(start: place(segment.start))
            placed.marks = segment.marks.map { .init(event: $0.event, time: place($0.time)) }
            return placed
        }
        return line
    }
}

/// Something that happens on a line.
enum MarblePictureEvent: Equatable {
    /// A subscription began: a new segment of the line starts.
    case subscribed
    /// A value, as its label writes it.
    case value(String)
    /// The publisher finished.
    case finished
    /// The publisher failed with the error described.
    case failed(String)
    /// The subscriber cancelled.
    case cancelled

    /// Whether nothing follows it on its segment.
    var ends: Bool {
        switch self {
        case .finished, .failed, .cancelled: true
        case .subscribed, .value: false
        }
    }
}
