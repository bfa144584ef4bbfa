import Streams
import StreamsTesting
import Testing

/// The operators that take a count, given zero and the top of `Int`, where Combine carries on: each
/// delivers everything it owes and asks upstream for saturated demand. (Negative counts, and the
/// counts Combine stops the program for, are pinned by the exit tests of each operator's own suite,
/// and by ``bufferOfNegativeSizeFillingUpIsAProgrammerError()`` here.)
@Suite struct CountEdgeTests {
    /// `prefix(Int.max)` lets everything through, on the generic operator and on the forms
    /// specialized for sequences, `Just` and optionals.
    @Test func prefixOfIntMaxPassesEverything() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.prefix(Int.max).subscribe(subscriber)
        for value in 1...3 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])

        let sequence = TestSubscriber<Int, Never>()
        (1...3).publisher.prefix(Int.max).subscribe(sequence)
        #expect(sequence.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        let just = TestSubscriber<Int, Never>()
        Just(5).prefix(Int.max).subscribe(just)
        #expect(just.events == [.subscription, .value(5), .completion(.finished)])
        let optional = TestSubscriber<Int, Never>()
        Optional(5).publisher.prefix(Int.max).subscribe(optional)
        #expect(optional.events == [.subscription, .value(5), .completion(.finished)])
    }

    /// `prefix(0)` sends nothing: on a live upstream it finishes, cancelling upstream, when the
    /// first value arrives; the specialized forms finish at once.
    @Test func prefixOfZeroFinishesWithoutAValue() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.prefix(0).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.send(1) == .none)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(upstream.events == [.requested(.unlimited), .cancelled])

        let sequence = TestSubscriber<Int, Never>()
        (1...3).publisher.prefix(0).subscribe(sequence)
        #expect(sequence.events == [.subscription, .completion(.finished)])
        let just = TestSubscriber<Int, Never>()
        Just(5).prefix(0).subscribe(just)
        #expect(just.events == [.subscription, .completion(.finished)])
    }

    /// `output(in: Int.max...)` never reaches its range: it drops every value, asking for one more
    /// each time, and finishes with upstream.
    @Test func outputFromIntMaxDropsEverything() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.output(in: Int.max...).subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(upstream.events == [.requested(.max(1))])
    }

    /// `dropFirst(Int.max)` asks upstream for the count on top of the demand, which saturates to
    /// unlimited, and drops everything; `dropFirst(0)` asks for the demand alone and drops nothing.
    @Test func dropFirstAtTheEdgesAsksForSaturatedDemand() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.dropFirst(Int.max).subscribe(subscriber)
        #expect(upstream.events == [.requested(.unlimited)])
        #expect(upstream.send(1) == .none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])

        let waiting = SelectionUpstream<Int, Never>()
        waiting.dropFirst(Int.max).subscribe(TestSubscriber<Int, Never>(initialDemand: .none))
        #expect(waiting.events == [.requested(.max(Int.max))])

        let none = SelectionUpstream<Int, Never>()
        let passing = TestSubscriber<Int, Never>(initialDemand: .max(2))
        none.dropFirst(0).subscribe(passing)
        #expect(none.events == [.requested(.max(2))])
        none.send(1)
        #expect(passing.values == [1])
    }

    /// `collect(Int.max)` multiplies each request by the count on its way upstream (saturating to
    /// unlimited) and sends what it has when upstream finishes, without setting aside room for
    /// `Int.max` values first (which stopped the program).
    @Test func collectOfIntMaxSaturatesTheDemandAndSendsThePartialArray() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        upstream.collect(Int.max).subscribe(subscriber)
        #expect(upstream.events == [.requested(.max(Int.max))])
        subscriber.request(.max(2))
        #expect(upstream.events == [.requested(.max(Int.max)), .requested(.unlimited)])
        for value in 1...3 { upstream.send(value) }
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value([1, 2, 3]), .completion(.finished)])
    }

    /// `buffer(size: Int.max, prefetch: .keepFull)` asks upstream for `Int.max` values at once and
    /// holds what arrives until downstream asks.
    @Test func bufferOfIntMaxAsksForIntMaxAtOnce() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: Int.max, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        #expect(upstream.events == [.requested(.max(Int.max))])
        for value in 1...3 { upstream.send(value) }
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2])
    }

    /// A buffer of zero or fewer places drops every value when it drops the newest, even with
    /// demand downstream (it is always full), and passes each one through when it drops the oldest.
    @Test func bufferOfNoPlacesDropsOrPassesAsItsStrategySays() {
        for size in [0, -1, Int.min] {
            let newest = PassthroughSubject<Int, Never>()
            let dropping = TestSubscriber<Int, Never>()
            newest.buffer(size: size, prefetch: .byRequest, whenFull: .dropNewest).subscribe(dropping)
            newest.send(1)
            newest.send(completion: .finished)
            #expect(dropping.events == [.subscription, .completion(.finished)], "size \(size)")

            let oldest = PassthroughSubject<Int, Never>()
            let passing = TestSubscriber<Int, Never>()
            oldest.buffer(size: size, prefetch: .byRequest, whenFull: .dropOldest).subscribe(passing)
            oldest.send(1)
            oldest.send(2)
            #expect(passing.values == [1, 2], "size \(size)")
        }
    }

    /// With `.keepFull`, a negative size is a request for a negative demand: the program stops,
    /// naming the rule.
    @Test func bufferOfNegativeSizeFillingUpIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let size = CommandLine.arguments.count - 100
            PassthroughSubject<Int, Never>().buffer(size: size, prefetch: .keepFull, whenFull: .dropNewest)
                .subscribe(TestSubscriber<Int, Never>())
        }
        expectTrapMessage(trap1, contains: "Subscribers.Demand.max requires a non-negative number of elements, got -")
    }

    /// `flatMap(maxPublishers: .max(Int.max))` asks upstream for `Int.max` publishers at once.
    @Test func flatMapOfIntMaxPublishersAsksForThemAtOnce() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.flatMap(maxPublishers: .max(Int.max)) { Just($0 * 10) }.subscribe(subscriber)
        #expect(upstream.events == [.requested(.max(Int.max))])
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.values == [10, 20])
    }

    /// `retry` with `Int.max`, or with any negative count, goes on retrying until upstream succeeds.
    @Test func retryAtTheEdgesRetriesUntilUpstreamSucceeds() {
        for retries in [Int.max, -1, Int.min] {
            var attempts = 0
            let flaky = Deferred {
                attempts += 1
                return attempts < 50
                    ? Fail<Int, SelectionTestError>(error: .oops).eraseToAnyPublisher()
                    : Just(attempts).setFailureType(to: SelectionTestError.self).eraseToAnyPublisher()
            }
            let subscriber = TestSubscriber<Int, SelectionTestError>()
            flaky.retry(retries).subscribe(subscriber)
            #expect(subscriber.events == [.subscription, .value(50), .completion(.finished)], "retries \(retries)")
        }
    }
}
