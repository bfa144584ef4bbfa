import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing
import XCTest

// The worked examples of the StreamsTesting documentation, run as written (those whose operators
// exist in Streams today), so the documentation cannot drift from the behaviour.

private struct ParseError: Error, Equatable {}

private struct Timeout: Error, Equatable {}

private final class ThermostatModel {
    private(set) var readings: [String] = []
    private var cancellable: AnyCancellable?

    func connect<P: Publisher<Double, Never>>(to sensor: P) {
        cancellable =
            sensor
            .map { $0 > 30 ? "\($0)° too hot" : "\($0)°" }
            .sink { [weak self] in self?.readings.append($0) }
    }

    func disconnect() {
        cancellable = nil
    }
}

private final class Pager {
    private(set) var pages: [[String]] = []
    private var subscription: (any Subscription)?

    init<P: Publisher<[String], Never>>(pages publisher: P) {
        publisher.subscribe(
            AnySubscriber(
                receiveSubscription: { [weak self] subscription in
                    self?.subscription = subscription
                    subscription.request(.max(1))
                },
                receiveValue: { [weak self] page in
                    self?.pages.append(page)
                    return .none
                }
            ))
    }

    func loadMore() { subscription?.request(.max(1)) }
    func close() { subscription?.cancel() }
}

private func loadProfile<P: Publisher<String, Timeout>>(_ request: P) -> AnyPublisher<String, Timeout> {
    request.retry(2).eraseToAnyPublisher()
}

@Suite struct DocumentationExampleTests {
    @Test func testEvent() {
        let subject = PassthroughSubject<Int, ParseError>()
        let subscriber = TestSubscriber<Int, ParseError>()
        subject.filter { $0 >= 0 }.subscribe(subscriber)

        subject.send(1)
        subject.send(-2)
        subject.send(3)
        subject.send(completion: .failure(ParseError()))

        #expect(subscriber.events == [.subscription, .value(1), .value(3), .failure(ParseError())])
    }

    @Test func testSubscriber() {
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>(initialDemand: .max(1))
        subject.subscribe(subscriber)

        subject.send("first")
        subject.send("dropped: no demand")
        subscriber.request(.max(1))
        subject.send("second")
        subject.send(completion: .finished)

        #expect(subscriber.events == [.subscription, .value("first"), .value("second"), .finished])
        #expect(subscriber.values == ["first", "second"])
        #expect(subscriber.completion == .finished)
    }

    @Test func timedTestSubscriberValuesWaitForDemand() {
        let scheduler = DispatchQueue.test
        let recorder = scheduler.record([1, 2, 3].publisher, initialDemand: .max(1))
        recorder.request(.max(2), at: .seconds(1))

        scheduler.advance(by: .seconds(1))
        #expect(
            recorder.events == [
                .subscription(at: .zero),
                .value(1, at: .zero),
                .value(2, at: .seconds(1)),
                .value(3, at: .seconds(1)),
                .finished(at: .seconds(1)),
            ])
    }

    @Test func timedTestSubscriberInit() {
        let scheduler = DispatchQueue.test
        let subscriber = TimedTestSubscriber<Int, Never, DispatchQueue.SchedulerTimeType>(scheduler: scheduler)
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {
            Just(7).subscribe(subscriber)
        }
        scheduler.advance(by: .seconds(1))
        #expect(
            subscriber.events == [
                .subscription(at: .seconds(1)), .value(7, at: .seconds(1)), .finished(at: .seconds(1)),
            ])
    }

    @Test func recordedSubscriptionPager() {
        let scheduler = DispatchQueue.test
        let pages = scheduler.createColdPublisher([
            .value(["a", "b"], at: .milliseconds(100)),
            .value(["c", "d"], at: .milliseconds(200)),
            .value(["e"], at: .milliseconds(300)),
        ])
        scheduler.advance(by: .seconds(1))
        let pager = Pager(pages: pages)
        scheduler.advance(by: .seconds(1))
        pager.loadMore()
        scheduler.advance(by: .seconds(1))
        pager.close()

        #expect(pager.pages == [["a", "b"], ["c", "d"]])
        #expect(
            pages.subscriptions == [
                RecordedSubscription(
                    subscribed: .seconds(1),
                    demands: [.demand(.max(1), at: .seconds(1)), .demand(.max(1), at: .seconds(2))],
                    cancelled: .seconds(3)
                )
            ])
    }

    @Test func hotTestPublisherThermostat() {
        let scheduler = DispatchQueue.test
        let sensor = scheduler.createHotPublisher([
            .value(21.5, at: .seconds(1)),
            .value(31.0, at: .seconds(2)),
            .value(29.0, at: .seconds(3)),
            .value(25.0, at: .seconds(4)),
        ])
        let model = ThermostatModel()

        scheduler.advance(by: .milliseconds(1500))  // the reading at 1s reaches no one
        model.connect(to: sensor)
        scheduler.advance(by: .seconds(2))
        model.disconnect()
        scheduler.advance(by: .seconds(10))

        #expect(model.readings == ["31.0° too hot", "29.0°"])
        #expect(
            sensor.subscriptions == [
                RecordedSubscription(
                    subscribed: .milliseconds(1500),
                    demands: [.demand(.unlimited, at: .milliseconds(1500))],
                    cancelled: .milliseconds(3500)
                )
            ])
    }

    @Test func createHotPublisherTaps() {
        let scheduler = DispatchQueue.test
        let taps = scheduler.createHotPublisher([
            .value("tap", at: .seconds(1)),
            .value("tap", at: .seconds(3)),
        ])
        scheduler.advance(by: .seconds(2))
        let recorder = scheduler.record(taps)
        scheduler.advance(by: .seconds(2))
        #expect(recorder.events == [.subscription(at: .seconds(2)), .value("tap", at: .seconds(3))])
    }

    @Test func coldTestPublisherRetry() {
        let scheduler = DispatchQueue.test
        let request = scheduler.createColdPublisher([
            .value("cached", at: .milliseconds(100)),
            .failure(Timeout(), at: .milliseconds(500)),
        ])

        let profile = scheduler.record(loadProfile(request))
        scheduler.advance(by: .seconds(5))

        #expect(
            profile.events == [
                .subscription(at: .zero),
                .value("cached", at: .milliseconds(100)),
                .value("cached", at: .milliseconds(600)),
                .value("cached", at: .milliseconds(1100)),
                .failure(Timeout(), at: .milliseconds(1500)),
            ])
        #expect(request.subscriptions.map(\.subscribed) == [.zero, .milliseconds(500), .seconds(1)])
    }

    @Test func coldTestPublisherValuesWaitForDemand() {
        let scheduler = DispatchQueue.test
        let numbers = scheduler.createColdPublisher([
            .value(1, at: .seconds(1)),
            .value(2, at: .seconds(2)),
            .finished(at: .seconds(3)),
        ])
        let recorder = scheduler.record(numbers, initialDemand: .max(1))
        recorder.request(.max(1), at: .seconds(5))
        scheduler.advance(by: .seconds(10))

        #expect(
            recorder.events == [
                .subscription(at: .zero),
                .value(1, at: .seconds(1)),
                .value(2, at: .seconds(5)),
                .finished(at: .seconds(5)),
            ])
        #expect(
            numbers.subscriptions == [
                RecordedSubscription(
                    subscribed: .zero,
                    demands: [.demand(.max(1), at: .zero), .demand(.max(1), at: .seconds(5))]
                )
            ])
    }

    @Test func createColdPublisherResponse() {
        let scheduler = DispatchQueue.test
        let response = scheduler.createColdPublisher([
            .value("data", at: .milliseconds(200)),
            .finished(at: .milliseconds(200)),
        ])
        scheduler.advance(by: .seconds(1))
        let recorder = scheduler.record(response)
        scheduler.advance(by: .seconds(1))
        #expect(
            recorder.events == [
                .subscription(at: .seconds(1)),
                .value("data", at: .milliseconds(1200)),
                .finished(at: .milliseconds(1200)),
            ])
    }

    @Test func failureTypeInference() {
        let scheduler = DispatchQueue.test
        let socket = scheduler.createHotPublisher([
            .value("hello", at: .seconds(1)),
            .failure(ParseError(), at: .seconds(2)),
        ])
        let quiet = scheduler.createHotPublisher([.value("hello", at: .seconds(1))], failureType: ParseError.self)
        let request = scheduler.createColdPublisher([
            .value("partial", at: .seconds(1)),
            .failure(Timeout(), at: .seconds(30)),
        ])
        let fast = scheduler.createColdPublisher([.value(1, at: .zero)], failureType: Timeout.self)
        #expect(type(of: socket) == HotTestPublisher<String, ParseError, DispatchQueue.SchedulerTimeType>.self)
        #expect(type(of: quiet) == HotTestPublisher<String, ParseError, DispatchQueue.SchedulerTimeType>.self)
        #expect(type(of: request) == ColdTestPublisher<String, Timeout, DispatchQueue.SchedulerTimeType>.self)
        #expect(type(of: fast) == ColdTestPublisher<Int, Timeout, DispatchQueue.SchedulerTimeType>.self)
        let never = scheduler.createColdPublisher([.value(1, at: .zero)])
        #expect(type(of: never) == ColdTestPublisher<Int, Never, DispatchQueue.SchedulerTimeType>.self)
        let silent = scheduler.createHotPublisher([.finished(at: .seconds(1))], outputType: Int.self)
        #expect(type(of: silent) == HotTestPublisher<Int, Never, DispatchQueue.SchedulerTimeType>.self)
        let empty = scheduler.createColdPublisher([], outputType: String.self, failureType: Timeout.self)
        #expect(type(of: empty) == ColdTestPublisher<String, Timeout, DispatchQueue.SchedulerTimeType>.self)
    }

    @Test func immediateSchedulerDelayedWork() {
        let scheduler = DispatchQueue.immediate
        let start = scheduler.now
        var log: [String] = []
        scheduler.schedule(after: start.advanced(by: .seconds(5))) {
            log.append("after \(start.distance(to: scheduler.now) == .seconds(5) ? "5s" : "?")")
            scheduler.schedule { log.append("nested") }
            log.append("end of action")
        }
        log.append("returned")
        #expect(log == ["after 5s", "nested", "end of action", "returned"])
    }

    @Test func testSchedulerElapsed() {
        let scheduler = DispatchQueue.test
        scheduler.advance(by: .milliseconds(1500))
        #expect(scheduler.elapsed == .milliseconds(1500))
    }
}

/// The recorded lists compare with XCTest's assertions as well.
final class RecordedEventsXCTests: XCTestCase {
    func testTimedEventsCompareWithXCTAssertEqual() {
        let scheduler = DispatchQueue.test
        let hot = scheduler.createHotPublisher([.value(1, at: .seconds(1)), .finished(at: .seconds(2))])
        let recorder = scheduler.record(hot)
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(
            recorder.events, [.subscription(at: .zero), .value(1, at: .seconds(1)), .finished(at: .seconds(2))])
        XCTAssertEqual(recorder.valuesWithTimes, [Recorded(1, at: .seconds(1))])
        XCTAssertEqual(
            hot.subscriptions, [RecordedSubscription(subscribed: .zero, demands: [.demand(.unlimited, at: .zero)])])
    }
}
