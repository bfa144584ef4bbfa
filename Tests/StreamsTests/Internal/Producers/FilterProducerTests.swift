import Streams
import StreamsTesting
import Testing

private struct Unexpected: Error {}

/// How the filter-like operators built on the shared producer treat events that arrive out of order.
/// Each operator follows the Combine operator of the same name.
@Suite struct FilterProducerTests {
    // MARK: Combine's shared filter machinery stops the program on events before the subscription

    @Test func aValueBeforeTheSubscriptionIsAProgrammerError() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            subscribedEarly { $0.removeDuplicates() }.send(1)
        }
        expectTrapMessage(trap1, contains: "RemoveDuplicates received a value before receiving a subscription")
        let trap2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            subscribedEarly { $0.tryRemoveDuplicates(by: ==) }.send(1)
        }
        expectTrapMessage(trap2, contains: "TryRemoveDuplicates received a value before receiving a subscription")
        let trap3 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            subscribedEarly { $0.tryFilter { _ in true } }.send(1)
        }
        expectTrapMessage(trap3, contains: "TryFilter received a value before receiving a subscription")
        let trap4 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            subscribedEarly { $0.tryCompactMap { $0 } }.send(1)
        }
        expectTrapMessage(trap4, contains: "TryCompactMap received a value before receiving a subscription")
        let trap5 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            subscribedEarly { $0.prefix { _ in true } }.send(1)
        }
        expectTrapMessage(trap5, contains: "PrefixWhile received a value before receiving a subscription")
        let trap6 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            subscribedEarly { $0.tryPrefix { _ in true } }.send(1)
        }
        expectTrapMessage(trap6, contains: "TryPrefixWhile received a value before receiving a subscription")
    }

    @Test func aCompletionBeforeTheSubscriptionIsAProgrammerError() async {
        let trap7 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            subscribedEarly { $0.removeDuplicates() }.send(completion: .finished)
        }
        expectTrapMessage(trap7, contains: "RemoveDuplicates received a completion before receiving a subscription")
        let trap8 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            subscribedEarly { $0.tryFilter { _ in true } }.send(completion: .finished)
        }
        expectTrapMessage(trap8, contains: "TryFilter received a completion before receiving a subscription")
        let trap9 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            subscribedEarly { $0.prefix { _ in true } }.send(completion: .finished)
        }
        expectTrapMessage(trap9, contains: "PrefixWhile received a completion before receiving a subscription")
    }

    @Test func aRequestBeforeTheSubscriptionIsAProgrammerError() async {
        let trap10 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            subscribedEarly { $0.removeDuplicates() }.innerSubscription?.request(.max(1))
        }
        expectTrapMessage(trap10, contains: "RemoveDuplicates received a request before sending its subscription")
        let trap11 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            subscribedEarly { $0.tryCompactMap { $0 } }.innerSubscription?.request(.max(1))
        }
        expectTrapMessage(trap11, contains: "TryCompactMap received a request before sending its subscription")
    }

    @Test func cancelBeforeTheSubscriptionEndsTheStreamAndRefusesTheLateSubscription() throws {
        let upstream = EarlyEventUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.removeDuplicates().subscribe(subscriber)
        try #require(upstream.innerSubscription).cancel()
        let late = SelectionSubscription()
        upstream.send(subscription: late)
        #expect(late.events == [.cancelled])
        #expect(upstream.send(1) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [])
    }

    @Test func valuesAndCompletionsAfterTheEndAreDropped() {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited, demandPerValue: .max(1))
        upstream.removeDuplicates().subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        upstream.send(completion: .finished)
        #expect(upstream.send(2) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    // MARK: DropWhile ignores events outside the subscription

    @Test func dropWhileIgnoresEventsBeforeTheSubscriptionAndKeepsALateOne() throws {
        let upstream = EarlyEventUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.drop { $0 < 3 }.subscribe(subscriber)
        #expect(upstream.send(5) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        try #require(upstream.innerSubscription).cancel()
        try #require(upstream.innerSubscription).request(.max(4))
        #expect(subscriber.events == [])

        let late = SelectionSubscription()
        upstream.send(subscription: late)
        #expect(subscriber.events == [.subscription])
        #expect(late.events == [.requested(.max(2))])
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(4) == .max(1))
        upstream.send(completion: .finished)
        upstream.send(completion: .finished)
        #expect(upstream.send(6) == Subscribers.Demand.none)
        #expect(subscriber.events == [.subscription, .value(4), .completion(.finished)])
    }

    @Test func dropWhileCancelsOnceAndThenIgnoresEverything() throws {
        let upstream = SelectionUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryDrop { $0 < 3 }.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        subscription.cancel()
        subscription.cancel()
        subscription.request(.max(1))
        #expect(upstream.send(7) == Subscribers.Demand.none)
        upstream.send(completion: .finished)
        #expect(upstream.events == [.requested(.unlimited), .cancelled])
        #expect(subscriber.events.count == 1)
    }

    @Test func dropWhileRequestForNothingIsAProgrammerError() async {
        let trap12 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            SelectionUpstream<Int, Never>().drop { _ in true }.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectTrapMessage(trap12, contains: "A subscription's demand must be greater than zero, got max(0)")
        let trap13 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
            SelectionUpstream<Int, Never>().tryDrop { _ in true }.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectTrapMessage(trap13, contains: "A subscription's demand must be greater than zero, got max(0)")
    }

    @Test func dropWhileMirrorHasNoChildren() throws {
        let subscriber = TestSubscriber<Int, Never>()
        SelectionUpstream<Int, Never>().drop { _ in true }.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(Mirror(reflecting: subscription).children.isEmpty)
        #expect(String(describing: subscription) == "DropWhile")
    }

    // MARK: Output counts values whatever the state

    @Test func outputCountsAndPassesOnValuesBeforeTheSubscription() {
        let upstream = EarlyEventUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none, demandPerValue: .max(7))
        upstream.output(in: 1..<3).subscribe(subscriber)
        upstream.send(completion: .finished)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(7))
        #expect(upstream.send(3) == .max(7))
        #expect(upstream.send(4) == Subscribers.Demand.none)
        #expect(subscriber.events == [.value(2), .value(3)])

        let late = SelectionSubscription()
        upstream.send(subscription: late)
        #expect(upstream.send(5) == Subscribers.Demand.none)
        #expect(late.events == [.cancelled])
        #expect(subscriber.events == [.value(2), .value(3), .subscription, .completion(.finished)])
    }

    @Test func outputCancelBeforeTheSubscriptionDoesNothing() throws {
        let upstream = EarlyEventUpstream<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        upstream.prefix(2).subscribe(subscriber)
        try #require(upstream.innerSubscription).cancel()
        let late = SelectionSubscription()
        upstream.send(subscription: late)
        #expect(late.events == [.requested(.max(3))])
        #expect(subscriber.events == [.subscription])
    }

    @Test func outputKeepsCountingAfterTheUpstreamCompletes() {
        let upstream = SelectionUpstream<Int, SelectionTestError>()
        let subscriber = TestSubscriber<Int, SelectionTestError>(initialDemand: .none, demandPerValue: .max(2))
        upstream.output(in: 1..<3).subscribe(subscriber)
        upstream.send(completion: .failure(.oops))
        upstream.send(completion: .finished)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(2))
        #expect(upstream.send(3) == .max(2))
        #expect(upstream.send(4) == Subscribers.Demand.none)
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops)), .value(2), .value(3)])
        #expect(upstream.events == [])
    }

    @Test func outputMirrorHasNoChildren() throws {
        let subscriber = TestSubscriber<Int, Never>()
        SelectionUpstream<Int, Never>().prefix(3).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(Mirror(reflecting: subscription).children.isEmpty)
    }
}
