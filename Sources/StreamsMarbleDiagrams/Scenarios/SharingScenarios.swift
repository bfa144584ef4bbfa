import Dispatch
import Streams
import StreamsTesting

/// Operators that hold values for a slow subscriber, or share one subscription among several.
var sharingScenarios: [MarbleScenario] {
    [
        MarbleScenario(
            name: "buffer", caption: "buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest)",
            pages: ["Publisher/buffer(size:prefetch:whenFull:)", "Publishers/Buffer"],
            note:
                "The subscriber asks for one value at the start and one more every four seconds. The buffer asks the upstream for everything and holds up to two values the subscriber has not asked for yet: 6 arrives while it is full and is dropped. The completion, too, waits until the subscriber asks."
        ) { picture, scheduler in
            let upstream = picture.input(
                "upstream", scheduler.createHotPublisher(marbles: "-1-2-3-4-5-6-|", outputType: Int.self))
            let recorder = picture.output(
                upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest), initialDemand: .max(1))
            for second in stride(from: 4, through: 20, by: 4) { recorder.request(.max(1), at: .seconds(second)) }
        },
        MarbleScenario(
            name: "share", caption: "share()",
            pages: ["Publisher/share()", "Publishers/Share"],
            note:
                "Every subscriber shares one subscription to the upstream: a subscriber that joins late sees only what comes after it joined, and one that cancels stops receiving while the others go on."
        ) { picture, scheduler in
            let upstream = picture.input(
                "upstream", scheduler.createHotPublisher(marbles: "-1-2-3-4-5-|", outputType: Int.self))
            let shared = upstream.share()
            let first = picture.output(shared, title: "subscriber 1")
            first.cancel(at: .seconds(8))
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(4))) {
                picture.output(shared, title: "subscriber 2")
            }
        },
        MarbleScenario(
            name: "multicast", caption: "multicast { PassthroughSubject() }",
            pages: ["Publisher/multicast(_:)", "Publishers/Multicast"],
            note:
                "Subscribers attach to the subject, and nothing is asked of the upstream until `connect()`, called here at 4 s; from then on each subscriber receives what the upstream sends, a late one only what comes after it joined."
        ) { picture, scheduler in
            let upstream = picture.input(
                "upstream", scheduler.createHotPublisher(marbles: "-1-2-3-4-5-|", outputType: Int.self))
            let multicast = upstream.multicast { PassthroughSubject() }
            picture.output(multicast, title: "subscriber 1")
            let connection = ConnectionHolder()
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(4))) {
                connection.cancellable = multicast.connect()
            }
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(6))) {
                picture.output(multicast, title: "subscriber 2")
            }
            // The connection lasts as long as its cancellable: keep it until the upstream has finished.
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(11))) {
                withExtendedLifetime(connection) {}
            }
        },
    ]
}

/// Keeps the connection of a connectable publisher for as long as the run lasts.
final class ConnectionHolder {
    var cancellable: (any Cancellable)?
}
