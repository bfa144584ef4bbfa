import Dispatch
import Streams
import StreamsTesting

/// Operators that let some values through and not others.
var filteringScenarios: [MarbleScenario] {
    [
        .overOneInput(
            name: "filter", caption: "filter { $0.isMultiple(of: 2) }",
            pages: ["Publisher/filter(_:)", "Publishers/Filter"],
            note: "Only the values the closure accepts pass, when they arrive.",
            upstream: "-1-2-3-4-5|", of: Int.self
        ) { upstream, _ in upstream.filter { $0.isMultiple(of: 2) } },
        .overOneInput(
            name: "removeDuplicates", caption: "removeDuplicates()",
            pages: ["Publisher/removeDuplicates()", "Publishers/RemoveDuplicates"],
            note:
                "A value equal to the one just before it is dropped; a value seen earlier, but not just before, passes.",
            upstream: "-1-1-2-2-1-|", of: Int.self
        ) { upstream, _ in upstream.removeDuplicates() },
        .overOneInput(
            name: "prefix-count", caption: "prefix(2)",
            pages: ["Publisher/prefix(_:)", "Publishers/Output"],
            note: "After the second value the output finishes and the upstream is cancelled.",
            upstream: "-1-2-3-4-|", of: Int.self
        ) { upstream, _ in upstream.prefix(2) },
        .overOneInput(
            name: "prefix-while", caption: "prefix { $0 < 3 }",
            pages: ["Publisher/prefix(while:)", "Publishers/PrefixWhile"],
            note: "The first value the closure rejects is dropped, the output finishes, and the upstream is cancelled.",
            upstream: "-1-2-3-1-|", of: Int.self
        ) { upstream, _ in upstream.prefix { $0 < 3 } },
        MarbleScenario(
            name: "prefix-until-output", caption: "prefix(untilOutputFrom: other)",
            pages: ["Publisher/prefix(untilOutputFrom:)", "Publishers/PrefixUntilOutput"],
            note:
                "Values pass until `other` sends its first value; then the output finishes and the upstream is cancelled."
        ) { picture, scheduler in
            let upstream = picture.input(
                "upstream", scheduler.createHotPublisher(marbles: "-1-2-3-4-|", outputType: Int.self))
            let other = picture.input("other", scheduler.createHotPublisher(marbles: "----x----"))
            picture.output(upstream.prefix(untilOutputFrom: other))
        },
        .overOneInput(
            name: "dropFirst", caption: "dropFirst(2)",
            pages: ["Publisher/dropFirst(_:)", "Publishers/Drop"],
            note: "The first two values are dropped; everything after them passes.",
            upstream: "-1-2-3-4-|", of: Int.self
        ) { upstream, _ in upstream.dropFirst(2) },
        .overOneInput(
            name: "drop-while", caption: "drop { $0 < 3 }",
            pages: ["Publisher/drop(while:)", "Publishers/DropWhile"],
            note: "Values are dropped until the closure first rejects one; from then on everything passes.",
            upstream: "-1-2-3-1-|", of: Int.self
        ) { upstream, _ in upstream.drop { $0 < 3 } },
        MarbleScenario(
            name: "drop-until-output", caption: "drop(untilOutputFrom: other)",
            pages: ["Publisher/drop(untilOutputFrom:)", "Publishers/DropUntilOutput"],
            note: "Values are dropped until `other` sends its first value; from then on everything passes."
        ) { picture, scheduler in
            let upstream = picture.input(
                "upstream", scheduler.createHotPublisher(marbles: "-1-2-3-4-|", outputType: Int.self))
            let other = picture.input("other", scheduler.createHotPublisher(marbles: "----x----"))
            picture.output(upstream.drop(untilOutputFrom: other))
        },
        .overOneInput(
            name: "first", caption: "first()",
            pages: ["Publisher/first()", "Publishers/First"],
            note: "The first value goes out with the completion at once, and the upstream is cancelled.",
            upstream: "--1-2-3-|", of: Int.self
        ) { upstream, _ in upstream.first() },
        .overOneInput(
            name: "last", caption: "last()",
            pages: ["Publisher/last()", "Publishers/Last"],
            note: "Only the last value is published, once the upstream has finished.",
            upstream: "--1-2-3-|", of: Int.self
        ) { upstream, _ in upstream.last() },
    ]
}
