import Foundation
import Streams
import Testing

@Suite struct CompletionTests {
    @Test func equalityAndHashing() {
        let finished = Subscribers.Completion<TestError>.finished
        let failure = Subscribers.Completion<TestError>.failure(TestError(code: 1))
        #expect(finished == .finished)
        #expect(failure == .failure(TestError(code: 1)))
        #expect(failure != .failure(TestError(code: 2)))
        #expect(finished != failure)
    }

    @Test func codableRoundTrip() throws {
        let completions: [Subscribers.Completion<TestError>] = [.finished, .failure(TestError(code: 9))]
        let data = try JSONEncoder().encode(completions)
        let decoded = try JSONDecoder().decode([Subscribers.Completion<TestError>].self, from: data)
        #expect(decoded == completions)
    }
}
