import Dispatch
import Foundation
import Observation
import Streams
import StreamsTesting
import Testing

@Suite struct ObservationPublisherDemandTests {
    @Test func withoutDemandTheLatestValueIsHeldUntilRequested() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
        #expect(subscriber.values == [])
        model.count = 1
        scheduler.advance()
        model.count = 2
        scheduler.advance()
        #expect(subscriber.values == [])
        subscriber.request(.max(1))
        #expect(subscriber.values == [2])
        subscriber.request(.max(1))
        #expect(subscriber.values == [2])
        model.count = 3
        scheduler.advance()
        #expect(subscriber.values == [2, 3])
    }

    @Test func demandOfOneDeliversExactlyOneValue() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
        #expect(subscriber.values == [0])
        model.count = 1
        scheduler.advance()
        model.count = 2
        scheduler.advance()
        #expect(subscriber.values == [0])
        subscriber.request(.max(1))
        #expect(subscriber.values == [0, 2])
    }

    @Test func demandReturnedFromReceiveIsHonoured() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
        for value in 1...3 {
            model.count = value
            scheduler.advance()
        }
        #expect(subscriber.values == [0, 1, 2, 3])
    }

    @Test func unlimitedDemandDeliversEveryTurn() {
        let scheduler = DispatchQueue.test
        let model = ObservedModel()
        let subscriber = TestSubscriber<Int, Never>()
        model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
        for value in 1...5 {
            model.count = value
            scheduler.advance()
        }
        #expect(subscriber.values == [0, 1, 2, 3, 4, 5])
    }

    @Test func requestingZeroStops() async {
        let trap1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = ObservedModel()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            model.publisher(for: \.count, scheduler: DispatchQueue.test).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectTrapMessage(trap1, contains: "A subscription's demand must be greater than zero, got max(0)")
    }

    @Test func describesItsSubscription() throws {
        let model = ObservedModel()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        model.publisher(for: \.count, options: .new, scheduler: DispatchQueue.test).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "ObservationPublisher")
        let children = Array(Mirror(reflecting: subscription).children)
        #expect(children.map(\.label) == ["options", "demand"])
        #expect(children.last?.value as? Subscribers.Demand == .max(2))
    }
}
