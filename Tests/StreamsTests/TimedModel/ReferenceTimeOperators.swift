import Streams

// The time operators of the timed reference, each written from Combine's rules for it:
// - debounce: asks upstream for everything; publishes a value once `interval` has passed with no
//   newer one, if there is demand then (otherwise it is dropped); the completion goes out on the
//   scheduler at once, dropping a value still waiting.
// - throttle: asks upstream for everything; publishes at most one value per interval, the first or
//   the latest of those that came with demand, at the start of the interval; a completion waits for
//   the value it follows.
// - delay, receive(on:): every event goes out its interval later (zero for receive(on:)), in order;
//   demand passes through; once the upstream has completed, cancelling no longer stops what waits.
// - timeout: restarts its timer at the subscription, at the first request and at each value; when
//   it runs out, cancels upstream, drops what waits and finishes (or fails); events go out on the
//   scheduler.
// - collect(.byTime), collect(.byTimeOrCount): every interval, what was collected goes out if there
//   is demand; a full array goes out at once (and starts a new interval); the completion flushes.
// - measureInterval: each value becomes the time since the previous one (or the subscription).
// - subscribe(on:): subscribing, requests and cancelling reach upstream on the scheduler.

/// Where a subscription of the reference stands.
enum ReferenceStatus {
    case awaiting
    case subscribed(any ReferenceSubscription)
    case terminal

    var subscription: (any ReferenceSubscription)? {
        if case .subscribed(let subscription) = self { return subscription }
        return nil
    }

    var isSubscribed: Bool { subscription != nil }
}

/// An operator that delivers values and its completion one at a time, adding the demand a value is
/// answered with to its own (`debounce`, `throttle`).
protocol ReferencePaced: AnyObject {
    var downstream: (any ReferenceSubscriber)? { get }
    var demand: ModelDemand { get set }
}

extension ReferencePaced {
    /// Hands `output` to the downstream, unless it cancelled.
    func deliver(_ output: TimedOutput) {
        guard let downstream else { return }
        switch output {
        case .value(let value):
            let more = downstream.receive(value)
            if more.isPositive { demand += more }
        case .completion(let completion):
            downstream.receive(completion: completion)
        }
    }
}

/// `debounce(for:scheduler:)`.
final class ReferenceDebounce: ReferenceSubscriber, ReferenceSubscription, ReferencePaced {
    private let timeline: ReferenceTimeline
    private let interval: Int
    private(set) var downstream: (any ReferenceSubscriber)?
    private var status = ReferenceStatus.awaiting
    var demand = ModelDemand.none
    private var waiting: Int?
    private var generation = 0
    private var armed: Int?
    private var timer: ReferenceRepetition?
    private let delivery = ReferenceDeliveryQueue<TimedOutput>()

    init(downstream: any ReferenceSubscriber, interval: Int, timeline: ReferenceTimeline) {
        self.downstream = downstream
        self.interval = interval
        self.timeline = timeline
    }

    func receive(subscription: any ReferenceSubscription) {
        status = .subscribed(subscription)
        downstream?.receive(subscription: self)
        subscription.request(.unlimited)
    }

    func receive(_ value: Int) -> ModelDemand {
        guard status.isSubscribed else { return .none }
        generation += 1
        let current = generation
        waiting = value
        armed = current
        let replaced = timer
        timer = timeline.scheduleRepeating(after: interval, every: interval) { [self] in due(current) }
        replaced?.cancel()
        return .none
    }

    func receive(completion: Subscribers.Completion<ChainFailure>) {
        guard status.isSubscribed else { return }
        status = .terminal
        armed = nil
        timer?.cancel()
        timer = nil
        timeline.schedule { [self] in
            guard downstream != nil else { return }
            delivery.enqueue(.completion(completion), deliver)
        }
    }

    private func due(_ generation: Int) {
        guard status.isSubscribed, armed == generation, let value = waiting else { return }
        armed = nil
        timer?.cancel()
        timer = nil
        guard demand.isPositive else { return }
        demand.consumeOne()
        delivery.enqueue(.value(value), deliver)
    }

    func request(_ more: ModelDemand) {
        if status.isSubscribed { demand += more }
    }

    func cancel() {
        let subscription = status.subscription
        status = .terminal
        downstream = nil
        armed = nil
        delivery.discard()
        timer?.cancel()
        timer = nil
        subscription?.cancel()
    }
}

/// `throttle(for:scheduler:latest:)`.
final class ReferenceThrottle: ReferenceSubscriber, ReferenceSubscription, ReferencePaced {
    private let timeline: ReferenceTimeline
    private let interval: Int
    private let latest: Bool
    private(set) var downstream: (any ReferenceSubscriber)?
    private var status = ReferenceStatus.awaiting
    var demand = ModelDemand.none
    private var waiting: Int?
    private var completion: Subscribers.Completion<ChainFailure>?
    private var lastEmission: Int?
    private let delivery = ReferenceDeliveryQueue<TimedOutput>()

    init(downstream: any ReferenceSubscriber, interval: Int, latest: Bool, timeline: ReferenceTimeline) {
        self.downstream = downstream
        self.interval = interval
        self.latest = latest
        self.timeline = timeline
    }

    func receive(subscription: any ReferenceSubscription) {
        status = .subscribed(subscription)
        subscription.request(.unlimited)
        downstream?.receive(subscription: self)
    }

    func receive(_ value: Int) -> ModelDemand {
        guard status.isSubscribed, completion == nil, demand.isPositive else { return .none }
        if waiting != nil {
            if latest { waiting = value }
            return .none
        }
        demand.consumeOne()
        waiting = value
        let emission = lastEmission.map { max(timeline.now, $0 + interval) } ?? timeline.now
        timeline.schedule(after: emission - timeline.now) { [weak self] in self?.emit() }
        return .none
    }

    func receive(completion: Subscribers.Completion<ChainFailure>) {
        guard status.isSubscribed, self.completion == nil else { return }
        self.completion = completion
        if waiting == nil { timeline.schedule { [weak self] in self?.emit() } }
    }

    private func emit() {
        guard status.isSubscribed else { return }
        let value = waiting
        let completion = self.completion
        waiting = nil
        self.completion = nil
        if value != nil, completion == nil { lastEmission = timeline.now }
        if completion != nil { status = .terminal }
        let outputs = [value.map(TimedOutput.value), completion.map(TimedOutput.completion)].compactMap { $0 }
        delivery.enqueue(contentsOf: outputs, deliver)
    }

    func request(_ more: ModelDemand) {
        if status.isSubscribed, completion == nil { demand += more }
    }

    func cancel() {
        let subscription = status.subscription
        status = .terminal
        downstream = nil
        waiting = nil
        completion = nil
        delivery.discard()
        subscription?.cancel()
    }
}

/// A value or the completion.
enum TimedOutput {
    case value(Int)
    case completion(Subscribers.Completion<ChainFailure>)
}

/// `delay(for:scheduler:)` (with its interval) and `receive(on:)` (with none), and, with a deadline,
/// `timeout(_:scheduler:customError:)`: each event is held and goes out on the scheduler, in order.
final class ReferenceScheduledEvents: ReferenceSubscriber, ReferenceSubscription {
    /// What a `timeout` adds.
    struct Deadline {
        var interval: Int
        var fails: Bool
        var requested = false
        var generation = 0
        var timer: ReferenceRepetition?
    }

    private let timeline: ReferenceTimeline
    private let interval: Int
    private var deadline: Deadline?
    private let downstream: any ReferenceSubscriber
    private var status = ReferenceStatus.awaiting
    private var upstreamCompleted = false
    private var pending: [TimedOutput] = []
    private var released = 0
    private var delivering = true
    private var ownCompletion: Subscribers.Completion<ChainFailure>?

    /// `interval` is how long each event is held; a `deadline` makes it a `timeout`.
    init(downstream: any ReferenceSubscriber, interval: Int, deadline: Deadline?, timeline: ReferenceTimeline) {
        self.downstream = downstream
        self.interval = interval
        self.deadline = deadline
        self.timeline = timeline
    }

    func receive(subscription: any ReferenceSubscription) {
        status = .subscribed(subscription)
        if deadline != nil {
            deadline?.generation += 1
            startTimer()
        }
        downstream.receive(subscription: self)
        if ownCompletion != nil || (status.isSubscribed && released > 0) {
            timeline.schedule { [self] in deliverReleased() }
        } else {
            delivering = false
        }
    }

    func receive(_ value: Int) -> ModelDemand {
        hold(.value(value))
        return .none
    }

    func receive(completion: Subscribers.Completion<ChainFailure>) {
        hold(.completion(completion))
    }

    private func hold(_ event: TimedOutput) {
        guard status.isSubscribed, !upstreamCompleted else { return }
        if case .completion = event { upstreamCompleted = true }
        pending.append(event)
        if deadline != nil {
            deadline?.generation += 1
            deadline?.timer?.cancel()
            deadline?.timer = nil
            if !upstreamCompleted { startTimer() }
        }
        timeline.schedule(after: interval) { [self] in release() }
    }

    private func release() {
        guard status.isSubscribed else { return }
        released += 1
        guard !delivering else { return }
        delivering = true
        deliverReleased()
    }

    private func deliverReleased() {
        while true {
            if let completion = ownCompletion {
                ownCompletion = nil
                downstream.receive(completion: completion)
                continue
            }
            guard let subscription = status.subscription, released > 0, !pending.isEmpty else {
                delivering = false
                released = 0
                return
            }
            released -= 1
            switch pending.removeFirst() {
            case .value(let value):
                let more = downstream.receive(value)
                if more.isPositive, status.isSubscribed { subscription.request(more) }
            case .completion(let completion):
                status = .terminal
                downstream.receive(completion: completion)
            }
        }
    }

    func request(_ more: ModelDemand) {
        guard let subscription = status.subscription else { return }
        if var deadline {
            if !deadline.requested, !upstreamCompleted {
                deadline.requested = true
                deadline.generation += 1
                deadline.timer?.cancel()
                deadline.timer = nil
                self.deadline = deadline
                startTimer()
            }
            subscription.request(more)
        } else if !upstreamCompleted {
            subscription.request(more)
        }
    }

    func cancel() {
        if deadline != nil {
            ownCompletion = nil
            guard let subscription = status.subscription else { return }
            deadline?.generation += 1
            deadline?.timer?.cancel()
            deadline?.timer = nil
            end()
            subscription.cancel()
        } else {
            guard !upstreamCompleted, let subscription = status.subscription else { return }
            end()
            subscription.cancel()
        }
    }

    private func end() {
        status = .terminal
        released = 0
        pending = []
    }

    private func startTimer() {
        guard let deadline else { return }
        let generation = deadline.generation
        let timer = timeline.scheduleRepeating(after: deadline.interval, every: deadline.interval) { [self] in
            timerFired(generation)
        }
        if generation == deadline.generation, status.isSubscribed {
            self.deadline?.timer = timer
        } else {
            timer.cancel()
        }
    }

    private func timerFired(_ generation: Int) {
        guard let deadline, deadline.generation == generation, !upstreamCompleted,
            let subscription = status.subscription
        else { return }
        self.deadline?.generation += 1
        self.deadline?.timer?.cancel()
        self.deadline?.timer = nil
        end()
        subscription.cancel()
        ownCompletion = deadline.fails ? .failure(.timedOut) : .finished
        guard !delivering else { return }
        delivering = true
        deliverReleased()
    }
}

/// `collect(.byTime(_:_:))` (no count) and `collect(.byTimeOrCount(_:_:_:))`.
final class ReferenceCollectByTime: ReferenceSubscriber, ReferenceSubscription {
    private enum Output {
        case timed([Int])
        case full([Int])
        case completion(Subscribers.Completion<ChainFailure>)
    }

    private let timeline: ReferenceTimeline
    private let interval: Int
    private let count: Int?
    private var downstream: (any ReferenceSubscriber)?
    private var status = ReferenceStatus.awaiting
    private var demand = ModelDemand.none
    private var buffer: [Int] = []
    private var timer: ReferenceRepetition?
    private var timerGeneration = 0
    private var fullScheduled = false
    private var completion: Subscribers.Completion<ChainFailure>?
    private var flushing = false
    private let delivery = ReferenceDeliveryQueue<Output>()

    init(downstream: any ReferenceSubscriber, interval: Int, count: Int?, timeline: ReferenceTimeline) {
        self.downstream = downstream
        self.interval = interval
        self.count = count
        self.timeline = timeline
    }

    func receive(subscription: any ReferenceSubscription) {
        status = .subscribed(subscription)
        restartTimer()
        downstream?.receive(subscription: self)
    }

    func receive(_ value: Int) -> ModelDemand {
        guard status.isSubscribed else { return .none }
        buffer.append(value)
        if claimFull() {
            restartTimer()
            scheduleFull()
        }
        return count == nil ? .max(1) : .none
    }

    func receive(completion: Subscribers.Completion<ChainFailure>) {
        guard status.isSubscribed else { return }
        status = .terminal
        self.completion = completion
        if case .failure = completion { buffer = [] }
        timer?.cancel()
        timer = nil
        timeline.schedule { [self] in
            guard downstream != nil else { return }
            flushing = true
            flush()
        }
    }

    private func claimFull() -> Bool {
        guard status.isSubscribed, let count, buffer.count >= count, demand.isPositive, !fullScheduled else {
            return false
        }
        fullScheduled = true
        return true
    }

    private func scheduleFull() {
        timeline.schedule { [self] in
            fullScheduled = false
            if status.isSubscribed, let count, buffer.count >= count, demand.isPositive {
                demand.consumeOne()
                let array = Array(buffer.prefix(count))
                buffer.removeFirst(count)
                delivery.enqueue(.full(array), deliver)
            }
            if claimFull() { scheduleFull() }
        }
    }

    private func restartTimer() {
        timerGeneration += 1
        let generation = timerGeneration
        timer?.cancel()
        timer = nil
        let started = timeline.scheduleRepeating(after: interval, every: interval) { [self] in tick() }
        if status.isSubscribed, generation == timerGeneration { timer = started } else { started.cancel() }
    }

    private func tick() {
        guard status.isSubscribed, demand.isPositive, !buffer.isEmpty else { return }
        demand.consumeOne()
        delivery.enqueue(.timed(takeArray()), deliver)
    }

    private func takeArray() -> [Int] {
        guard let count, buffer.count > count else {
            defer { buffer = [] }
            return buffer
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer.prefix(count))
    }

    private func flush() {
        var outputs: [Output] = []
        while !buffer.isEmpty, demand.isPositive {
            demand.consumeOne()
            outputs.append(.timed(takeArray()))
        }
        if buffer.isEmpty, let completion {
            self.completion = nil
            outputs.append(.completion(completion))
        }
        delivery.enqueue(contentsOf: outputs, deliver)
    }

    private func deliver(_ output: Output) {
        guard let downstream else { return }
        switch output {
        case .timed(let array):
            let more = downstream.receive(ChainClosures.encode(array))
            if more.isPositive { add(more, upstream: nil, delivering: true) }
        case .full(let array):
            let more = downstream.receive(ChainClosures.encode(array))
            if more.isPositive { add(more, upstream: more * (count ?? 1), delivering: true) }
        case .completion(let completion):
            downstream.receive(completion: completion)
        }
    }

    private func add(_ more: ModelDemand, upstream: ModelDemand?, delivering: Bool) {
        guard downstream != nil else { return }
        demand += more
        if flushing {
            if delivering {
                flush()
            } else {
                timeline.schedule { [self] in
                    guard downstream != nil else { return }
                    flushing = true
                    flush()
                }
            }
            return
        }
        let subscription = status.subscription
        let full = claimFull()
        if let upstream { subscription?.request(upstream) }
        if full { scheduleFull() }
    }

    func request(_ more: ModelDemand) {
        guard more.isPositive else { return }
        add(more, upstream: count.map { more * $0 } ?? .max(1), delivering: false)
    }

    func cancel() {
        let subscription = status.subscription
        status = .terminal
        downstream = nil
        buffer = []
        completion = nil
        delivery.discard()
        timer?.cancel()
        timer = nil
        subscription?.cancel()
    }
}

/// `measureInterval(using:)`, in whole seconds.
final class ReferenceMeasureInterval: ReferenceRelay {
    private let timeline: ReferenceTimeline
    private var last: Int?

    init(downstream: any ReferenceSubscriber, timeline: ReferenceTimeline) {
        self.timeline = timeline
        super.init(downstream: downstream)
    }

    override func receive(subscription: any ReferenceSubscription) {
        last = timeline.now
        super.receive(subscription: subscription)
    }

    override func receive(_ value: Int) -> ModelDemand {
        guard let subscriber = downstream, let previous = last else { return .none }
        last = timeline.now
        let more = subscriber.receive(timeline.now - previous)
        if more.isPositive { upstream?.request(more) }
        return .none
    }
}

/// The subscriber side of `subscribe(on:)`: requests and cancelling reach upstream on the scheduler.
final class ReferenceSubscribeOn: ReferenceSubscriber, ReferenceSubscription {
    private let timeline: ReferenceTimeline
    private let downstream: any ReferenceSubscriber
    private var status = ReferenceStatus.awaiting

    init(downstream: any ReferenceSubscriber, timeline: ReferenceTimeline) {
        self.downstream = downstream
        self.timeline = timeline
    }

    func receive(subscription: any ReferenceSubscription) {
        status = .subscribed(subscription)
        downstream.receive(subscription: self)
    }

    func receive(_ value: Int) -> ModelDemand {
        status.isSubscribed ? downstream.receive(value) : .none
    }

    func receive(completion: Subscribers.Completion<ChainFailure>) {
        guard status.isSubscribed else { return }
        status = .terminal
        downstream.receive(completion: completion)
    }

    func request(_ more: ModelDemand) {
        guard let subscription = status.subscription else { return }
        timeline.schedule { subscription.request(more) }
    }

    func cancel() {
        guard let subscription = status.subscription else { return }
        status = .terminal
        timeline.schedule { subscription.cancel() }
    }
}
