import Streams
import Testing

extension ConcurrentScheduleTests {
    /// `share()` and `multicast` (with a closure, whose capture is watched, or with a subject) then
    /// `connect()`, with the upstream sending from a thread of its own, several subscribers, one
    /// perhaps attaching from the driver thread while values flow, the driver requesting and
    /// cancelling for them, and, for `multicast`, `connect()` from a thread of its own or before.
    ///
    /// Checked for every subscriber: the delivery rules; no value twice or made up; the upstream's
    /// values in order: all of them for a subscriber with unlimited demand attached before the
    /// upstream sends (the first ones if it cancels; the last ones if a subject upstream sent some
    /// before the connection), the last ones for one that attaches late, some for one with bounded
    /// demand; the upstream's completion, for every subscriber that did not cancel, even one that
    /// attached after it; everything freed once the connection is cancelled.
    @Suite struct MulticastScheduleTests {
        static let cases = 400

        /// Plays random share and multicast schedules.
        @Test func randomSchedules() {
            playScheduleCases("MulticastScheduleTests", stream: 9, cases: Self.cases) { random in
                MulticastCase.random(using: &random).play()
            }
        }
    }
}

/// One share or multicast schedule: how it is built, the upstream's script and kind, how it
/// connects, and its subscribers' plans.
struct MulticastCase: CustomStringConvertible {
    /// How the shared publisher is made.
    enum Style: String {
        case share = "share()"
        case multicastClosure = "multicast { subject }"
        case multicastSubject = "multicast(subject:)"
    }

    var style: Style
    var upstream: UpstreamScript
    var upstreamKind: UpstreamKind
    /// For `multicast`: whether it connects before the threads start, rather than from one of them.
    var connectsFirst: Bool
    var connectSpin: Int
    var subscribers: [SubscriberPlan]
    /// Draws the order in which the driver's steps for the subscribers interleave.
    var interleaving: UInt64

    var description: String {
        let connection =
            style == .share
            ? "connects with the first subscriber"
            : connectsFirst ? "connects first" : "connects from a thread after \(connectSpin) steps"
        let lines = subscribers.enumerated().map { "  subscriber \($0.offset): \($0.element)" }
        return ([style.rawValue + ", " + connection, "  upstream (\(upstreamKind.rawValue)): \(upstream)"] + lines)
            .joined(separator: "\n")
    }

    /// Two or three subscribers attached first, and perhaps one attaching late. The first one never
    /// cancels and asks for something sooner or later: a passthrough subject asks its upstream for
    /// values only once a subscriber has, and `share()` would disconnect once every subscriber has
    /// cancelled, and subscribe to the upstream again, which a waiting source refuses.
    static func random(using random: inout SeededRandom) -> MulticastCase {
        let style = random.pick([Style.share, .multicastClosure, .multicastSubject])
        let upstream = UpstreamScript.random(
            index: 0, maxCount: 50, endings: [(60, .finish), (15, .fail), (25, .open)], using: &random)
        var subscribers = [SubscriberPlan.random(need: .values(1), mayCancel: false, late: false, using: &random)]
        for _ in 0..<random.int(in: 1...2) {
            subscribers.append(SubscriberPlan.random(need: .nothing, mayCancel: true, late: false, using: &random))
        }
        if random.chance(40) {
            subscribers.append(SubscriberPlan.random(need: .nothing, mayCancel: false, late: true, using: &random))
        }
        return MulticastCase(
            style: style, upstream: upstream, upstreamKind: random.chance(30) ? .subject : .waiting,
            connectsFirst: random.chance(30), connectSpin: random.int(in: 0...20_000), subscribers: subscribers,
            interleaving: random.next())
    }

    /// Plays the schedule and checks it.
    func play() -> ScheduleOutcome {
        var problems = ScheduleProblems()
        let probe = StressLeakProbe()
        do {
            let source = ScheduleUpstream(upstream, kind: upstreamKind, name: "upstream")
            source.watch(probe)
            let subscribers = self.subscribers.enumerated().map {
                ScheduleSubscriber(name: "subscriber \($0.offset)", plan: $0.element)
            }
            let token = LifetimeToken()
            probe.watch("multicast's closure", object: token)
            let upstreamPublisher = source.publisher(watchedBy: probe)
            let shared: AnyPublisher<StressValue, StressError>
            let connect: (() -> any Cancellable)?
            switch style {
            case .share:
                let share = upstreamPublisher.share()
                probe.watch("share", object: share)
                shared = share.eraseToAnyPublisher()
                connect = nil
            case .multicastClosure:
                let multicast = upstreamPublisher.multicast { [token] in
                    withExtendedLifetime(token) {
                        let subject = PassthroughSubject<StressValue, StressError>()
                        probe.watch("multicast's subject", object: subject)
                        return subject
                    }
                }
                probe.watch("multicast", object: multicast)
                shared = multicast.eraseToAnyPublisher()
                connect = multicast.connect
            case .multicastSubject:
                let subject = PassthroughSubject<StressValue, StressError>()
                probe.watch("multicast's subject", object: subject)
                let multicast = upstreamPublisher.multicast(subject: subject)
                probe.watch("multicast", object: multicast)
                shared = multicast.eraseToAnyPublisher()
                connect = multicast.connect
            }
            for subscriber in subscribers where !subscriber.plan.late { subscriber.subscribe(to: shared, probe: probe) }
            let connection = LockedState<(any Cancellable)?>(nil)
            if let connect, connectsFirst { connection.withLock { $0 = connect() } }

            // The driver subscribes late subscribers, and requests and cancels for every one.
            let publisher = LockedState(shared)
            var lists = subscribers.map(\.steps)
            for subscriber in subscribers where subscriber.plan.late {
                let subscribe: DriverStep = { publisher.withLock { subscriber.subscribe(to: $0, probe: probe) } }
                lists.append([subscribe])
            }
            var random = SeededRandom(seed: interleaving)
            var roles: [@Sendable () -> Bool] = [{ source.play() }, driverRole(interleave(lists, using: &random))]
            if let connect, !connectsFirst {
                let connector = LockedState(connect)
                let spin = connectSpin
                roles.append {
                    if spin > 0 { _ = stressSpin(spin) }
                    let made = connector.withLock { $0() }
                    connection.withLock { $0 = made }
                    return true
                }
            }
            problems.add(playRoles(roles))

            for subscriber in subscribers {
                problems.noteReceived(subscriber.sink.report, subscriber: subscriber.name)
                check(subscriber, source, &problems)
            }
            for subscriber in subscribers { subscriber.end() }
            connection.withLock { $0?.cancel() }
            source.end()
        }
        problems.checkFreed(probe)
        return ScheduleOutcome(script: description, problems: problems.report)
    }

    /// Checks what `subscriber` received against the script.
    func check(_ subscriber: ScheduleSubscriber, _ source: ScheduleUpstream, _ problems: inout ScheduleProblems) {
        let report = subscriber.sink.report
        let plan = subscriber.plan
        let cancelled = subscriber.cancelled
        problems.checkDelivery(report, plan.cancel, subscriber.watch, subscriber: subscriber.name)
        // A subject upstream drops what it is sent before the connection.
        let fromTheStart = upstreamKind == .waiting || style == .share || connectsFirst
        let relation: Delivered =
            if !plan.demand.unlimitedFromStart {
                .subsequence
            } else if plan.late {
                cancelled ? .contiguous : .suffix
            } else if fromTheStart {
                cancelled ? .prefix : .all
            } else {
                cancelled ? .contiguous : .suffix
            }
        problems.checkValues(report.values, from: [source], subscriber: subscriber.name) { _ in relation }
        let allowed = upstream.completion.map { [$0] } ?? []
        problems.checkCompletion(
            report.completions, allowed: allowed, required: !cancelled && !allowed.isEmpty,
            subscriber: subscriber.name)
    }
}
