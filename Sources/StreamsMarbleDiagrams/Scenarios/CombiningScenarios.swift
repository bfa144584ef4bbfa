import Dispatch
import Streams
import StreamsTesting

/// Operators with several upstreams.
var combiningScenarios: [MarbleScenario] {
    [
        MarbleScenario(
            name: "merge", caption: "merge(with: b)",
            pages: ["Publisher/merge(with:)-32684", "Publishers/Merge"],
            note: "Values from both inputs go out as they arrive; the output finishes once both inputs have."
        ) { picture, scheduler in
            let a = picture.input("a", scheduler.createHotPublisher(marbles: "-1---3----|"))
            let b = picture.input("b", scheduler.createHotPublisher(marbles: "---2---4-|"))
            picture.output(a.merge(with: b))
        },
        MarbleScenario(
            name: "combineLatest", caption: "combineLatest(b)",
            pages: ["Publisher/combineLatest(_:)", "Publishers/CombineLatest"],
            note:
                "Once both inputs have sent a value, each new value goes out paired with the latest of the other input; the output finishes once both inputs have."
        ) { picture, scheduler in
            let a = picture.input("a", scheduler.createHotPublisher(marbles: "-1---2----3-|"))
            let b = picture.input("b", scheduler.createHotPublisher(marbles: "---x---y-|"))
            picture.output(a.combineLatest(b), label: pairLabel)
        },
        MarbleScenario(
            name: "zip", caption: "zip(b)",
            pages: ["Publisher/zip(_:)", "Publishers/Zip"],
            note:
                "Values are paired in order, the first of each input together, then the second; a pair goes out when its later value arrives."
        ) { picture, scheduler in
            let a = picture.input("a", scheduler.createHotPublisher(marbles: "-1-2---3---|"))
            let b = picture.input("b", scheduler.createHotPublisher(marbles: "---x--y---z|"))
            picture.output(a.zip(b), label: pairLabel)
        },
        MarbleScenario(
            name: "switchToLatest", caption: "switchToLatest()",
            pages: ["Publisher/switchToLatest()-7j10o", "Publishers/SwitchToLatest"],
            note:
                "Each new publisher from the outer input replaces the one before, which is cancelled; the output finishes when the outer input and the latest publisher both have."
        ) { picture, scheduler in
            let x = NamedPublisher("x", picture.input("x", scheduler.createColdPublisher(marbles: "-a-b--c|")))
            let y = NamedPublisher("y", picture.input("y", scheduler.createColdPublisher(marbles: "-d-e|")))
            let outer = picture.input(
                "outer", scheduler.createHotPublisher(marbles: "-x----y------|", values: ["x": x, "y": y]))
            picture.output(outer.switchToLatest())
        },
        flatMapScenario(name: "flatMap-unlimited", maxPublishers: "unlimited", .unlimited) {
            "Every publisher the closure returns is subscribed at once, and their values are merged as they arrive."
        },
        flatMapScenario(name: "flatMap-max-1", maxPublishers: ".max(1)", .max(1)) {
            "One publisher at a time: the next value is asked of the outer input only once the current publisher has finished, so values come out one publisher after the other."
        },
        MarbleScenario(
            name: "append", caption: "append(suffix)",
            pages: ["Publisher/append(_:)-6e1e8", "Publishers/Concatenate"],
            note: "`suffix` is subscribed only when the upstream finishes; its values follow the upstream's."
        ) { picture, scheduler in
            let upstream = picture.input("upstream", scheduler.createColdPublisher(marbles: "-1-2|"))
            let suffix = picture.input("suffix", scheduler.createColdPublisher(marbles: "-3-4|"))
            picture.output(upstream.append(suffix))
        },
        MarbleScenario(
            name: "prepend", caption: "prepend(prefix)",
            pages: ["Publisher/prepend(_:)-6pwj8", "Publishers/Concatenate"],
            note: "`prefix` is subscribed first; the upstream is subscribed only when `prefix` finishes."
        ) { picture, scheduler in
            let upstream = picture.input("upstream", scheduler.createColdPublisher(marbles: "-3-4|"))
            let prefix = picture.input("prefix", scheduler.createColdPublisher(marbles: "-1-2|"))
            picture.output(upstream.prepend(prefix))
        },
    ]
}

/// The diagram of `flatMap(maxPublishers:)`: an outer publisher of two publishers, each drawn on
/// its own line from when flatMap subscribes to it.
private func flatMapScenario(
    name: String, maxPublishers caption: String, _ maxPublishers: Subscribers.Demand, note: () -> String
) -> MarbleScenario {
    MarbleScenario(
        name: name, caption: "flatMap(maxPublishers: \(caption)) { $0 }",
        pages: ["Publisher/flatMap(maxPublishers:_:)-60vvr", "Publishers/FlatMap"],
        note: note()
    ) { picture, scheduler in
        let x = NamedPublisher("x", picture.input("x", scheduler.createColdPublisher(marbles: "-a--b|")))
        let y = NamedPublisher("y", picture.input("y", scheduler.createColdPublisher(marbles: "--c--d|")))
        let outer = picture.input("outer", [x, y].publisher)
        picture.output(outer.flatMap(maxPublishers: maxPublishers) { $0 })
    }
}

/// A pair of values, written together: `(1, x)` as `1x`.
func pairLabel(_ pair: (some Any, some Any)) -> String {
    "\(pair.0)\(pair.1)"
}
