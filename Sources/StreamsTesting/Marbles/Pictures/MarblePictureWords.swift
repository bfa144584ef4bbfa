/// What a ``MarblePicture`` shows, in words, for its alternative text: one sentence for the
/// operator, then one for each line, in the order they are drawn (inputs, then outputs).
///
/// `keys sends a at 1 s, b at 3 s and c at 8 s, then finishes at 11 s.` A line subscribed more than
/// once says so subscription by subscription; one that received nothing says that.
struct MarblePictureWords<Time: SignedNumeric & Comparable> {
    let caption: String
    let lines: [MarbleLine<Time>]
    let describe: (Time) -> String

    var text: String {
        let ordered = lines.filter { !$0.isOutput } + lines.filter(\.isOutput)
        return (["A marble diagram of \(caption)."] + ordered.map(sentence)).joined(separator: " ")
    }

    private func sentence(_ line: MarbleLine<Time>) -> String {
        switch line.segments.count {
        case 0:
            return "\(line.title) is never subscribed."
        case 1:
            let segment = line.segments[0]
            let start = segment.start == .zero ? "" : "is subscribed at \(describe(segment.start)), then "
            return "\(line.title) \(start)\(events(of: segment))."
        default:
            let parts = line.segments.enumerated().map { index, segment in
                "subscription \(index + 1), at \(describe(segment.start)), \(events(of: segment))"
            }
            return "\(line.title): \(parts.joined(separator: "; "))."
        }
    }

    /// `sends a at 1 s and b at 2 s, then finishes at 3 s`
    private func events(of segment: MarbleLine<Time>.Segment) -> String {
        var values: [String] = []
        var ending: String?
        for mark in segment.marks {
            let at = describe(mark.time)
            switch mark.event {
            case .value(let label): values.append("\(label) at \(at)")
            case .finished: ending = "finishes at \(at)"
            case .failed(let error): ending = "fails at \(at) with \(error)"
            case .cancelled: ending = "is cancelled at \(at)"
            case .subscribed: break
            }
        }
        let sends = values.isEmpty ? "sends nothing" : "sends " + Self.list(values)
        guard let ending else { return sends }
        return values.isEmpty ? "sends nothing and \(ending)" : "\(sends), then \(ending)"
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}
