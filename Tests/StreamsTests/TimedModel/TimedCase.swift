import Streams

// The cases the timed model test plays: a chain of time operators mixed with synchronous ones, over a
// subject the script sends into at given virtual times (or a timer), with a subscriber that asks for
// values and cancels following a script of its own. Times are whole seconds of virtual time. A shared
// publisher (`share()`, `multicast(subject:)`) has other subscribers too, each with a script of its
// own, which subscribe to it directly at their times.

/// An event a subscriber saw, with the virtual second it came at.
struct TimedEvent: Equatable, Sendable, CustomStringConvertible {
    var time: Int
    var event: ChainEvent
    /// Who saw it: "" for the main subscriber, or the name of one of the shared publisher's others.
    var subscriber = ""

    var description: String { subscriber.isEmpty ? "\(event)@\(time)" : "\(subscriber):\(event)@\(time)" }
}

/// What a timed chain publishes from.
enum TimedSource: Equatable, Sendable, CustomStringConvertible {
    /// A `PassthroughSubject` the script sends into; it drops what is sent without demand.
    case subject
    /// A timer on the test scheduler (`SchedulerTimer`), autoconnected, ticking every so many seconds
    /// with the time, in seconds since the start.
    case timer(every: Int)
    /// An operator that combines several subjects (`subjects[0]`, `subjects[1]`, …), which the script
    /// sends into.
    case combined(CombiningOperator)

    /// How many subjects the script sends into.
    var subjectCount: Int {
        switch self {
        case .subject: 1
        case .timer: 0
        case .combined(let op): op.upstreamCount
        }
    }

    var description: String {
        switch self {
        case .subject: "subjects[0] = PassthroughSubject<Int, ChainFailure>()"
        case .timer(let interval):
            "scheduler.timerPublisher(every: .seconds(\(interval))).autoconnect() /* seconds since start */"
        case .combined(let op): op.description
        }
    }
}

/// One thing the script does at its time.
enum TimedStep: Equatable, Sendable, CustomStringConvertible {
    case send(Int)
    case finish
    case fail
    /// The subscriber asks for more.
    case request(ModelDemand)
    /// The subscriber cancels.
    case cancel
    /// The subscriber, one of a shared publisher's others, subscribes to it.
    case subscribe
    /// The multicast publisher is connected; the connection is kept until the end of the run.
    case connect

    var description: String {
        switch self {
        case .send(let value): "send(\(value))"
        case .finish: "send(completion: .finished)"
        case .fail: "send(completion: .failure(.sent))"
        case .request(let demand): "request(\(demand))"
        case .cancel: "cancel()"
        case .subscribe: "subscribe(shared)"
        case .connect: "connect()"
        }
    }
}

/// A step and the second it is taken at. Steps at second 0 are taken at the start, before the main
/// subscriber subscribes.
struct ScriptedStep: Equatable, Sendable, CustomStringConvertible {
    var time: Int
    var step: TimedStep
    /// The subject a send or a completion goes to.
    var upstream = 0
    /// Who requests, cancels or subscribes: "" for the main subscriber, or the name of one of the
    /// shared publisher's others.
    var subscriber = ""

    var description: String {
        switch step {
        case .send, .finish, .fail: "subjects[\(upstream)].\(step)@\(time)"
        case .request, .cancel, .subscribe: "\(subscriber.isEmpty ? "" : "\(subscriber).")\(step)@\(time)"
        case .connect: "multicast.\(step)@\(time)"
        }
    }
}

/// One of a shared publisher's subscribers other than the main one: it subscribes to the shared
/// publisher itself, at the time of its ``TimedStep/subscribe`` step, and records what it sees under
/// its name.
struct ExtraSubscriber: Sendable, CustomStringConvertible {
    /// "B", "C" or "D".
    var name: String
    var script: SubscriberScript

    var description: String { "subscriber \(name), of the shared publisher itself: \(script)" }
}

/// An operator of a timed chain. Durations are in seconds; every operator publishes integers (arrays
/// are encoded with ``ChainClosures/encode(_:)``, intervals are whole seconds).
enum TimedOperator: Sendable, CustomStringConvertible {
    case map(NamedTransform)
    case filter(NamedPredicate)
    case compactMap(NamedPartialTransform)
    case scan(NamedAccumulation)
    case removeDuplicates
    case prefix(Int)
    case debounce(Int)
    case throttle(Int, latest: Bool)
    case delay(Int)
    /// `timeout`, finishing when the time runs out, or failing with ``ChainFailure/timedOut``.
    case timeout(Int, fails: Bool)
    case collectByTime(Int)
    case collectByTimeOrCount(Int, count: Int)
    case measureInterval
    case receiveOn
    case subscribeOn

    var description: String {
        switch self {
        case .map(let transform): ".map \(transform)"
        case .filter(let predicate): ".filter \(predicate)"
        case .compactMap(let transform): ".compactMap \(transform)"
        case .scan(let accumulation): ".scan(\(accumulation))"
        case .removeDuplicates: ".removeDuplicates()"
        case .prefix(let count): ".prefix(\(count))"
        case .debounce(let interval): ".debounce(for: .seconds(\(interval)), scheduler: scheduler)"
        case .throttle(let interval, let latest):
            ".throttle(for: .seconds(\(interval)), scheduler: scheduler, latest: \(latest))"
        case .delay(let interval): ".delay(for: .seconds(\(interval)), scheduler: scheduler)"
        case .timeout(let interval, let fails):
            ".timeout(.seconds(\(interval)), scheduler: scheduler\(fails ? ", customError: { .timedOut }" : ""))"
        case .collectByTime(let interval):
            ".collect(.byTime(scheduler, .seconds(\(interval)))).map(encode)"
        case .collectByTimeOrCount(let interval, let count):
            ".collect(.byTimeOrCount(scheduler, .seconds(\(interval)), \(count))).map(encode)"
        case .measureInterval: ".measureInterval(using: scheduler).map(seconds)"
        case .receiveOn: ".receive(on: scheduler)"
        case .subscribeOn: ".subscribe(on: scheduler)"
        }
    }

    /// Whether the operator's output depends on time.
    var isTimed: Bool {
        switch self {
        case .map, .filter, .compactMap, .scan, .removeDuplicates, .prefix: false
        default: true
        }
    }
}

/// One case of the timed model test.
struct TimedCase: Sendable, CustomStringConvertible {
    var source: TimedSource
    var operators: [TimedOperator]
    var subscriber: SubscriberScript
    /// In the order they are taken; equal times keep this order.
    var steps: [ScriptedStep]
    /// Where the run stops: a subscriber still subscribed then cancels (the main one first, then the
    /// others in order), a multicast connection is cancelled, and what is left on the scheduler runs.
    var horizon: Int
    /// The shared publisher's other subscribers (none unless the source is `share()` or
    /// `multicast(subject:)`).
    var extraSubscribers: [ExtraSubscriber] = []

    var description: String {
        let chain = ([source.description] + operators.map(\.description)).joined(separator: "\n    ")
        let others = extraSubscribers.map { "\n\($0)" }.joined()
        return """
            \(chain)
            subscriber: \(subscriber)\(others)
            steps: \(steps.map(\.description).joined(separator: " "))
            horizon: \(horizon)s
            """
    }

    /// A random case: one to four time operators, with up to two synchronous ones among them.
    static func random(using random: inout SeededRandom) -> TimedCase {
        let source: TimedSource = random.chance(80) ? .subject : .timer(every: random.int(in: 1...9))
        var operators = (0..<random.int(in: 1...4)).map { _ in randomTimedOperator(using: &random) }
        for _ in 0..<random.pick(weighted: [(4, 0), (4, 1), (2, 2)]) {
            operators.insert(randomSynchronousOperator(using: &random), at: random.int(in: 0...operators.count))
        }
        var steps = source == .subject ? randomSends(to: 0, values: 0...6, using: &random) : []
        steps += randomSubscriberSteps(using: &random)
        return TimedCase(
            source: source, operators: operators, subscriber: randomSubscriber(using: &random),
            steps: sortedByTime(steps), horizon: 100)
    }

    /// A random case of a combining operator over subjects, followed by up to two time or
    /// synchronous operators. Subject `i` sends values from `10 * i` to `10 * i + 6`, so each value
    /// says where it came from. A shared publisher gets one to three other subscribers, and a
    /// multicast one a connection at a random time.
    static func randomCombining(using random: inout SeededRandom) -> TimedCase {
        let combining = CombiningOperator.random(using: &random)
        var operators: [TimedOperator] = []
        for _ in 0..<random.pick(weighted: [(5, 0), (3, 1), (2, 2)]) {
            operators.append(
                random.chance(50)
                    ? randomTimedOperator(using: &random) : randomSynchronousOperator(using: &random))
        }
        var steps: [ScriptedStep] = []
        for upstream in 0..<combining.upstreamCount {
            steps += randomSends(to: upstream, values: (10 * upstream)...(10 * upstream + 6), using: &random)
        }
        steps += randomSubscriberSteps(using: &random)
        let subscriber = randomSubscriber(using: &random)
        var extraSubscribers: [ExtraSubscriber] = []
        if combining.isShared {
            for name in ["B", "C", "D"].prefix(random.int(in: 1...3)) {
                extraSubscribers.append(ExtraSubscriber(name: name, script: randomExtraSubscriber(using: &random)))
                steps += randomExtraSubscriberSteps(of: name, using: &random)
            }
        }
        if combining == .multicast {
            steps.append(
                ScriptedStep(time: random.pick(weighted: [(2, 0), (8, random.int(in: 1...40))]), step: .connect))
        }
        return TimedCase(
            source: .combined(combining), operators: operators, subscriber: subscriber, steps: sortedByTime(steps),
            horizon: 100, extraSubscribers: extraSubscribers)
    }

    /// When one of a shared publisher's other subscribers subscribes (at the start, before the main
    /// subscriber, or later), and its requests and cancel after that.
    private static func randomExtraSubscriberSteps(of name: String, using random: inout SeededRandom)
        -> [ScriptedStep]
    {
        let start = random.pick(weighted: [(3, 0), (7, random.int(in: 1...60))])
        var steps = [ScriptedStep(time: start, step: .subscribe, subscriber: name)]
        for _ in 0..<random.pick(weighted: [(6, 0), (3, 1), (1, 2)]) {
            let demand: ModelDemand = random.chance(15) ? .unlimited : .max(random.int(in: 1...3))
            steps.append(ScriptedStep(time: random.int(in: start...80), step: .request(demand), subscriber: name))
        }
        if random.chance(30) {
            steps.append(ScriptedStep(time: random.int(in: start...80), step: .cancel, subscriber: name))
        }
        return steps
    }

    /// How one of a shared publisher's other subscribers asks for values: something at once, then as
    /// the main subscriber does.
    private static func randomExtraSubscriber(using random: inout SeededRandom) -> SubscriberScript {
        SubscriberScript(
            initialDemand: random.pick(weighted: [(5, .unlimited), (5, .max(random.int(in: 1...3)))]),
            demandPerValue: (0..<random.int(in: 0...8)).map { _ in
                random.pick(weighted: [(6, .none), (3, .max(random.int(in: 1...2))), (1, .unlimited)])
            },
            requestPerValue: random.chance(20)
                ? (0..<random.int(in: 1...4)).map { _ in random.chance(50) ? .max(1) : .none } : [],
            cancelAtValue: random.chance(10) ? random.int(in: 1...4) : nil)
    }

    /// Up to eight values sent to `upstream` at random times, maybe followed by a completion.
    private static func randomSends(
        to upstream: Int, values: ClosedRange<Int>, using random: inout SeededRandom
    ) -> [ScriptedStep] {
        var steps: [ScriptedStep] = []
        var time = random.int(in: 1...6)
        for _ in 0..<random.int(in: 0...8) {
            steps.append(ScriptedStep(time: time, step: .send(random.int(in: values)), upstream: upstream))
            time += random.pick(weighted: [(2, 0), (5, random.int(in: 1...4)), (3, random.int(in: 5...14))])
        }
        let ending = random.pick(weighted: [(5, TimedStep?.some(.finish)), (2, .fail), (3, nil)])
        if let ending { steps.append(ScriptedStep(time: time, step: ending, upstream: upstream)) }
        return steps
    }

    /// The subscriber's requests and cancel, at random times.
    private static func randomSubscriberSteps(using random: inout SeededRandom) -> [ScriptedStep] {
        var steps: [ScriptedStep] = []
        for _ in 0..<random.pick(weighted: [(4, 0), (3, 1), (2, 2), (1, 3)]) {
            let demand: ModelDemand = random.chance(10) ? .unlimited : .max(random.int(in: 1...3))
            steps.append(ScriptedStep(time: random.int(in: 1...70), step: .request(demand)))
        }
        if random.chance(15) { steps.append(ScriptedStep(time: random.int(in: 1...70), step: .cancel)) }
        return steps
    }

    /// How the subscriber asks for values and when it cancels from inside `receive(_:)`.
    private static func randomSubscriber(using random: inout SeededRandom) -> SubscriberScript {
        SubscriberScript(
            initialDemand: random.pick(weighted: [
                (35, .unlimited), (45, .max(random.int(in: 1...3))), (20, .none),
            ]),
            demandPerValue: (0..<random.int(in: 0...8)).map { _ in
                random.pick(weighted: [(6, .none), (3, .max(random.int(in: 1...2))), (1, .unlimited)])
            },
            requestPerValue: random.chance(20)
                ? (0..<random.int(in: 1...4)).map { _ in random.chance(50) ? .max(1) : .none } : [],
            cancelAtValue: random.chance(10) ? random.int(in: 1...4) : nil)
    }

    /// Sorted by time; among equal times the order drawn stays.
    private static func sortedByTime(_ steps: [ScriptedStep]) -> [ScriptedStep] {
        steps.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    private static func randomTimedOperator(using random: inout SeededRandom) -> TimedOperator {
        switch random.int(in: 0...9) {
        case 0: .debounce(random.int(in: 1...8))
        case 1: .throttle(random.int(in: 0...8), latest: random.chance(50))
        case 2: .delay(random.int(in: 0...8))
        case 3: .timeout(random.int(in: 1...15), fails: random.chance(50))
        case 4: .collectByTime(random.int(in: 1...10))
        case 5: .collectByTimeOrCount(random.int(in: 1...10), count: random.int(in: 1...4))
        case 6: .measureInterval
        case 7: .receiveOn
        case 8: .subscribeOn
        default: .delay(random.int(in: 1...3))
        }
    }

    private static func randomSynchronousOperator(using random: inout SeededRandom) -> TimedOperator {
        switch random.int(in: 0...5) {
        case 0: .map(random.pick(ChainClosures.transforms))
        case 1: .filter(random.pick(ChainClosures.predicates))
        case 2: .compactMap(random.pick(ChainClosures.partialTransforms))
        case 3: .scan(random.pick(ChainClosures.accumulations))
        case 4: .removeDuplicates
        default: .prefix(random.int(in: 1...4))
        }
    }
}
