import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

extension StressTests {
    /// `timeout` on a serial and on a concurrent queue, with values sent from several threads while
    /// others request and cancel, and the timer firing in the middle of it all.
    @Suite struct TimeoutStressTests {
        @Test(arguments: StressQueueKind.allCases)
        func everyValueArrivesOnceInOrderWhileTheTimerKeepsBeingPushedBack(queue: StressQueueKind) {
            let scheduler = queue.makeScheduler("timeout")
            let plan = StressPlan(senders: 4, perSender: 2_000, requesters: 2, requests: 4_000)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, StressError>()
                let sink = StressSink<StressValue, StressError>(initialDemand: .none)
                // Far longer than the run: the timer is rearmed, but never times out.
                source.timeout(.seconds(60), scheduler: scheduler, customError: { StressError(code: 7) })
                    .subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "timeout")

                #expect(runStress(plan, source: source, sink: sink))
                #expect(sink.waitForCompletion())

                let report = sink.report
                report.expectWellBehaved()
                #expect(report.values.count == plan.senders * plan.perSender)
                #expect(report.values == source.sent)
                #expect(report.completions == [.finished])
            }
            // The queue goes idle only once the repeating timer is cancelled.
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases)
        func timingOutWhileSendersSendDeliversAPrefixThenTheFailure(queue: StressQueueKind) {
            let scheduler = queue.makeScheduler("timeout")
            let plan = StressPlan(senders: 4, perSender: 2_000, finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, StressError>()
                let sink = StressSink<StressValue, StressError>()
                // Short enough to fire as soon as the senders pause, or are done.
                source.timeout(.milliseconds(20), scheduler: scheduler, customError: { StressError(code: 7) })
                    .subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "timeout")

                #expect(runStress(plan, source: source, sink: sink))
                #expect(sink.waitForCompletion())
                #expect(scheduler.waitUntilIdle())

                let report = sink.report
                report.expectWellBehaved()
                // What was still waiting for the queue when the timer fired is dropped: the values
                // delivered are the first ones sent, then the failure.
                #expect(stressIsPrefix(report.values, of: source.sent))
                #expect(report.completions == [.failure(StressError(code: 7))])
                #expect(source.cancelCount == 1)
            }
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases, [200, 1_000, 5_000])
        func cancellingRacesTheTimer(queue: StressQueueKind, timeoutMicroseconds: Int) {
            let scheduler = queue.makeScheduler("timeout")
            let plan = StressPlan(
                senders: 4, perSender: 5_000, requesters: 2, requests: 3_000, cancelAfterSent: 2_000, finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, StressError>()
                let sink = StressSink<StressValue, StressError>(initialDemand: .none)
                // The timer fires whenever the senders wait for the requesters a little.
                source.timeout(
                    .microseconds(timeoutMicroseconds), scheduler: scheduler, customError: { StressError(code: 7) }
                )
                .subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "timeout")

                #expect(runStress(plan, source: source, sink: sink))
                #expect(scheduler.waitUntilIdle())

                let report = sink.report
                // timeout delivers from one drain at a time, which checks under the lock that the
                // subscription is live before each value. So one delivery at most can begin after
                // cancel() returned: the value that passed the check as cancel() ran, or, if the timer
                // fired first (and cancel() then had nothing left to cancel), the failure.
                report.expectWellBehaved(maxLate: 1)
                #expect(stressIsPrefix(report.values, of: source.sent))
                #expect(report.completions.isEmpty || report.completions == [.failure(StressError(code: 7))])
                // Upstream is cancelled once: by the timer or by the subscriber, never both.
                #expect(source.cancelCount == 1)
            }
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases)
        func cancellingRacesTheUpstreamCompletion(queue: StressQueueKind) {
            // Short runs, many times over, so that the cancel wins some and the completion others.
            for _ in 0..<10 {
                let scheduler = queue.makeScheduler("timeout")
                let probe = StressLeakProbe()
                do {
                    let source = StressSource<StressValue, StressError>()
                    let sink = StressSink<StressValue, StressError>()
                    source.timeout(.seconds(60), scheduler: scheduler).subscribe(sink)
                    probe.watchChain(source: source, sink: sink, operatorName: "timeout")

                    #expect(runCancelRacingFinish(senders: 4, perSender: 100, source: source, sink: sink))
                    #expect(scheduler.waitUntilIdle())

                    let report = sink.report
                    if report.completions.isEmpty {
                        // The cancel came first: what arrived is the beginning of what was sent.
                        report.expectWellBehaved(maxLate: 1)
                        #expect(stressIsPrefix(report.values, of: source.sent))
                    } else {
                        // The completion came first: everything sent arrived, then the completion, of
                        // which only the delivery already under way can come after cancel() returned.
                        report.expectWellBehaved(maxLate: 1)
                        #expect(report.values == source.sent)
                        #expect(report.completions == [.finished])
                    }
                }
                #expect(scheduler.waitUntilIdle())
                #expect(probe.survivors() == [])
            }
        }

        @Test func severalThreadsAdvancingAVirtualClockUntilItTimesOut() {
            let scheduler = DispatchQueue.test
            let plan = StressPlan(senders: 2, perSender: 1_500, requesters: 1, requests: 3_000, finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, StressError>()
                let sink = StressSink<StressValue, StressError>(initialDemand: .none)
                source.timeout(.milliseconds(1), scheduler: scheduler, customError: { StressError(code: 7) })
                    .subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "timeout")

                // Two more threads move the clock on: it times out whenever the values fall a virtual
                // millisecond behind, and at the latest once the senders are done.
                #expect(
                    runStress(plan, source: source, sink: sink, alongside: 2) { _ in
                        for _ in 0..<1_500 { scheduler.advance(by: .microseconds(100)) }
                    })
                scheduler.advance(by: .seconds(1))

                let report = sink.report
                report.expectWellBehaved()
                #expect(stressIsPrefix(report.values, of: source.sent))
                #expect(report.completions == [.failure(StressError(code: 7))])
                #expect(source.cancelCount == 1)
                #expect(scheduler.scheduledCount == 0)
            }
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases)
        func subscribingWhileSendersWaitDeliversNothingDuringTheSubscription(queue: StressQueueKind) {
            let scheduler = queue.makeScheduler("timeout")
            let plan = StressPlan(senders: 4, perSender: 500)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, StressError>()
                // Stays in `receive(subscription:)` until the values it asked for pour in.
                let sink = StressSink<StressValue, StressError>(onSubscription: { _ = source.waitUntilSent(200) })
                probe.watch("source", source)
                probe.watch("subscriber", sink)

                // The senders already wait when the subscriber attaches, from a thread of its own, and
                // asks for everything from within `receive(subscription:)`: values come at once, and
                // must wait until it returns.
                #expect(
                    runStress(plan, source: source, sink: sink, alongside: 1) { _ in
                        source.timeout(.seconds(60), scheduler: scheduler).subscribe(sink)
                        probe.watch("timeout", object: sink.subscriptionReference)
                    })
                #expect(sink.waitForCompletion())

                let report = sink.report
                report.expectWellBehaved()
                #expect(report.duringSubscription == 0)
                #expect(report.values.count == plan.senders * plan.perSender)
                #expect(report.values == source.sent)
                #expect(report.completions == [.finished])
            }
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }

        @Test(arguments: StressQueueKind.allCases, [1, 500, 4_000])
        func cancellingFromWithinADeliveryStopsAtThatValue(queue: StressQueueKind, cancelAt: Int) {
            let scheduler = queue.makeScheduler("timeout")
            let plan = StressPlan(senders: 4, perSender: 2_000, finishes: false)
            let probe = StressLeakProbe()
            do {
                let source = StressSource<StressValue, StressError>()
                let sink = StressSink<StressValue, StressError>(onValue: { sink, _, received in
                    if received == cancelAt { sink.cancel() }
                })
                source.timeout(.seconds(60), scheduler: scheduler).subscribe(sink)
                probe.watchChain(source: source, sink: sink, operatorName: "timeout")

                #expect(runStress(plan, source: source, sink: sink))
                #expect(scheduler.waitUntilIdle())

                let report = sink.report
                // The delivery that cancels is the only one under way, and timeout checks for the
                // cancellation before the next value: nothing comes after it.
                report.expectWellBehaved(maxLate: 0)
                #expect(report.values.count == cancelAt)
                #expect(stressIsPrefix(report.values, of: source.sent))
                #expect(source.cancelCount == 1)
            }
            // The queue goes idle only once the timer is cancelled.
            #expect(scheduler.waitUntilIdle())
            #expect(probe.survivors() == [])
        }
    }
}
