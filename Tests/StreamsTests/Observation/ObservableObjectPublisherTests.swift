import Streams
import StreamsTesting
import Testing

@Suite struct ObservableObjectPublisherTests {
    @Test func deliversEveryChangeWhateverTheDemand() {
        let publisher = ObservableObjectPublisher()
        let idle = TestSubscriber<Void, Never>(initialDemand: .none)
        let once = TestSubscriber<Void, Never>(initialDemand: .max(1))
        publisher.subscribe(idle)
        publisher.subscribe(once)
        publisher.send()
        publisher.send()
        publisher.send()
        #expect(idle.values.count == 3)
        #expect(once.values.count == 3)
        // Requesting more delivers nothing that was not sent.
        idle.request(.max(4))
        #expect(idle.values.count == 3)
        idle.cancel()
        publisher.send()
        #expect(idle.values.count == 3)
        #expect(once.values.count == 4)
    }

    @Test func anObjectsChangesReachSubscribersWithoutDemand() {
        final class Counter: ObservableObject {
            @Published var count = 0
        }
        let counter = Counter()
        let subscriber = TestSubscriber<Void, Never>(initialDemand: .none)
        counter.objectWillChange.subscribe(subscriber)
        counter.count = 1
        counter.count = 2
        #expect(subscriber.values.count == 2)
    }

    @Test func subscriptionReflectsOnlyItsSubscriber() throws {
        let publisher = ObservableObjectPublisher()
        let subscriber = TestSubscriber<Void, Never>()
        publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect((subscription as? any CustomStringConvertible)?.description == "ObservableObjectPublisher")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "ObservableObjectPublisher")
        let children = Array(Mirror(reflecting: subscription).children)
        #expect(children.map(\.label) == ["downstream"])
        let downstream = children.first.map { String(describing: $0.value) } ?? ""
        #expect(downstream.contains("TestSubscriber"))
    }
}
