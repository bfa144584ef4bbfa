import Dispatch
import Streams
import StreamsTesting
import Testing

@testable import Search

@Test func searchesOnceTypingPauses() {
    let scheduler = DispatchQueue.test
    var searched: [String] = []
    let model = SearchModel(
        search: { query in
            searched.append(query)
            return Just(["\(query) result"]).eraseToAnyPublisher()
        },
        scheduler: scheduler.eraseToAnyScheduler()
    )

    model.query = "s"
    scheduler.advance(by: .milliseconds(100))
    model.query = "sw"
    scheduler.advance(by: .milliseconds(299))
    #expect(searched == [])

    scheduler.advance(by: .milliseconds(1))
    #expect(searched == ["sw"])
}

@Test func showsResultsAsSoonAsTheSearchIsDone() {
    let scheduler = DispatchQueue.test
    let model = SearchModel(
        search: { query in Just(["\(query) result"]).eraseToAnyPublisher() },
        scheduler: scheduler.eraseToAnyScheduler()
    )
    let results = scheduler.record(model.$results)

    model.query = "swift"
    scheduler.advance(by: .seconds(1))

    #expect(results.events == [
        .subscription(at: .zero),
        .value([], at: .zero),
        .value(["swift result"], at: .milliseconds(300)),
    ])
}
