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
