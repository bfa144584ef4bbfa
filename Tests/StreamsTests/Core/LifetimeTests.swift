import Foundation
import Streams
import Testing

/// A hand-written subscriber that keeps its subscription for as long as it lives, as many do: the
/// subscription then holds the subscriber and the subscriber holds the subscription, so the pair is
/// freed only if the subscription lets go of its subscriber once it is cancelled or completed.
private final class SubscriptionKeepingSubscriber<Input, Failure: Error>: Subscriber {
    private(set) var subscription: (any Subscription)?
    private(set) var events: [String] = []
    private let initialDemand: Subscribers.Demand

    init(initialDemand: Subscribers.Demand = .unlimited) {
        self.initialDemand = initialDemand
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        if initialDemand > .none { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        events.append("\(input)")
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        events.append(completion.isFinished ? "finished" : "failed")
    }

    func cancel() {
        subscription?.cancel()
    }
}

extension Subscribers.Completion {
    fileprivate var isFinished: Bool {
        if case .finished = self { return true }
        return false
    }
}

/// Who keeps whom alive, and until when: each test holds only what a program would hold and watches
/// the rest through weak references.
@Suite struct LifetimeTests {
    /// The ways of sharing one upstream among subscribers, each with what a subscriber receives on
    /// subscribing (a current-value subject's value).
    static let sharingOperators:
        [(
            name: String, received: [String],
            make: @Sendable (PassthroughSubject<Int, TestError>) -> AnyPublisher<Int, TestError>
        )] = [
            ("share", [], { $0.share().eraseToAnyPublisher() }),
            (
                "multicast(subject:)", [],
                { $0.multicast(subject: PassthroughSubject()).autoconnect().eraseToAnyPublisher() }
            ),
            ("multicast(_:)", [], { $0.multicast { PassthroughSubject() }.autoconnect().eraseToAnyPublisher() }),
            (
                "multicast(subject:) with a current value", ["0"],
                { $0.multicast(subject: CurrentValueSubject(0)).autoconnect().eraseToAnyPublisher() }
            ),
        ]

    @Test(arguments: sharingOperators.indices)
    func aSharedSubscriptionLetsGoOfItsSubscriberWhenCancelled(_ index: Int) {
        let (name, received, make) = Self.sharingOperators[index]
        weak var weakSubscriber: SubscriptionKeepingSubscriber<Int, TestError>?
        let upstream = PassthroughSubject<Int, TestError>()
        do {
            let subscriber = SubscriptionKeepingSubscriber<Int, TestError>()
            weakSubscriber = subscriber
            make(upstream).subscribe(subscriber)
            upstream.send(1)
            #expect(subscriber.events == received + ["1"], "\(name)")
        }
        #expect(weakSubscriber != nil, "\(name): a live subscription keeps its subscriber")
        weakSubscriber?.cancel()
        #expect(weakSubscriber == nil, "\(name): once cancelled, the subscription lets go of its subscriber")
    }

    @Test(arguments: sharingOperators.indices, [true, false])
    func aSharedSubscriptionLetsGoOfItsSubscriberOnceCompleted(_ index: Int, finishes: Bool) {
        let (name, received, make) = Self.sharingOperators[index]
        weak var weakSubscriber: SubscriptionKeepingSubscriber<Int, TestError>?
        var events: [String] = []
        let upstream = PassthroughSubject<Int, TestError>()
        do {
            let subscriber = SubscriptionKeepingSubscriber<Int, TestError>()
            weakSubscriber = subscriber
            make(upstream).subscribe(subscriber)
            upstream.send(1)
            upstream.send(completion: finishes ? .finished : .failure(TestError()))
            events = subscriber.events
        }
        #expect(events == received + ["1", finishes ? "finished" : "failed"], "\(name)")
        #expect(weakSubscriber == nil, "\(name): once completed, the subscription lets go of its subscriber")
    }

    @Test func cancellingOneSharedSubscriberLeavesTheOthersReceiving() {
        let upstream = PassthroughSubject<Int, TestError>()
        let shared = upstream.share()
        weak var weakLeaving: SubscriptionKeepingSubscriber<Int, TestError>?
        let staying = SubscriptionKeepingSubscriber<Int, TestError>()
        do {
            let leaving = SubscriptionKeepingSubscriber<Int, TestError>()
            weakLeaving = leaving
            shared.subscribe(leaving)
            shared.subscribe(staying)
            upstream.send(1)
            leaving.cancel()
        }
        #expect(weakLeaving == nil)
        upstream.send(2)
        #expect(staying.events == ["1", "2"])
    }

    @Test(arguments: [false, true])
    func aCancelledReduceNoLongerKeepsItsUpstream(throwing: Bool) {
        weak var weakUpstream: PassthroughSubject<Int, TestError>?
        weak var weakTracked: Tracked?
        let subscriber = SubscriptionKeepingSubscriber<Int, any Error>()
        do {
            let upstream = PassthroughSubject<Int, TestError>()
            let token = Tracked()
            weakUpstream = upstream
            weakTracked = token
            let reduced: AnyPublisher<Int, any Error> =
                throwing
                ? upstream.tryReduce(0) {
                    _ = token; return $0 + $1
                }.eraseToAnyPublisher()
                : upstream.reduce(0) {
                    _ = token; return $0 + $1
                }.mapError { $0 as any Error }.eraseToAnyPublisher()
            reduced.subscribe(subscriber)
            upstream.send(1)
        }
        #expect(weakUpstream != nil, "a live subscription keeps the subject it subscribed to")
        subscriber.cancel()
        #expect(weakUpstream == nil, "cancelled, the reduction lets go of its upstream")
        #expect(weakTracked != nil, "as in Combine, the reduction keeps its closure while its subscription lives")
        #expect(subscriber.events == [])
    }

    @Test func aFinishedReduceNoLongerKeepsItsUpstream() {
        weak var weakUpstream: PassthroughSubject<Int, TestError>?
        let subscriber = SubscriptionKeepingSubscriber<Int, TestError>()
        do {
            let upstream = PassthroughSubject<Int, TestError>()
            weakUpstream = upstream
            upstream.reduce(0, +).subscribe(subscriber)
            upstream.send(1)
            upstream.send(2)
            upstream.send(completion: .finished)
        }
        #expect(subscriber.events == ["3", "finished"])
        #expect(weakUpstream == nil)
    }

    // MARK: Every operator with one upstream

    /// An operator over a subject, subscribed by a subscriber that keeps its subscription (or, with
    /// `keepingSubscription` false, by one that keeps nothing); the subscriber is returned weakly.
    struct Chain {
        let name: String
        let subscribe: (PassthroughSubject<Int, TestError>, _ keepingSubscription: Bool) -> Weak

        init<P: Publisher>(_ name: String, _ make: @escaping (PassthroughSubject<Int, TestError>) -> P) {
            self.name = name
            subscribe = { subject, keepingSubscription in
                if keepingSubscription {
                    let subscriber = SubscriptionKeepingSubscriber<P.Output, P.Failure>()
                    make(subject).subscribe(subscriber)
                    return Weak(subscriber) { [weak subscriber] in subscriber?.cancel() }
                }
                let subscriber = Sink<P.Output, P.Failure>(receiveCompletion: { _ in }, receiveValue: { _ in })
                make(subject).subscribe(subscriber)
                return Weak(subscriber, cancel: {})
            }
        }
    }

    /// A weak reference to a subscriber, and a way to make it cancel.
    final class Weak {
        weak var object: AnyObject?
        let cancel: () -> Void

        init(_ object: AnyObject, cancel: @escaping () -> Void) {
            self.object = object
            self.cancel = cancel
        }
    }

    typealias Sink<Input, Failure: Error> = Subscribers.Sink<Input, Failure>

    static let immediate = ImmediateScheduler.shared

    static var chains: [Chain] {
        [
            Chain("map") { $0.map { $0 + 1 } },
            Chain("tryMap") { $0.tryMap { $0 + 1 } },
            Chain("map(keyPath)") { $0.map(\.self) },
            Chain("filter") { $0.filter { $0 > 0 } },
            Chain("tryFilter") { $0.tryFilter { $0 > 0 } },
            Chain("compactMap") { $0.compactMap { $0 } },
            Chain("tryCompactMap") { $0.tryCompactMap { $0 } },
            Chain("removeDuplicates") { $0.removeDuplicates() },
            Chain("tryRemoveDuplicates") { $0.tryRemoveDuplicates(by: ==) },
            Chain("scan") { $0.scan(0, +) },
            Chain("tryScan") { $0.tryScan(0, +) },
            Chain("reduce") { $0.reduce(0, +) },
            Chain("tryReduce") { $0.tryReduce(0, +) },
            Chain("collect") { $0.collect() },
            Chain("collect(2)") { $0.collect(2) },
            Chain("count") { $0.count() },
            Chain("min") { $0.min() },
            Chain("tryMax(by:)") { $0.tryMax(by: <) },
            Chain("contains") { $0.contains(99) },
            Chain("tryContains(where:)") { $0.tryContains { $0 > 99 } },
            Chain("allSatisfy") { $0.allSatisfy { $0 > 0 } },
            Chain("first") { $0.first { $0 > 5 } },
            Chain("tryLast(where:)") { $0.tryLast { $0 > 0 } },
            Chain("last") { $0.last() },
            Chain("output(at:)") { $0.output(at: 3) },
            Chain("prefix") { $0.prefix(3) },
            Chain("prefix(while:)") { $0.prefix { $0 < 5 } },
            Chain("dropFirst") { $0.dropFirst(3) },
            Chain("drop(while:)") { $0.drop { $0 < 5 } },
            Chain("ignoreOutput") { $0.ignoreOutput() },
            Chain("replaceNil") { $0.map { Optional($0) }.replaceNil(with: 0) },
            Chain("replaceError") { $0.replaceError(with: 0) },
            Chain("replaceEmpty") { $0.replaceEmpty(with: 0) },
            Chain("mapError") { $0.mapError { $0 } },
            Chain("setFailureType") { $0.replaceError(with: 0).setFailureType(to: TestError.self) },
            Chain("assertNoFailure") { $0.replaceError(with: 0).assertNoFailure() },
            Chain("catch") { $0.catch { _ in Just(0) } },
            Chain("tryCatch") { $0.tryCatch { _ in Just(0) } },
            Chain("retry") { $0.retry(1) },
            Chain("handleEvents") { $0.handleEvents(receiveOutput: { _ in }) },
            Chain("breakpoint") { $0.breakpoint() },
            Chain("eraseToAnyPublisher") { $0.eraseToAnyPublisher() },
            Chain("encode") { $0.encode(encoder: JSONEncoder()) },
            Chain("decode") { $0.map { Data("[\($0)]".utf8) }.decode(type: [Int].self, decoder: JSONDecoder()) },
            Chain("merge(with: Just)") { $0.merge(with: Just(0).setFailureType(to: TestError.self)) },
            Chain("MergeMany") { Publishers.MergeMany([$0, $0]) },
            Chain("combineLatest(Just)") { $0.combineLatest(Just(0).setFailureType(to: TestError.self)) },
            Chain("flatMap") { $0.flatMap { Just($0).setFailureType(to: TestError.self) } },
            Chain("flatMap(maxPublishers: 1)") {
                $0.flatMap(maxPublishers: .max(1)) { Just($0).setFailureType(to: TestError.self) }
            },
            Chain("switchToLatest") { $0.map { Just($0).setFailureType(to: TestError.self) }.switchToLatest() },
            Chain("buffer") { $0.buffer(size: 4, prefetch: .byRequest, whenFull: .dropOldest) },
            Chain("prepend") { $0.prepend(0) },
            Chain("append") { $0.append(0) },
            Chain("receive(on:)") { $0.receive(on: immediate) },
            Chain("subscribe(on:)") { $0.subscribe(on: immediate) },
            Chain("measureInterval") { $0.measureInterval(using: immediate) },
        ]
    }

    @Test(arguments: chains.indices)
    func aSubscriptionKeepsItsUpstreamUntilCancelled(_ index: Int) {
        let chain = Self.chains[index]
        weak var weakUpstream: PassthroughSubject<Int, TestError>?
        let subscriber: Weak
        do {
            let upstream = PassthroughSubject<Int, TestError>()
            weakUpstream = upstream
            subscriber = chain.subscribe(upstream, true)
            upstream.send(1)
        }
        #expect(weakUpstream != nil, "\(chain.name): a live subscription keeps its upstream")
        subscriber.cancel()
        #expect(weakUpstream == nil, "\(chain.name): a cancelled subscription lets go of its upstream")
    }

    @Test(arguments: chains.indices)
    func aCompletedSubscriptionLetsGoOfItsUpstream(_ index: Int) {
        let chain = Self.chains[index]
        weak var weakUpstream: PassthroughSubject<Int, TestError>?
        let subscriber: Weak
        do {
            let upstream = PassthroughSubject<Int, TestError>()
            weakUpstream = upstream
            subscriber = chain.subscribe(upstream, true)
            upstream.send(1)
            upstream.send(completion: .finished)
        }
        #expect(weakUpstream == nil, "\(chain.name): a completed subscription lets go of its upstream")
        withExtendedLifetime(subscriber) {}
    }

    @Test(arguments: chains.indices, [true, false])
    func nothingOutlivesACompletedStream(_ index: Int, finishes: Bool) {
        let chain = Self.chains[index]
        let subscriber: Weak
        do {
            let upstream = PassthroughSubject<Int, TestError>()
            subscriber = chain.subscribe(upstream, false)
            upstream.send(1)
            upstream.send(completion: finishes ? .finished : .failure(TestError()))
        }
        #expect(subscriber.object == nil, "\(chain.name): once completed, nothing keeps the subscriber")
    }

    // MARK: Publishers that start a stream

    /// Publishers that start a stream, each subscribed with no demand by a subscriber that keeps its
    /// subscription; the subscriber is returned weakly.
    static var sources: [(name: String, subscribe: () -> Weak)] {
        func source<P: Publisher>(_ name: String, _ make: @escaping () -> P) -> (name: String, subscribe: () -> Weak) {
            (
                name,
                {
                    let subscriber = SubscriptionKeepingSubscriber<P.Output, P.Failure>(initialDemand: .none)
                    make().subscribe(subscriber)
                    return Weak(subscriber) { [weak subscriber] in subscriber?.cancel() }
                }
            )
        }
        return [
            source("Just") { Just(1) },
            source("Optional.Publisher") { Optional(1).publisher },
            source("Result.Publisher") { Result<Int, TestError>.success(1).publisher },
            source("Publishers.Sequence") { [1, 2].publisher },
            source("Record") { Record<Int, Never>(output: [1], completion: .finished) },
            source("Deferred") { Deferred { Just(1) } },
            source("Future") { Future<Int, Never> { _ in } },
            source("PassthroughSubject") { PassthroughSubject<Int, Never>() },
            source("CurrentValueSubject") { CurrentValueSubject<Int, Never>(1) },
            source("AnyPublisher") { Just(1).eraseToAnyPublisher() },
            source("share") { [1, 2].publisher.share() },
            source("NotificationCenter.Publisher") {
                NotificationCenter().publisher(for: Notification.Name("LifetimeTests"))
            },
            source("Timer.publish, autoconnected") {
                Timer.publish(every: 3600, on: .main, in: .common).autoconnect()
            },
        ]
    }

    @Test(arguments: sources.indices)
    func aWaitingSubscriptionKeepsItsSubscriberUntilCancelled(_ index: Int) {
        let (name, subscribe) = Self.sources[index]
        let subscriber = subscribe()
        #expect(subscriber.object != nil, "\(name): a live subscription keeps its subscriber")
        subscriber.cancel()
        #expect(subscriber.object == nil, "\(name): once cancelled, the subscription lets go of its subscriber")
    }

    // MARK: Where Streams lets go earlier than Combine (see "Differences from Combine")

    @Test func recordLetsGoOfItsRecordingOncePlayed() {
        weak var weakTracked: Tracked?
        let subscriber = SubscriptionKeepingSubscriber<Tracked, Never>()
        do {
            let token = Tracked()
            weakTracked = token
            Record(output: [token], completion: .finished).subscribe(subscriber)
        }
        #expect(subscriber.events.count == 2)
        #expect(subscriber.subscription != nil)
        #expect(weakTracked == nil, "the played recording is not kept by the finished subscription")
    }

    @Test func aCancelledFutureSubscriptionLetsGoOfTheFuture() {
        weak var weakFuture: Future<Int, Never>?
        let subscriber = SubscriptionKeepingSubscriber<Int, Never>()
        do {
            // The promise is dropped: it would keep the future alive, as Combine's does.
            let future = Future<Int, Never> { _ in }
            weakFuture = future
            future.subscribe(subscriber)
        }
        #expect(weakFuture != nil, "a waiting subscription keeps its future")
        subscriber.cancel()
        #expect(weakFuture == nil)
        #expect(subscriber.events == [])
    }

    @Test func catchLetsGoOfItsHandlerWhenCancelled() {
        weak var weakTracked: Tracked?
        let subscriber = SubscriptionKeepingSubscriber<Int, Never>()
        let upstream = PassthroughSubject<Int, TestError>()
        do {
            let token = Tracked()
            weakTracked = token
            upstream.catch { _ in
                _ = token; return Just(0)
            }.subscribe(subscriber)
        }
        upstream.send(1)
        #expect(weakTracked != nil)
        subscriber.cancel()
        #expect(weakTracked == nil)
        #expect(subscriber.events == ["1"])
    }
}
