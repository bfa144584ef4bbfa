import Streams

// The sharing operators of the timed reference, each written from Combine's rules for it:
// - subscribe(subject): the subject gets the subscription to ask values of, and whatever the
//   upstream sends, completion included; the subscriber asks for nothing itself. Cancelling it
//   cancels the subscription and forwards nothing more.
// - multicast(subject:): subscribers attach to the subject (one subject for the life of the
//   publisher); each gets a subscription that carries its requests, and the demand it returns from a
//   value is requested through that subscription. `connect()` subscribes the subject to the upstream,
//   a new subscription each time; cancelling the connection completes nobody.
// - autoconnect(): attaches a subscriber, then connects if it is the first; counts the subscriptions
//   not cancelled (a completed one still counts), and cancels the connection when the last one is
//   cancelled; the next subscriber connects again.
// - share(): multicast(subject: PassthroughSubject()).autoconnect().

/// What subscribing a subject to a publisher subscribes (`subscribe(_:)` with a subject, as
/// `connect()` does): it hands the subject its subscription, as the subject's subscription to ask
/// values of, and forwards values and the completion to the subject.
final class ReferenceSubjectSubscriber: ReferenceSubscriber, ReferenceSubscription {
    private var subject: ReferenceSubject?
    private var status = ReferenceStatus.awaiting

    init(subject: ReferenceSubject) {
        self.subject = subject
    }

    func receive(subscription: any ReferenceSubscription) {
        guard case .awaiting = status, let subject else { return subscription.cancel() }
        status = .subscribed(subscription)
        subject.send(subscription: self)
    }

    func receive(_ value: Int) -> ModelDemand {
        if status.isSubscribed { subject?.send(value) }
        return .none
    }

    func receive(completion: Subscribers.Completion<ChainFailure>) {
        guard status.isSubscribed else { return }
        status = .terminal
        let target = subject
        subject = nil
        target?.send(completion: completion)
    }

    func request(_ demand: ModelDemand) {
        status.subscription?.request(demand)
    }

    func cancel() {
        let subscription = status.subscription
        status = .terminal
        subject = nil
        subscription?.cancel()
    }
}

/// `multicast(subject: PassthroughSubject())`: a connectable publisher whose subscribers attach to
/// one subject, which ``connect()`` subscribes to the upstream.
final class ReferenceMulticast {
    private let upstream: ReferencePublisher
    private let subject = ReferenceSubject()

    init(upstream: @escaping ReferencePublisher) {
        self.upstream = upstream
    }

    /// Attaches `subscriber` to the subject.
    func subscribe(_ subscriber: any ReferenceSubscriber) {
        subject.subscribe(ReferenceMulticastReceiver(downstream: subscriber))
    }

    /// Subscribes the subject to the upstream; the returned subscription ends that connection.
    func connect() -> any ReferenceSubscription {
        let connection = ReferenceSubjectSubscriber(subject: subject)
        upstream(connection)
        return connection
    }
}

/// What a multicast publisher attaches to its subject for a subscriber: it hands values on, and
/// requests the demand the subscriber answers a value with through the subject's subscription,
/// answering the subject with none.
final class ReferenceMulticastReceiver: ReferenceRelay {
    override func receive(_ value: Int) -> ModelDemand {
        guard let downstream else { return .none }
        let more = downstream.receive(value)
        if more.isPositive { request(more) }
        return .none
    }
}

/// `autoconnect()` of a multicast publisher: connects it when the first subscriber has attached, and
/// cancels the connection when every subscription has been cancelled.
final class ReferenceAutoconnect {
    /// Where the connection stands, with how many subscriptions have not been cancelled.
    private enum State {
        case disconnected
        /// The first subscriber is attached, and the upstream is being connected.
        case connecting(subscribers: Int)
        case connected(subscribers: Int, connection: any ReferenceSubscription)
    }

    private let upstream: ReferenceMulticast
    private var state = State.disconnected

    init(upstream: ReferenceMulticast) {
        self.upstream = upstream
    }

    /// Attaches `subscriber` to the multicast publisher, then connects it if no connection stands.
    func subscribe(_ subscriber: any ReferenceSubscriber) {
        var mustConnect = false
        switch state {
        case .disconnected:
            state = .connecting(subscribers: 1)
            mustConnect = true
        case .connecting(let subscribers):
            state = .connecting(subscribers: subscribers + 1)
        case .connected(let subscribers, let connection):
            state = .connected(subscribers: subscribers + 1, connection: connection)
        }
        upstream.subscribe(ReferenceAutoconnectSide(parent: self, downstream: subscriber))
        guard mustConnect else { return }
        let connection = upstream.connect()
        guard case .connecting(let subscribers) = state, subscribers > 0 else {
            state = .disconnected
            return connection.cancel()
        }
        state = .connected(subscribers: subscribers, connection: connection)
    }

    /// A subscription was cancelled: the last one cancels the connection.
    fileprivate func subscriptionCancelled() {
        switch state {
        case .disconnected:
            return
        case .connecting(let subscribers):
            state = .connecting(subscribers: subscribers - 1)
        case .connected(let subscribers, let connection):
            guard subscribers <= 1 else {
                state = .connected(subscribers: subscribers - 1, connection: connection)
                return
            }
            state = .disconnected
            connection.cancel()
        }
    }
}

/// A subscriber's side of an autoconnect: the multicast subscription, whose first cancel also tells
/// the autoconnect.
final class ReferenceAutoconnectSide: ReferenceRelay {
    private var parent: ReferenceAutoconnect?

    init(parent: ReferenceAutoconnect, downstream: any ReferenceSubscriber) {
        self.parent = parent
        super.init(downstream: downstream)
    }

    override func cancel() {
        let counted = parent
        parent = nil
        counted?.subscriptionCancelled()
        super.cancel()
    }
}
