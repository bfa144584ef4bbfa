import Dispatch
import Streams
import StreamsTesting

/// Operators that act on time, on the diagram's test scheduler.
var timingScenarios: [MarbleScenario] {
    [
        .overOneInput(
            name: "debounce", caption: "debounce(for: .seconds(2), scheduler: scheduler)",
            pages: ["Publisher/debounce(for:scheduler:options:)", "Publishers/Debounce"],
            note: "A value goes out only after two seconds without another; each new value starts the wait again.",
            upstream: "-a-b----c-d---|", of: String.self
        ) { upstream, scheduler in upstream.debounce(for: .seconds(2), scheduler: scheduler) },
        throttleScenario(latest: true) {
            "The first value goes out at once; after that, at most one value every three seconds: the latest that arrived during the interval."
        },
        throttleScenario(latest: false) {
            "The first value goes out at once; after that, at most one value every three seconds: the first that arrived during the interval."
        },
        .overOneInput(
            name: "delay", caption: "delay(for: .seconds(2), scheduler: scheduler)",
            pages: ["Publisher/delay(for:tolerance:scheduler:options:)", "Publishers/Delay"],
            note: "Every value, and the completion, goes out two seconds after it arrived.",
            upstream: "-a--b-c-|", of: String.self
        ) { upstream, scheduler in upstream.delay(for: .seconds(2), scheduler: scheduler) },
        .overOneInput(
            name: "timeout", caption: "timeout(.seconds(3), scheduler: scheduler)",
            pages: ["Publisher/timeout(_:scheduler:options:customError:)", "Publishers/Timeout"],
            note:
                "When three seconds pass without a value, the output finishes and the upstream is cancelled; with `customError`, it fails instead.",
            upstream: "-a-b------c|", of: String.self
        ) { upstream, scheduler in upstream.timeout(.seconds(3), scheduler: scheduler) },
        .overOneInput(
            name: "measureInterval", caption: "measureInterval(using: scheduler)",
            pages: ["Publisher/measureInterval(using:options:)", "Publishers/MeasureInterval"],
            note: "Each value is replaced by the time since the previous one (since the subscription, for the first).",
            upstream: "-a--b-c---d|", of: String.self, label: { "\($0.magnitude / 1_000_000_000) s" }
        ) { upstream, scheduler in upstream.measureInterval(using: scheduler) },
        .overOneInput(
            name: "receive-on", caption: "receive(on: scheduler)",
            pages: ["Publisher/receive(on:options:)", "Publishers/ReceiveOn"],
            note:
                "Each value and the completion are handed to the scheduler, which delivers them when it runs: on a test scheduler, at the same virtual time, once the test moves the clock.",
            upstream: "-a-b--c-|", of: String.self
        ) { upstream, scheduler in upstream.receive(on: scheduler) },
    ]
}

/// The diagram of `throttle(for:scheduler:latest:)`, with `latest` true or false, over one input.
private func throttleScenario(latest: Bool, note: () -> String) -> MarbleScenario {
    .overOneInput(
        name: "throttle-latest-\(latest)",
        caption: "throttle(for: .seconds(3), scheduler: scheduler, latest: \(latest))",
        pages: ["Publisher/throttle(for:scheduler:latest:)", "Publishers/Throttle"],
        note: note(), upstream: "-ab-c---d-e----|", of: String.self
    ) { upstream, scheduler in upstream.throttle(for: .seconds(3), scheduler: scheduler, latest: latest) }
}
