/// One subscription through a marked point: the subscriber it gives its upstream publisher and the
/// subscription it gives its downstream subscriber, recording every event on its lane.
///
/// It passes every event on as it comes, as `handleEvents` does; its lock guards only the upstream
/// subscription, the thread it is delivering on and whether the lane has ended.
final class TimelinePointSubscription<Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let downstream: Downstream
    private let recorder: TimelineRecorder
    private let name: String
    private let lock = Lock()
    private var status = SubscriptionStatus.awaitingSubscription
    private var lane: TimelineLane?
    /// The threads handing the subscriber an event, innermost last: a cancel from one of them comes
    /// from downstream.
    private var delivering: [ThreadIdentity] = []

    init(name: String, recorder: TimelineRecorder, downstream: Downstream) {
        self.name = name
        self.recorder = recorder
        self.downstream = downstream
    }

    deinit {
        if lane != nil { TimelineRecording.liveSubscriptions.subtract(1, ordering: .relaxed) }
    }

    /// Runs `deliver` noting that the calling thread is handing the subscriber an event.
    private func delivering<Result>(_ deliver: () -> Result) -> Result {
        let thread = ThreadIdentity.current
        lock.withLock { delivering.append(thread) }
        defer {
            lock.withLock {
                if let index = delivering.lastIndex(of: thread) { delivering.remove(at: index) }
            }
        }
        return deliver()
    }

    func receive(subscription: any Subscription) {
        let accepted = lock.withLock { status.accept(subscription) }
        guard accepted else {
            subscription.cancel()
            return
        }
        let lane = recorder.startLane(named: name)
        TimelineRecording.liveSubscriptions.add(1, ordering: .relaxed)
        lock.withLock { self.lane = lane }
        recorder.record(.subscribed, on: lane)
        delivering { downstream.receive(subscription: self) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard let lane = lock.withLock({ self.lane }) else { return .none }
        recorder.record(.value(recorder.describe(input)), on: lane)
        let more = delivering { downstream.receive(input) }
        if more > 0 { recorder.record(.requested(more), on: lane) }
        return more
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let lane = lock.withLock { () -> TimelineLane? in
            guard status.complete() else { return nil }
            return self.lane
        }
        if let lane {
            switch completion {
            case .finished: recorder.record(.finished, on: lane)
            case .failure(let error): recorder.record(.failed(recorder.describe(error)), on: lane)
            }
        }
        delivering { downstream.receive(completion: completion) }
    }

    func request(_ demand: Subscribers.Demand) {
        let (subscription, lane) = lock.withLock { () -> ((any Subscription)?, TimelineLane?) in
            (status.subscription, self.lane)
        }
        if let lane, subscription != nil { recorder.record(.requested(demand), on: lane) }
        subscription?.request(demand)
    }

    func cancel() {
        let thread = ThreadIdentity.current
        let (subscription, lane, fromDownstream) = lock.withLock {
            () -> ((any Subscription)?, TimelineLane?, Bool) in
            (status.terminate(), self.lane, delivering.contains(thread))
        }
        guard let subscription else { return }
        guard let lane else {
            subscription.cancel()
            return
        }
        // A cancel passed up the chain keeps the reason it had where it began.
        let reason = TimelineRecording.reasonOnCurrentThread ?? (fromDownstream ? .endedDownstream : .cancelCalled)
        recorder.record(.cancelled(reason), on: lane)
        TimelineRecording.cancelling(for: reason) { subscription.cancel() }
    }

    var description: String { "RecordTimeline" }

    var customMirror: Mirror {
        Mirror(self, children: ["name": name, "downstream": downstream])
    }

    var playgroundDescription: Any { description }
}
