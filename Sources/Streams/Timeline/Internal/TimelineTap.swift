/// One subscription on a timeline's lane: what the calling thread's frames point to.
///
/// The lane is given when the tap is made, while its subscriber subscribes, so a subscription made
/// upstream meanwhile knows the lane downstream of it.
@usableFromInline
class TimelineTap {
    /// Where the events go.
    let recorder: TimelineRecorder
    /// The lane the events go on.
    let lane: TimelineLane
    /// The recorder every subscription made beneath this one goes to, if every subscription is
    /// being recorded.
    let everySubscriptionRecorder: TimelineRecorder?

    /// Where the frame of the tap's subscribing upstream is kept while it subscribes (see
    /// ``TimelineRecording/beginSubscribing(_:)``): a tap subscribes once, and its frame stays put
    /// meanwhile.
    let subscribingFrame = UnsafeMutablePointer<TimelineFrame>.allocate(capacity: 1)

    init(recorder: TimelineRecorder, lane: TimelineLane, everySubscription: TimelineRecorder?) {
        self.recorder = recorder
        self.lane = lane
        self.everySubscriptionRecorder = everySubscription
        TimelineRecording.gate.add(1, ordering: .relaxed)
    }

    deinit {
        subscribingFrame.deallocate()
        TimelineRecording.gate.subtract(1, ordering: .relaxed)
    }
}

/// A tap between a publisher and its subscriber: the subscriber it gives the publisher and the
/// subscription it gives the subscriber, recording every event on its lane.
///
/// It passes every event on as it comes, as `handleEvents` does; its lock guards only the upstream
/// subscription's status.
@usableFromInline
final class TimelineTapSubscription<Downstream: Subscriber>: TimelineTap, Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    private let downstream: Downstream
    private let lock = Lock()
    private var status = SubscriptionStatus.awaitingSubscription

    init(recorder: TimelineRecorder, lane: TimelineLane, everySubscription: TimelineRecorder?, downstream: Downstream) {
        self.downstream = downstream
        super.init(recorder: recorder, lane: lane, everySubscription: everySubscription)
    }

    /// Creates a tap that records every subscription made beneath it too, as `plan` says.
    @usableFromInline
    init(plan: TimelineTapPlan, downstream: Downstream) {
        self.downstream = downstream
        super.init(recorder: plan.recorder, lane: plan.lane, everySubscription: plan.recorder)
    }

    /// Subscribes the tap to `publisher`, noting meanwhile that it is subscribing: a subscription
    /// made upstream in the meantime belongs downstream of this one.
    func subscribe<Upstream: Publisher>(to publisher: Upstream)
    where Upstream.Output == Input, Upstream.Failure == Failure {
        TimelineRecording.beginSubscribing(self)
        publisher.subscribe(self)
        TimelineRecording.endSubscribing(self)
    }

    @usableFromInline
    func receive(subscription: any Subscription) {
        let accepted = lock.withLock { status.accept(subscription) }
        guard accepted else {
            subscription.cancel()
            return
        }
        recorder.record(.subscribed, on: lane)
        TimelineFrame.with(self, .delivering(value: nil)) { downstream.receive(subscription: self) }
    }

    @usableFromInline
    func receive(_ input: Input) -> Subscribers.Demand {
        let event = recorder.record(.value(recorder.describe(input)), on: lane)
        let more = TimelineFrame.with(self, .delivering(value: event)) { downstream.receive(input) }
        if more > 0 { recorder.record(.requested(more), on: lane) }
        return more
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<Failure>) {
        let ends = lock.withLock { status.complete() }
        if ends {
            switch completion {
            case .finished: recorder.record(.finished, on: lane)
            case .failure(let error): recorder.record(.failed(recorder.describe(error)), on: lane)
            }
        }
        TimelineFrame.with(self, .delivering(value: nil)) { downstream.receive(completion: completion) }
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        guard let subscription = lock.withLock({ status.subscription }) else { return }
        recorder.record(.requested(demand), on: lane)
        subscription.request(demand)
    }

    @usableFromInline
    func cancel() {
        guard let subscription = lock.withLock({ status.terminate() }) else { return }
        // A cancel passed up the chain keeps the reason it had where it began.
        let reason = TimelineFrame.cancelReason(for: self) ?? .cancelCalled
        recorder.record(.cancelled(reason), on: lane)
        TimelineRecording.cancelling(for: reason) { subscription.cancel() }
    }

    @usableFromInline
    var description: String { "RecordTimeline" }

    @usableFromInline
    var customMirror: Mirror {
        Mirror(self, children: ["lane": lane, "downstream": downstream])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
