import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

/// A connectable publisher over a ``PacingUpstream``, to see what reaches the upstream subscription.
private struct ManualConnectable: ConnectablePublisher {
    typealias Output = Int
    typealias Failure = PacingError

    let upstream = PacingUpstream<Int, PacingError>()
    let connections = PacingCounter<String>()

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == PacingError {
        upstream.receive(subscriber: subscriber)
    }

    func connect() -> any Cancellable {
        connections.append("connect")
        return AnyCancellable { connections.append("cancel") }
    }
}

@Suite(.timeLimit(.minutes(3))) struct AutoconnectTests {
    // MARK: Connecting and disconnecting

    @Test func connectsOnceForManySubscribersAndPassesEventsThrough() {
        let publisher = PacingConnectable<Int, PacingError>()
        let autoconnect = publisher.autoconnect()
        #expect(publisher.connections == [])

        let first = TestSubscriber<Int, PacingError>(initialDemand: .max(101), demandPerValue: .max(201))
        let second = TestSubscriber<Int, PacingError>(initialDemand: .max(102), demandPerValue: .max(202))
        let third = TestSubscriber<Int, PacingError>(initialDemand: .max(103), demandPerValue: .max(203))
        autoconnect.subscribe(first)
        #expect(publisher.connections == [.connected])
        autoconnect.subscribe(second)
        autoconnect.subscribe(third)
        #expect(publisher.connections == [.connected])

        publisher.send(1)
        publisher.send(2)
        publisher.send(completion: .finished)
        for subscriber in [first, second, third] {
            #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        }
        // Completing does not count as leaving: only cancelling does.
        #expect(publisher.connections == [.connected])
    }

    @Test func onlyTheLastCancelDisconnects() throws {
        let publisher = PacingConnectable<Int, Never>()
        let autoconnect = publisher.autoconnect()
        let subscribers = (0..<3).map { _ in TestSubscriber<Int, Never>() }
        for subscriber in subscribers { autoconnect.subscribe(subscriber) }
        let subscriptions = try subscribers.map { try #require($0.subscription) }

        subscriptions[1].cancel()
        subscriptions[1].cancel()  // Twice: still counts once.
        #expect(publisher.connections == [.connected])
        subscriptions[2].cancel()
        #expect(publisher.connections == [.connected])
        publisher.send(7)
        #expect(subscribers.map(\.values) == [[7], [], []])
        subscriptions[0].cancel()
        #expect(publisher.connections == [.connected, .disconnected])
        subscriptions[0].cancel()
        #expect(publisher.connections == [.connected, .disconnected])
    }

    @Test func aSubscriberAfterTheLastCancelConnectsAgain() {
        let publisher = PacingConnectable<Int, Never>()
        let autoconnect = publisher.autoconnect()
        let first = TestSubscriber<Int, Never>()
        autoconnect.subscribe(first)
        first.cancel()
        let second = TestSubscriber<Int, Never>()
        autoconnect.subscribe(second)
        #expect(publisher.connections == [.connected, .disconnected, .connected])
        publisher.send(3)
        #expect(second.values == [3])
        #expect(first.values == [])
    }

    @Test func connectsAfterAttachingTheSubscriber() {
        let publisher = ManualConnectable()
        var connectionsWhenSubscribed: [String]?
        let subscriber = TestSubscriber<Int, PacingError>()
        let probe = AnySubscriber<Int, PacingError>(
            receiveSubscription: { subscription in
                connectionsWhenSubscribed = publisher.connections.values
                subscriber.receive(subscription: subscription)
            },
            receiveValue: { subscriber.receive($0) },
            receiveCompletion: { subscriber.receive(completion: $0) })
        publisher.autoconnect().subscribe(probe)
        #expect(connectionsWhenSubscribed == [])
        #expect(publisher.connections.values == ["connect"])
    }

    // MARK: Pass-through

    @Test func passesTheUpstreamSubscriptionThroughWithItsIdentity() throws {
        let publisher = ManualConnectable()
        let subscriber = TestSubscriber<Int, PacingError>(initialDemand: .max(3))
        publisher.autoconnect().subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(subscription.combineIdentifier == publisher.upstream.subscription.combineIdentifier)
        #expect(String(describing: subscription) == String(describing: publisher.upstream.subscription))
        #expect(publisher.upstream.events == [.requested(.max(3))])
        #expect(publisher.upstream.send(1) == Subscribers.Demand.none)
        subscriber.request(.max(2))
        subscriber.cancel()
        #expect(publisher.upstream.events == [.requested(.max(3)), .requested(.max(2)), .cancelled])
        #expect(publisher.connections.values == ["connect", "cancel"])
        publisher.upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.oops))])
    }

    @Test func itsSubscriberDescribesItselfAsCombineDoes() {
        let publisher = PacingConnectable<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        publisher.autoconnect().subscribe(subscriber)
        #expect(publisher.subscribers == ["Autoconnect"])
    }

    @Test func itsSubscriberReflectsParentAndDownstream() {
        final class Capture: Publisher, @unchecked Sendable {
            typealias Output = Int
            typealias Failure = Never
            var mirror: Mirror?
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                mirror = Mirror(reflecting: subscriber)
                subscriber.receive(subscription: Subscriptions.empty)
            }
        }
        struct Connectable: ConnectablePublisher {
            typealias Output = Int
            typealias Failure = Never
            let capture = Capture()
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                capture.receive(subscriber: subscriber)
            }
            func connect() -> any Cancellable { AnyCancellable {} }
        }
        let connectable = Connectable()
        connectable.autoconnect().subscribe(TestSubscriber<Int, Never>())
        #expect(connectable.capture.mirror?.children.map(\.label) == ["parent", "downstream"])
    }

    @Test func keepsItsUpstream() {
        let publisher = PacingConnectable<Int, Never>()
        #expect(publisher.autoconnect().upstream === publisher)
    }

    // MARK: Re-entrancy

    @Test func aSubscriberAttachingWhileConnectingJoinsTheConnection() throws {
        let publisher = PacingConnectable<Int, Never>()
        let autoconnect = publisher.autoconnect()
        let inner = TestSubscriber<Int, Never>()
        let outer = TestSubscriber<Int, Never>()
        let probe = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in
                autoconnect.subscribe(inner)
                outer.receive(subscription: subscription)
            },
            receiveValue: { outer.receive($0) },
            receiveCompletion: { outer.receive(completion: $0) })
        autoconnect.subscribe(probe)
        #expect(publisher.connections == [.connected])
        publisher.send(1)
        #expect(inner.values == [1])
        #expect(outer.values == [1])
        outer.cancel()
        #expect(publisher.connections == [.connected])
        inner.cancel()
        #expect(publisher.connections == [.connected, .disconnected])
    }

    @Test func cancellingWhileConnectingDisconnectsOnceConnected() {
        let publisher = PacingConnectable<Int, Never>()
        let autoconnect = publisher.autoconnect()
        let probe = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.cancel() },
            receiveValue: { _ in .none },
            receiveCompletion: { _ in })
        autoconnect.subscribe(probe)
        #expect(publisher.connections == [.connected, .disconnected])
        let later = TestSubscriber<Int, Never>()
        autoconnect.subscribe(later)
        #expect(publisher.connections == [.connected, .disconnected, .connected])
    }

    @Test func cancellingFromInsideReceiveDisconnects() {
        let publisher = PacingConnectable<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { _ in subscriber.cancel() }
        publisher.autoconnect().subscribe(subscriber)
        publisher.send(1)
        publisher.send(2)
        #expect(subscriber.values == [1])
        #expect(publisher.connections == [.connected, .disconnected])
    }

    // MARK: With a timer

    @Test func startsAndStopsASchedulerTimer() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let ticks = scheduler.timerPublisher(every: .seconds(1)).autoconnect()
        #expect(scheduler.scheduledCount == 0)
        let first = TestSubscriber<DispatchQueue.SchedulerTimeType, Never>()
        let second = TestSubscriber<DispatchQueue.SchedulerTimeType, Never>()
        ticks.subscribe(first)
        #expect(scheduler.scheduledCount == 1)
        scheduler.advance(by: .seconds(1))
        ticks.subscribe(second)
        scheduler.advance(by: .seconds(1))
        first.cancel()
        scheduler.advance(by: .seconds(1))
        second.cancel()
        #expect(scheduler.scheduledCount == 0)
        scheduler.advance(by: .seconds(5))
        #expect(first.values.map { $0.milliseconds(since: start) } == [1_000, 2_000])
        #expect(second.values.map { $0.milliseconds(since: start) } == [2_000, 3_000])
    }

    @Test func theDocumentationExampleHolds() {
        let scheduler = DispatchQueue.test
        let ticks = scheduler.timerPublisher(every: .seconds(1)).autoconnect()
        var printed: [String] = []
        let first = ticks.sink { _ in printed.append("first") }
        let second = ticks.sink { _ in printed.append("second") }
        scheduler.advance(by: .seconds(1))
        first.cancel()
        second.cancel()
        scheduler.advance(by: .seconds(10))
        #expect(printed == ["first", "second"])
        #expect(scheduler.scheduledCount == 0)
    }

    // MARK: Lifetime

    @Test func releasesTheSubscriberAfterCancel() {
        let publisher = PacingConnectable<Int, Never>()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        weak var weakSubscription: AnyObject?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            publisher.autoconnect().subscribe(subscriber)
            weakSubscription = subscriber.subscription as AnyObject?
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
    }

    // MARK: Concurrency

    @Test func subscribersComingAndGoingOnManyThreadsLeaveItDisconnected() {
        let publisher = PacingConnectable<Int, Never>()
        let autoconnect = publisher.autoconnect()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 {
                let subscriber = TestSubscriber<Int, Never>()
                autoconnect.subscribe(subscriber)
                subscriber.cancel()
            }
        }
        let connections = publisher.connections
        #expect(connections.filter { $0 == .connected }.count == connections.filter { $0 == .disconnected }.count)
        #expect(connections.last == .disconnected)
    }
}
