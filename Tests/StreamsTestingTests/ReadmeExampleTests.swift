import Dispatch
import Streams
import StreamsTesting
import Testing

/// The README's testing example, kept compiling and passing.
@Suite struct ReadmeExampleTests {
    @Test func searchWaitsForTypingToPause() {
        let scheduler = DispatchQueue.test
        let query = PassthroughSubject<String, Never>()
        let searches = scheduler.record(query.debounce(for: .milliseconds(300), scheduler: scheduler))
        query.send("s")
        scheduler.advance(by: .milliseconds(100))
        query.send("st")
        scheduler.advance(by: .milliseconds(300))
        #expect(searches.values == ["st"])
    }
}
