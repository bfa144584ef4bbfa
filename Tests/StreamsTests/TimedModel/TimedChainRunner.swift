import Foundation
import Streams
import StreamsTesting

/// Plays a ``TimedCase`` through Streams' operators on a `TestScheduler`, recording what the
/// subscribers see with the virtual second they see it at.
enum TimedChainRunner {
    typealias TestQueue = TestSchedulerOf<DispatchQueue>

    struct Outcome {
        var events: [TimedEvent]
        /// Whether the chain, its subscribers and the closures in it were freed once the subscribers
        /// had cancelled and the scheduler had run out, before the subjects finished.
        var releasedBeforeSubjectsFinished: Bool
        /// Whether they were freed once every subject had finished too.
        var released: Bool
    }

    /// Builds the chain, takes the steps on the scheduler up to the horizon (those at second 0 before
    /// the main subscriber subscribes), cancels there the subscribers still subscribed and a multicast
    /// connection, runs what is left on the scheduler and checks what was freed; then finishes every
    /// subject and checks again.
    static func run(_ timedCase: TimedCase) -> Outcome {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        let subjects = (0..<timedCase.source.subjectCount).map { _ in PassthroughSubject<Int, ChainFailure>() }
        weak var weakSubscriber: TimedScriptedSubscriber?
        weak var weakToken: Tracked?
        var extrasFreed: [() -> Bool] = []
        let log = TimedEventLog()
        do {
            // Captured by the closures in the chain: it outlives the chain only if something leaks.
            let token = Tracked()
            let clock = { seconds(start.distance(to: scheduler.now)) }
            let subscriber = TimedScriptedSubscriber(script: timedCase.subscriber, log: log, clock: clock)
            let extras = timedCase.extraSubscribers.map { extra in
                TimedScriptedSubscriber(script: extra.script, log: log, name: extra.name, clock: clock)
            }
            extrasFreed = extras.map { extra in { [weak extra] in extra == nil } }
            weakSubscriber = subscriber
            weakToken = token
            let connector = TimedConnector()
            let root: AnyPublisher<Int, ChainFailure>? =
                switch timedCase.source {
                case .combined(let op): combine(subjects, with: op, token: token, connector: connector)
                case .subject, .timer: nil
                }
            let take = { (scripted: ScriptedStep) in
                let target = extras.first { $0.name == scripted.subscriber } ?? subscriber
                switch scripted.step {
                case .send(let value): subjects[scripted.upstream].send(value)
                case .finish: subjects[scripted.upstream].send(completion: .finished)
                case .fail: subjects[scripted.upstream].send(completion: .failure(.sent))
                case .request(let demand): target.scriptedRequest(demand.streams)
                case .cancel: target.cancel()
                case .subscribe: root?.subscribe(target)
                case .connect: connector.connectNow()
                }
            }
            for scripted in timedCase.steps {
                if scripted.time == 0 {
                    take(scripted)
                } else {
                    scheduler.schedule(after: start.advanced(by: .seconds(scripted.time))) { take(scripted) }
                }
            }
            let chain = Chain(scheduler: scheduler, token: token, subscriber: subscriber)
            switch timedCase.source {
            case .subject:
                chain.attach(subjects[0], timedCase.operators[...])
            case .combined:
                if let root { chain.attach(root, timedCase.operators[...]) }
            case .timer(let interval):
                let ticks = scheduler.timerPublisher(every: .seconds(interval)).autoconnect()
                    .map { time in token.touch { seconds(start.distance(to: time)) } }
                    .setFailureType(to: ChainFailure.self)
                chain.attach(ticks, timedCase.operators[...])
            }
            scheduler.advance(to: start.advanced(by: .seconds(timedCase.horizon)))
            subscriber.cancel()
            for extra in extras { extra.cancel() }
            connector.cancel()
            scheduler.run()
        }
        let releasedEarly = weakSubscriber == nil && weakToken == nil && extrasFreed.allSatisfy { $0() }
        for subject in subjects { subject.send(completion: .finished) }
        scheduler.run()
        let released = weakSubscriber == nil && weakToken == nil && extrasFreed.allSatisfy { $0() }
        withExtendedLifetime((subjects, scheduler)) {}
        return Outcome(events: log.events, releasedBeforeSubjectsFinished: releasedEarly, released: released)
    }

    /// The root of a combining case, over `subjects`; a multicast one is connected through
    /// `connector`.
    private static func combine(
        _ subjects: [PassthroughSubject<Int, ChainFailure>], with op: CombiningOperator, token: Tracked,
        connector: TimedConnector
    ) -> AnyPublisher<Int, ChainFailure> {
        /// A tuple's components, encoded as one integer.
        func encode(_ values: Int...) -> Int {
            token.touch { ChainClosures.encode(values) }
        }
        let s = subjects
        switch op {
        case .merge(let count):
            switch count {
            case 2: return s[0].merge(with: s[1]).eraseToAnyPublisher()
            case 3: return s[0].merge(with: s[1], s[2]).eraseToAnyPublisher()
            case 4: return s[0].merge(with: s[1], s[2], s[3]).eraseToAnyPublisher()
            case 5: return s[0].merge(with: s[1], s[2], s[3], s[4]).eraseToAnyPublisher()
            case 6: return s[0].merge(with: s[1], s[2], s[3], s[4], s[5]).eraseToAnyPublisher()
            case 7: return s[0].merge(with: s[1], s[2], s[3], s[4], s[5], s[6]).eraseToAnyPublisher()
            default: return s[0].merge(with: s[1], s[2], s[3], s[4], s[5], s[6], s[7]).eraseToAnyPublisher()
            }
        case .mergeMany: return Publishers.MergeMany(s).eraseToAnyPublisher()
        case .zip(let count):
            switch count {
            case 2: return s[0].zip(s[1]).map { encode($0, $1) }.eraseToAnyPublisher()
            case 3: return s[0].zip(s[1], s[2]).map { encode($0, $1, $2) }.eraseToAnyPublisher()
            default: return s[0].zip(s[1], s[2], s[3]).map { encode($0, $1, $2, $3) }.eraseToAnyPublisher()
            }
        case .combineLatest(let count):
            switch count {
            case 2: return s[0].combineLatest(s[1]).map { encode($0, $1) }.eraseToAnyPublisher()
            case 3: return s[0].combineLatest(s[1], s[2]).map { encode($0, $1, $2) }.eraseToAnyPublisher()
            default:
                return s[0].combineLatest(s[1], s[2], s[3]).map { encode($0, $1, $2, $3) }.eraseToAnyPublisher()
            }
        case .append: return s[0].append(s[1]).eraseToAnyPublisher()
        case .prepend: return s[0].prepend(s[1]).eraseToAnyPublisher()
        case .catchWithSecond:
            let second = s[1]
            return s[0].catch { _ in token.touch { second } }.eraseToAnyPublisher()
        case .prefixUntilOutput: return s[0].prefix(untilOutputFrom: s[1]).eraseToAnyPublisher()
        case .dropUntilOutput: return s[0].drop(untilOutputFrom: s[1]).eraseToAnyPublisher()
        case .switchToLatest(let count):
            return s[0].map { value in token.touch { s[1 + value % (count - 1)] } }.switchToLatest()
                .eraseToAnyPublisher()
        case .flatMap(let count, let maxPublishers):
            return s[0].flatMap(maxPublishers: maxPublishers.map { .max($0) } ?? .unlimited) { value in
                token.touch { s[1 + value % (count - 1)] }
            }.eraseToAnyPublisher()
        case .retry(let count, let retries):
            let attempts = Tracked()
            return Deferred { () -> PassthroughSubject<Int, ChainFailure> in
                token.touch {
                    let index = min(attempts.value, count - 1)
                    attempts.value += 1
                    return s[index]
                }
            }.retry(retries).eraseToAnyPublisher()
        case .buffer(let size, let keepFull, let whenFull):
            let strategy: Publishers.BufferingStrategy<ChainFailure> =
                switch whenFull {
                case .dropNewest: .dropNewest
                case .dropOldest: .dropOldest
                case .fail: .customError { token.touch { .full } }
                }
            return s[0].buffer(size: size, prefetch: keepFull ? .keepFull : .byRequest, whenFull: strategy)
                .eraseToAnyPublisher()
        case .share: return s[0].share().eraseToAnyPublisher()
        case .multicast:
            let multicast = s[0].multicast(subject: PassthroughSubject())
            connector.connect = {
                let connection = multicast.connect()
                return { connection.cancel() }
            }
            return multicast.eraseToAnyPublisher()
        }
    }

    /// A stride of the test scheduler in whole seconds.
    static func seconds(_ stride: DispatchQueue.SchedulerTimeType.Stride) -> Int {
        stride.magnitude / 1_000_000_000
    }

    /// Applies the operators of a case, in order, and subscribes the subscriber at the end.
    private struct Chain {
        let scheduler: TestQueue
        let token: Tracked
        let subscriber: TimedScriptedSubscriber

        func attach<Upstream: Publisher>(_ publisher: Upstream, _ operators: ArraySlice<TimedOperator>)
        where Upstream.Output == Int, Upstream.Failure == ChainFailure {
            guard let op = operators.first else {
                publisher.subscribe(subscriber)
                return
            }
            let rest = operators.dropFirst()
            let token = token
            let scheduler = scheduler
            switch op {
            case .map(let transform): attach(publisher.map { value in token.touch { transform.apply(value) } }, rest)
            case .filter(let predicate):
                attach(publisher.filter { value in token.touch { predicate.test(value) } }, rest)
            case .compactMap(let transform):
                attach(publisher.compactMap { value in token.touch { transform.apply(value) } }, rest)
            case .scan(let accumulation):
                attach(
                    publisher.scan(accumulation.initial) { result, value in
                        token.touch { accumulation.combine(result, value) }
                    }, rest)
            case .removeDuplicates: attach(publisher.removeDuplicates(), rest)
            case .prefix(let count): attach(publisher.prefix(count), rest)
            case .debounce(let interval):
                attach(publisher.debounce(for: .seconds(interval), scheduler: scheduler), rest)
            case .throttle(let interval, let latest):
                attach(publisher.throttle(for: .seconds(interval), scheduler: scheduler, latest: latest), rest)
            case .delay(let interval): attach(publisher.delay(for: .seconds(interval), scheduler: scheduler), rest)
            case .timeout(let interval, let fails):
                if fails {
                    attach(
                        publisher.timeout(.seconds(interval), scheduler: scheduler) {
                            token.touch { ChainFailure.timedOut }
                        }, rest)
                } else {
                    attach(publisher.timeout(.seconds(interval), scheduler: scheduler), rest)
                }
            case .collectByTime(let interval):
                attach(
                    publisher.collect(.byTime(scheduler, .seconds(interval)))
                        .map { values in token.touch { ChainClosures.encode(values) } }, rest)
            case .collectByTimeOrCount(let interval, let count):
                attach(
                    publisher.collect(.byTimeOrCount(scheduler, .seconds(interval), count))
                        .map { values in token.touch { ChainClosures.encode(values) } }, rest)
            case .measureInterval:
                attach(
                    publisher.measureInterval(using: scheduler)
                        .map { interval in token.touch { TimedChainRunner.seconds(interval) } }, rest)
            case .receiveOn: attach(publisher.receive(on: scheduler), rest)
            case .subscribeOn: attach(publisher.subscribe(on: scheduler), rest)
            }
        }
    }
}

/// A subscriber of a timed case in Streams: follows its ``SubscriberScript`` (as
/// ``ReferenceRecorder`` does in the reference) and records what it sees with the time and its name.
final class TimedScriptedSubscriber: Subscriber {
    typealias Input = Int
    typealias Failure = ChainFailure

    /// "" for the main subscriber, or the name of one of a shared publisher's others.
    let name: String
    private let script: SubscriberScript
    private let log: TimedEventLog
    private let clock: () -> Int
    private var subscription: (any Subscription)?
    private var received = 0
    private var isDone = false

    /// Records into `log` under `name`; `clock` tells the time, in seconds since the start.
    init(script: SubscriberScript, log: TimedEventLog, name: String = "", clock: @escaping () -> Int) {
        self.script = script
        self.log = log
        self.name = name
        self.clock = clock
    }

    func receive(subscription: any Subscription) {
        log.events.append(TimedEvent(time: clock(), event: .subscription, subscriber: name))
        self.subscription = subscription
        if script.initialDemand.isPositive { subscription.request(script.initialDemand.streams) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        log.events.append(TimedEvent(time: clock(), event: .value(input), subscriber: name))
        received += 1
        let inside = script.request(insideValue: received)
        if inside.isPositive { subscription?.request(inside.streams) }
        if received == script.cancelAtValue { cancel() }
        return isDone ? .none : script.demand(afterValue: received).streams
    }

    func receive(completion: Subscribers.Completion<ChainFailure>) {
        switch completion {
        case .finished: log.events.append(TimedEvent(time: clock(), event: .finished, subscriber: name))
        case .failure(let failure):
            log.events.append(TimedEvent(time: clock(), event: .failure(failure), subscriber: name))
        }
        isDone = true
        subscription = nil
    }

    /// A request the script makes at its time.
    func scriptedRequest(_ demand: Subscribers.Demand) {
        guard !isDone else { return }
        subscription?.request(demand)
    }

    /// Cancels, once.
    func cancel() {
        guard !isDone else { return }
        isDone = true
        let current = subscription
        subscription = nil
        current?.cancel()
    }
}

/// What the subscribers of a case saw, in the order they saw it, kept apart from them so that it can
/// be read after they are gone (``TimedScriptedSubscriber`` in Streams, ``ReferenceRecorder`` in the
/// reference).
final class TimedEventLog {
    var events: [TimedEvent] = []
}
