import Streams
import Testing

extension ConcurrentScheduleTests {
    /// `PassthroughSubject` and `CurrentValueSubject` with several senders, each on a thread of its
    /// own (one of which may complete the subject once its values are sent), several subscribers
    /// attached first, perhaps one attaching from the driver thread while values flow, and the driver
    /// requesting and cancelling for them.
    ///
    /// Checked for every subscriber: the delivery rules; no value twice or made up; each sender's
    /// values in the order sent, and exactly all of them for a subscriber with unlimited demand
    /// attached first (the first ones of the senders that did not complete, if one completed);
    /// every subscriber sees the values in one order (subjects serialize delivery): one with unlimited
    /// demand attached first that never cancels sees them all, and every other subscriber sees a part
    /// of that sequence: all of it, its beginning if it cancels, its end if it attaches late, some of
    /// it with bounded demand; a current-value subject's current value first, and its value, after the
    /// run, is the last one delivered; the completion sent, for every subscriber that did not cancel,
    /// even one that attached after it; everything freed once the subject is let go of.
    @Suite struct SubjectScheduleTests {
        static let cases = 250

        /// Plays random schedules of a passthrough subject.
        @Test func passthroughSubject() {
            playScheduleCases("SubjectScheduleTests", stream: 10, cases: Self.cases) { random in
                SubjectCase.random(currentValue: false, using: &random).play()
            }
        }

        /// Plays random schedules of a current-value subject.
        @Test func currentValueSubject() {
            playScheduleCases("SubjectScheduleTests", stream: 11, cases: Self.cases) { random in
                SubjectCase.random(currentValue: true, using: &random).play()
            }
        }
    }
}

/// One subject schedule: which subject, the senders' scripts, and the subscribers' plans.
struct SubjectCase: CustomStringConvertible {
    /// The current-value subject's first value: sent by nobody.
    static let initialValue = StressValue(sender: -1, sequence: 0)

    var currentValue: Bool
    var senders: [UpstreamScript]
    /// For a current-value subject: which senders set `value` rather than call `send(_:)`.
    var setsValue: [Bool]
    var subscribers: [SubscriberPlan]
    /// Draws the order in which the driver's steps for the subscribers interleave.
    var interleaving: UInt64

    var description: String {
        let senderLines = senders.map {
            "  sender \($0.index)\(setsValue[$0.index] ? " (sets value)" : ""): \($0)"
        }
        let subscriberLines = subscribers.enumerated().map { "  subscriber \($0.offset): \($0.element)" }
        return ([currentValue ? "CurrentValueSubject" : "PassthroughSubject"] + senderLines + subscriberLines)
            .joined(separator: "\n")
    }

    /// Two or three senders, at most one of which completes; two or three subscribers attached first,
    /// the first of them most often with unlimited demand and no cancel; perhaps one attaching late.
    static func random(currentValue: Bool, using random: inout SeededRandom) -> SubjectCase {
        var senders = (0..<random.int(in: 2...3)).map {
            UpstreamScript.random(index: $0, maxCount: 50, endings: [(100, .open)], using: &random)
        }
        if random.chance(30) {
            senders[random.int(in: 0...(senders.count - 1))].ending = random.chance(70) ? .finish : .fail
        }
        let setsValue = senders.map { _ in currentValue && random.chance(30) }
        var subscribers: [SubscriberPlan] = []
        if random.chance(70) {
            subscribers.append(
                SubscriberPlan(
                    demand: DemandPlan(
                        initial: .unlimited, perValue: .none, requests: [], spin: random.pick([0, 150])),
                    cancel: .none, late: false))
        }
        while subscribers.count < 2 || (subscribers.count < 3 && random.chance(50)) {
            subscribers.append(SubscriberPlan.random(need: .nothing, mayCancel: true, late: false, using: &random))
        }
        if random.chance(40) {
            var late = SubscriberPlan.random(need: .nothing, mayCancel: false, late: true, using: &random)
            if random.chance(60) {
                late.demand = DemandPlan(initial: .unlimited, perValue: .none, requests: [], spin: 0)
            }
            subscribers.append(late)
        }
        return SubjectCase(
            currentValue: currentValue, senders: senders, setsValue: setsValue, subscribers: subscribers,
            interleaving: random.next())
    }

    /// Plays the schedule and checks it.
    func play() -> ScheduleOutcome {
        var problems = ScheduleProblems()
        let probe = StressLeakProbe()
        do {
            let passthrough = currentValue ? nil : PassthroughSubject<StressValue, StressError>()
            let current = currentValue ? CurrentValueSubject<StressValue, StressError>(Self.initialValue) : nil
            probe.watch("subject", object: passthrough ?? current)
            let subject = LockedState(
                passthrough.map { $0.eraseToAnyPublisher() } ?? current!.eraseToAnyPublisher())
            let subscribers = self.subscribers.enumerated().map {
                ScheduleSubscriber(name: "subscriber \($0.offset)", plan: $0.element)
            }
            for subscriber in subscribers where !subscriber.plan.late {
                subject.withLock { subscriber.subscribe(to: $0, probe: probe) }
            }

            var lists = subscribers.map(\.steps)
            for subscriber in subscribers where subscriber.plan.late {
                lists.append([{ subject.withLock { subscriber.subscribe(to: $0, probe: probe) } }])
            }
            var random = SeededRandom(seed: interleaving)
            var roles: [@Sendable () -> Bool] = senders.map { script in
                let setsValue = self.setsValue[script.index]
                return {
                    for value in script.values {
                        if script.pace > 0 { _ = stressSpin(script.pace) }
                        if let passthrough {
                            passthrough.send(value)
                        } else if setsValue {
                            current?.value = value
                        } else {
                            current?.send(value)
                        }
                    }
                    if let completion = script.completion {
                        passthrough?.send(completion: completion)
                        current?.send(completion: completion)
                    }
                    return true
                }
            }
            roles.append(driverRole(interleave(lists, using: &random)))
            problems.add(playRoles(roles))

            for subscriber in subscribers {
                problems.noteReceived(subscriber.sink.report, subscriber: subscriber.name)
            }
            check(subscribers, finalValue: current?.value, &problems)
            for subscriber in subscribers { subscriber.end() }
        }
        problems.checkFreed(probe)
        return ScheduleOutcome(script: description, problems: problems.report)
    }

    /// Checks what the subscribers received against the script and against one another.
    func check(_ subscribers: [ScheduleSubscriber], finalValue: StressValue?, _ problems: inout ScheduleProblems) {
        let completer = senders.first { $0.ending != .open }
        let completion = completer?.completion
        // A subscriber with unlimited demand, attached first, that never cancels sees every value
        // delivered, in the subject's order.
        let reference = subscribers.first {
            !$0.plan.late && $0.plan.demand.unlimitedFromStart && $0.plan.cancel.isNone
        }
        let sequence = reference?.sink.report.values
        // After the completion, setting `value` still stores it, without sending it.
        if let sequence, let finalValue, completion == nil || !setsValue.contains(true) {
            problems.expect(
                sequence.last == finalValue, "the subject's value \(finalValue) is not the last one delivered")
        }
        for subscriber in subscribers {
            let report = subscriber.sink.report
            let plan = subscriber.plan
            let cancelled = subscriber.cancelled
            let name = subscriber.name
            problems.checkDelivery(report, plan.cancel, subscriber.watch, subscriber: name)
            var values = report.values
            if currentValue, !plan.late, plan.demand.initial > 0 {
                problems.expect(values.first == Self.initialValue, "\(name): the current value did not come first")
            }
            values.removeAll { $0 == Self.initialValue }
            let unlimited = plan.demand.unlimitedFromStart
            problems.checkValues(values, sentBy: senders, subscriber: name) { sender in
                if !unlimited { return .subsequence }
                if plan.late { return completion == nil && !cancelled ? .suffix : .contiguous }
                if cancelled { return .prefix }
                // What other senders send after the completion is ignored.
                return completion == nil || sender.index == completer?.index ? .all : .prefix
            }
            if let sequence {
                let part: Delivered =
                    !unlimited
                    ? .subsequence : plan.late ? (cancelled ? .contiguous : .suffix) : cancelled ? .prefix : .all
                problems.expect(
                    part.holds(report.values, of: sequence),
                    "\(name): expected \(part.rawValue) of the values in the order subscriber 0 saw them")
            }
            problems.checkCompletion(
                report.completions, allowed: completion.map { [$0] } ?? [], required: !cancelled && completion != nil,
                subscriber: name)
        }
    }
}
