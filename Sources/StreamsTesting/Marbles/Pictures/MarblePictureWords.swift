/// What a ``MarblePicture`` shows, in words, for its alternative text: one sentence for the
/// operator, then one for each line, in the order they are drawn (inputs, then outputs).
///
/// `keys sends a at 1 s, b at 3 s and c at 8 s, then finishes at 11 s.` An input, or the line titled
/// `output`, speaks of what the publisher sent; a subscriber's line titled otherwise, of what it
/// received: `subscriber 2 subscribes at 6 s, then receives 4 at 7 s, then the completion at 11 s.`
/// A line subscribed more than once says so subscription by subscription.
struct MarblePictureWords<Time: SignedNumeric & Comparable> {
    let caption: String
    let lines: [MarbleLine<Time>]
    let describe: (Time) -> String

    var text: String {
        (["A marble diagram of \(caption)."] + lineSentences).joined(separator: " ")
    }

    /// One sentence for each line, in the order they are drawn.
    var lineSentences: [String] {
        (lines.filter { !$0.isOutput } + lines.filter(\.isOutput)).map(sentence)
    }

    /// The words of one line: what a publisher did, or, for a subscriber named otherwise than
    /// `output`, what it received.
    private struct Voice {
        var subscribed: String
        var nothing: String
        var values: String
        var finished: String
        var failed: String
        var cancelled: String

        static var publisher: Voice {
            Voice(
                subscribed: "is subscribed at", nothing: "sends nothing", values: "sends", finished: "finishes at",
                failed: "fails at", cancelled: "is cancelled at")
        }
        static var subscriber: Voice {
            Voice(
                subscribed: "subscribes at", nothing: "receives nothing", values: "receives",
                finished: "the completion at", failed: "a failure at", cancelled: "cancels at")
        }
    }

    private func sentence(_ line: MarbleLine<Time>) -> String {
        let voice = line.isOutput && line.title != "output" ? Voice.subscriber : .publisher
        switch line.segments.count {
        case 0:
            return "\(line.title) is never subscribed."
        case 1:
            let segment = line.segments[0]
            let start = segment.start == .zero ? "" : "\(voice.subscribed) \(describe(segment.start)), then "
            return "\(line.title) \(start)\(events(of: segment, voice: voice))."
        default:
            let parts = line.segments.enumerated().map { index, segment in
                "subscription \(index + 1), at \(describe(segment.start)), \(events(of: segment, voice: voice))"
            }
            return "\(line.title): \(parts.joined(separator: "; "))."
        }
    }

    /// `sends a at 1 s and b at 2 s, then finishes at 3 s`, or `receives a at 1 s, then the
    /// completion at 3 s`.
    private func events(of segment: MarbleLine<Time>.Segment, voice: Voice) -> String {
        var values: [String] = []
        var ending: String?
        for mark in segment.marks {
            let at = describe(mark.time)
            switch mark.event {
            case .value(let label): values.append("\(label) at \(at)")
            case .finished: ending = "\(voice.finished) \(at)"
            case .failed(let error): ending = "\(voice.failed) \(at) with \(error)"
            case .cancelled: ending = "\(voice.cancelled) \(at)"
            case .subscribed: break
            }
        }
        let received = values.isEmpty ? voice.nothing : "\(voice.values) " + Self.list(values)
        guard let ending else { return received }
        return values.isEmpty ? "\(voice.nothing), then \(ending)" : "\(received), then \(ending)"
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}
