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

@Test func waitsForTheServer() {
    let scheduler = DispatchQueue.test
    let server = scheduler.createColdPublisher([
        .value(["swift", "swiftui"], at: .milliseconds(200)),
        .finished(at: .milliseconds(200)),
    ])
    let model = SearchModel(
        search: { _ in server.eraseToAnyPublisher() },
        scheduler: scheduler.eraseToAnyScheduler()
    )
    let results = scheduler.record(model.$results)

    model.query = "swi"
    scheduler.advance(by: .seconds(1))

    #expect(results.valuesWithTimes == [
        .init([], at: .zero),
        .init(["swift", "swiftui"], at: .milliseconds(500)),
    ])
    #expect(server.subscriptions.map(\.subscribed) == [.milliseconds(300)])
}

@Test func aNewQueryCancelsTheSearchInFlight() {
    let scheduler = DispatchQueue.test
    let server = scheduler.createColdPublisher([
        .value(["swift", "swiftui"], at: .seconds(1)),
        .finished(at: .seconds(1)),
    ])
    let model = SearchModel(
        search: { _ in server.eraseToAnyPublisher() },
        scheduler: scheduler.eraseToAnyScheduler()
    )
    let results = scheduler.record(model.$results)

    model.query = "sw"
    scheduler.advance(by: .milliseconds(400))
    model.query = "swi"
    scheduler.advance(by: .seconds(2))

    #expect(

        server.subscriptions.map(\.subscribed) == [.milliseconds(300), .milliseconds(700)])
    #expect(server.subscriptions.map(\.cancelled) == [.milliseconds(700), nil])
    #expect(results.valuesWithTimes == [
        .init([], at: .zero),
        .init(["swift", "swiftui"], at: .milliseconds(1700)),
    ])
}
