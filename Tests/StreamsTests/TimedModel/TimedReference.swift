import Streams

/// Plays a ``TimedCase`` through the reference: the stages of ``ReferenceStages`` and
/// ``ReferenceTimeOperators`` on a ``ReferenceTimeline``.
enum TimedReference {
    /// What the subscribers saw, with times and names: up to the horizon (the steps at second 0 taken
    /// before the main subscriber subscribes), and then, after they and a multicast connection were
    /// cancelled there, whatever the work left on the time line delivered, and whatever finishing
    /// every subject delivered after that.
    static func play(_ timedCase: TimedCase) -> [TimedEvent] {
        playInFull(timedCase).events
    }

    /// What ``play(_:)`` gives, and whether, once the subscriber cancelled and the time line ran
    /// out, a subject still held a subscriber of the chain (as Combine's `flatMap` leaves its
    /// upstream subscribed after a publisher fails).
    static func playInFull(_ timedCase: TimedCase) -> (events: [TimedEvent], subjectsHoldTheChain: Bool) {
        let timeline = ReferenceTimeline()
        let log = TimedEventLog()
        let recorder = ReferenceRecorder(script: timedCase.subscriber, timeline: timeline, log: log)
        let extras = timedCase.extraSubscribers.map { extra in
            ReferenceRecorder(script: extra.script, timeline: timeline, log: log, name: extra.name)
        }
        let subjects = (0..<timedCase.source.subjectCount).map { _ in ReferenceSubject() }
        let connector = TimedConnector()
        var publisher: ReferencePublisher
        switch timedCase.source {
        case .subject: publisher = subjects[0].subscribe
        case .combined(let op): publisher = combine(subjects.map { $0.subscribe }, with: op, connector: connector)
        case .timer(let interval): publisher = { ReferenceTimer(every: interval, on: timeline).subscribe($0) }
        }
        let root = publisher
        let take = { (scripted: ScriptedStep) in
            let target = extras.first { $0.name == scripted.subscriber } ?? recorder
            switch scripted.step {
            case .send(let value): subjects[scripted.upstream].send(value)
            case .finish: subjects[scripted.upstream].send(completion: .finished)
            case .fail: subjects[scripted.upstream].send(completion: .failure(.sent))
            case .request(let demand): target.request(demand)
            case .cancel: target.cancel()
            case .subscribe: root(target)
            case .connect: connector.connectNow()
            }
        }
        for scripted in timedCase.steps {
            if scripted.time == 0 {
                take(scripted)
            } else {
                timeline.schedule(after: scripted.time) { take(scripted) }
            }
        }
        for op in timedCase.operators {
            publisher = apply(op, to: publisher, timeline: timeline)
        }
        publisher(recorder)
        _ = timeline.run(until: timedCase.horizon)
        recorder.cancel()
        for extra in extras { extra.cancel() }
        connector.cancel()
        _ = timeline.run(until: nil)
        let held = subjects.contains(where: \.hasSubscribers)
        for subject in subjects { subject.send(completion: .finished) }
        _ = timeline.run(until: nil)
        return (log.events, held)
    }

    /// The publisher `op` makes of `upstreams`; a multicast one is connected through `connector`.
    private static func combine(
        _ upstreams: [ReferencePublisher], with op: CombiningOperator, connector: TimedConnector
    ) -> ReferencePublisher {
        switch op {
        case .merge(let count), .mergeMany(let count):
            return { ReferenceMerge(downstream: $0, count: count).start(upstreams) }
        case .zip(let count):
            return { ReferenceZip(downstream: $0, count: count).start(upstreams) }
        case .combineLatest(let count):
            return { ReferenceCombineLatest(downstream: $0, count: count).start(upstreams) }
        case .append:
            return {
                ReferenceHandover(downstream: $0, catching: false, second: upstreams[1]).start(first: upstreams[0])
            }
        case .prepend:
            return {
                ReferenceHandover(downstream: $0, catching: false, second: upstreams[0]).start(first: upstreams[1])
            }
        case .catchWithSecond:
            return {
                ReferenceHandover(downstream: $0, catching: true, second: upstreams[1]).start(first: upstreams[0])
            }
        case .prefixUntilOutput:
            return { ReferencePrefixUntilOutput(downstream: $0).start(upstream: upstreams[0], other: upstreams[1]) }
        case .dropUntilOutput:
            return { ReferenceDropUntilOutput(downstream: $0).start(upstream: upstreams[0], other: upstreams[1]) }
        case .switchToLatest(let count):
            return {
                ReferenceSwitchToLatest(downstream: $0) { upstreams[1 + $0 % (count - 1)] }.start(upstreams[0])
            }
        case .flatMap(let count, let maxPublishers):
            return {
                ReferenceFlatMap(downstream: $0, maxPublishers: maxPublishers.map { .max($0) } ?? .unlimited) {
                    upstreams[1 + $0 % (count - 1)]
                }.start(upstreams[0])
            }
        case .retry(let count, let retries):
            return { downstream in
                var attempt = 0
                let deferred: ReferencePublisher = { subscriber in
                    let index = min(attempt, count - 1)
                    attempt += 1
                    upstreams[index](subscriber)
                }
                ReferenceRetry(downstream: downstream, upstream: deferred, retries: retries).start()
            }
        case .buffer(let size, let keepFull, let whenFull):
            return { upstreams[0](ReferenceBuffer(downstream: $0, size: size, keepFull: keepFull, whenFull: whenFull)) }
        case .share:
            let shared = ReferenceAutoconnect(upstream: ReferenceMulticast(upstream: upstreams[0]))
            return shared.subscribe
        case .multicast:
            let multicast = ReferenceMulticast(upstream: upstreams[0])
            connector.connect = {
                let connection = multicast.connect()
                return { connection.cancel() }
            }
            return multicast.subscribe
        }
    }

    /// The publisher `op` makes of `upstream`.
    private static func apply(
        _ op: TimedOperator, to upstream: @escaping ReferencePublisher, timeline: ReferenceTimeline
    ) -> ReferencePublisher {
        switch op {
        case .map(let transform):
            return { upstream(ReferencePassThrough(downstream: $0, transform: transform.apply)) }
        case .filter(let predicate):
            return { upstream(ReferencePassThrough(downstream: $0) { predicate.test($0) ? $0 : nil }) }
        case .compactMap(let transform):
            return { upstream(ReferencePassThrough(downstream: $0, transform: transform.apply)) }
        case .scan(let accumulation):
            return { downstream in
                var result = accumulation.initial
                upstream(
                    ReferencePassThrough(downstream: downstream) {
                        result = accumulation.combine(result, $0)
                        return result
                    })
            }
        case .removeDuplicates:
            return { upstream(ReferenceRemoveDuplicates(downstream: $0)) }
        case .prefix(let count):
            return { upstream(ReferencePrefix(downstream: $0, count: count)) }
        case .debounce(let interval):
            return { upstream(ReferenceDebounce(downstream: $0, interval: interval, timeline: timeline)) }
        case .throttle(let interval, let latest):
            return {
                upstream(ReferenceThrottle(downstream: $0, interval: interval, latest: latest, timeline: timeline))
            }
        case .delay(let interval):
            return {
                upstream(
                    ReferenceScheduledEvents(downstream: $0, interval: interval, deadline: nil, timeline: timeline))
            }
        case .receiveOn:
            return {
                upstream(ReferenceScheduledEvents(downstream: $0, interval: 0, deadline: nil, timeline: timeline))
            }
        case .timeout(let interval, let fails):
            return {
                upstream(
                    ReferenceScheduledEvents(
                        downstream: $0, interval: 0,
                        deadline: ReferenceScheduledEvents.Deadline(interval: interval, fails: fails),
                        timeline: timeline))
            }
        case .collectByTime(let interval):
            return {
                upstream(ReferenceCollectByTime(downstream: $0, interval: interval, count: nil, timeline: timeline))
            }
        case .collectByTimeOrCount(let interval, let count):
            return {
                upstream(ReferenceCollectByTime(downstream: $0, interval: interval, count: count, timeline: timeline))
            }
        case .measureInterval:
            return { upstream(ReferenceMeasureInterval(downstream: $0, timeline: timeline)) }
        case .subscribeOn:
            return { downstream in
                let inner = ReferenceSubscribeOn(downstream: downstream, timeline: timeline)
                timeline.schedule { upstream(inner) }
            }
        }
    }
}
