import Dispatch
import Foundation
import Streams
import StreamsTesting
import Synchronization
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

@Test func followsTheUserTyping() {
    let scheduler = DispatchQueue.test
    let typing = scheduler.createHotPublisher([
        .value("s", at: .zero),
        .value("sw", at: .milliseconds(100)),
        .value("swi", at: .milliseconds(250)),
        .value("swif", at: .milliseconds(900)),
        .value("swift", at: .milliseconds(1000)),
    ])
    var searched: [String] = []
    let model = SearchModel(
        search: { query in
            searched.append(query)
            return Just(["\(query) result"]).eraseToAnyPublisher()
        },
        scheduler: scheduler.eraseToAnyScheduler()
    )
    typing.assign(to: &model.$query)
    let results = scheduler.record(model.$results)

    scheduler.advance(by: .seconds(2))

    #expect(searched == ["swi", "swift"])
    #expect(results.valuesWithTimes == [
        .init([], at: .zero),
        .init(["swi result"], at: .milliseconds(550)),
        .init(["swift result"], at: .milliseconds(1300)),
    ])
    #expect(typing.subscriptions.map(\.subscribed) == [.zero])
}

@Test func drawsTheWholeSession() {
    let scheduler = DispatchQueue.test
    let frame: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(100)
    let queries: [Character: String] = ["1": "s", "2": "sw", "3": "swif"]
    let answers: [Character: [String]] = ["e": [], "r": ["swift", "swiftui"]]
    let typing = scheduler.createHotPublisher(
        marbles: "1-2-----3", values: queries, frame: frame)
    let server = scheduler.createColdPublisher(
        marbles: "-------r|", values: answers, frame: frame)
    let model = SearchModel(
        search: { _ in server.eraseToAnyPublisher() },
        scheduler: scheduler.eraseToAnyScheduler()
    )
    typing.assign(to: &model.$query)

    scheduler.expect(

        model.$results, marbles: "e-----------------r", values: answers, frame: frame)
    server.expectSubscriptions(
        [
            "-----^-----!",
            "-----------^",
        ],
        frame: frame
    )
}

@Test @MainActor func retriesOnTheSchedulersTime() async {
    let scheduler = DispatchQueue.test
    let attempts = Mutex(0)
    let service = SearchService(
        clock: scheduler.clock,
        fetch: { query in
            let attempt = attempts.withLock { count in
                count += 1
                return count
            }
            if attempt == 1 { throw URLError(.timedOut) }
            return ["\(query) result"]
        }
    )
    let model = SearchModel(
        search: service.search, scheduler: scheduler.eraseToAnyScheduler())

    model.query = "swift"
    await scheduler.advance(by: .milliseconds(300))
    #expect(attempts.withLock { $0 } == 1)
    #expect(model.results == [])

    await scheduler.advance(by: .seconds(1))
    #expect(attempts.withLock { $0 } == 2)
    #expect(model.results == ["swift result"])
}
