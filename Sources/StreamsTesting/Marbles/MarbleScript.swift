/// How the characters of a diagram become values: from a dictionary, or from the character itself.
struct MarbleValues<Output> {
    /// The end of the message for a character that is not a value, such as "has no value in values:".
    let hint: String
    /// The value a character stands for, or `nil` if it stands for none.
    let read: (Character) -> Output?

    /// Looks each character up in `values`.
    static func dictionary(_ values: [Character: Output]) -> Self {
        MarbleValues(hint: "is not a key of values:") { values[$0] }
    }

    /// Reads each character as a value with `Output(String(character))`.
    static func lossless() -> Self where Output: LosslessStringConvertible {
        MarbleValues(hint: "cannot be read as a \(Output.self)") { Output(String($0)) }
    }
}

extension MarbleDiagram {
    /// Parses `source` as the script of a cold or hot test publisher. A diagram that cannot be played
    /// fails the running test with a message saying what is wrong and where, and gives an empty
    /// script (or, for a `#` the publisher cannot send, the script without it).
    ///
    /// Each frame lasts `frame`. In a hot diagram, values left of `^` are dropped (they happened
    /// before the test began, when nobody could subscribe), and a completion left of `^` happens at
    /// time zero. `#` fails with `error`; a diagram with `#` and no error fails the test. Failures are
    /// recorded at `caller`, the test's call that was given the diagram.
    static func script<Output, Failure: Error, Stride: SignedNumeric & Comparable>(
        _ source: String, kind: Kind, frame: Stride, values: MarbleValues<Output>, error: Failure?,
        at caller: CallSite
    ) -> [Recorded<Stride, TestEvent<Output, Failure>>] {
        guard frame > .zero else {
            TestIssueReporter.report("A marble frame must last longer than zero; \(frame) was given.", at: caller)
            return []
        }
        guard
            let diagram = parseOrReport(
                source, kind: kind, unknownValueHint: values.hint, isValue: { values.read($0) != nil }, at: caller)
        else { return [] }
        var script: [Recorded<Stride, TestEvent<Output, Failure>>] = []
        for event in diagram.events {
            let time = frame * Stride(exactly: Swift.max(event.frame, 0))!
            switch event.symbol {
            case .value(let character):
                guard event.frame >= 0 else { continue }
                script.append(.value(values.read(character)!, at: time))
            case .finished:
                script.append(.finished(at: time))
            case .failure:
                guard let error else {
                    TestIssueReporter.report(
                        MarbleSyntaxError(
                            diagram: source, column: event.column,
                            problem: "'#' but the publisher cannot fail; pass error: to say what it fails with"
                        ).description, at: caller)
                    continue
                }
                script.append(.failure(error, at: time))
            case .subscribed, .cancelled:
                break
            }
        }
        return script
    }
}
