import Dispatch
import Streams
import StreamsTesting

/// Operators that handle failure.
var errorScenarios: [MarbleScenario] {
    [
        MarbleScenario(
            name: "catch", caption: "catch { _ in fallback }",
            pages: ["Publisher/catch(_:)", "Publishers/Catch"],
            note: "When the upstream fails, the failure is replaced by the fallback publisher, subscribed then."
        ) { picture, scheduler in
            let upstream = picture.input(
                "upstream", scheduler.createColdPublisher(marbles: "-1-2-#", error: DiagramError()))
            let fallback = picture.input(
                "fallback", scheduler.createColdPublisher(marbles: "-8-9|", error: DiagramError()))
            picture.output(upstream.catch { _ in fallback })
        },
        MarbleScenario(
            name: "retry", caption: "retry(2)",
            pages: ["Publisher/retry(_:)", "Publishers/Retry"],
            note:
                "Each failure subscribes to the upstream again, up to two more times; values sent before a failure are not taken back."
        ) { picture, scheduler in
            let attempts = [
                scheduler.createColdPublisher(marbles: "-1-#", error: DiagramError()),
                scheduler.createColdPublisher(marbles: "-1-#", error: DiagramError()),
                scheduler.createColdPublisher(marbles: "-1-2|", error: DiagramError()),
            ]
            let attempt = AttemptCounter()
            let upstream = picture.input("upstream", Deferred { attempts[attempt.next()] })
            picture.output(upstream.retry(2))
        },
        MarbleScenario(
            name: "replaceError", caption: "replaceError(with: 0)",
            pages: ["Publisher/replaceError(with:)", "Publishers/ReplaceError"],
            note: "A failure becomes one last value, followed by the completion."
        ) { picture, scheduler in
            let upstream = picture.input(
                "upstream", scheduler.createHotPublisher(marbles: "-1-2-#", outputType: Int.self, error: DiagramError())
            )
            picture.output(upstream.replaceError(with: 0))
        },
    ]
}

/// Counts the subscriptions of a retried publisher, to give each attempt its own script.
final class AttemptCounter {
    private var count = 0

    /// The index of this attempt: 0, then 1, …
    func next() -> Int {
        defer { count += 1 }
        return count
    }
}
