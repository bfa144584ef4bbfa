import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

/// Misuse that Combine treats as a programmer error stops the program with a message naming the
/// rule, also when it happens on another thread while values are being delivered.
@Suite(.timeLimit(.minutes(3))) struct ThreadedMisuseExitTests {
    @Test func zeroDemandFromAnotherThreadDuringDeliveryNamesTheRule() async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
            subject.subscribe(subscriber)
            let sending = Thread {
                for value in 0..<1_000_000 { subject.send(value) }
            }
            sending.start()
            subscriber.request(.none)
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("demand must be greater than zero"))
    }

    @Test func zeroDemandForACurrentValueSubjectNamesTheRule() async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            let subject = CurrentValueSubject<Int, Never>(0)
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            subject.subscribe(subscriber)
            subscriber.request(.none)
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("demand must be greater than zero"))
    }

    @Test func zeroDemandForFlatMapNamesTheRule() async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            subject.flatMap { Just($0) }.subscribe(subscriber)
            subscriber.request(.none)
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("demand must be greater than zero"))
    }

    @Test func negativeDemandNamesTheRule() async throws {
        let result = try await #require(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) {
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            subject.subscribe(subscriber)
            subscriber.request(.max(-1))
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("requires a non-negative number of elements"))
    }
}
