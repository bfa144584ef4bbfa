import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

// Streams' time operators, drawn. Every frame is one second of a dispatch-queue test scheduler. The
// expected diagrams follow from what Combine documents for each operator, worked out in the
// comments; they are not recordings of what Streams happened to do.

@Suite struct DebounceMarbleTests {
    @Test func publishesTheLatestValueOnceTheInputIsQuietForTheDueTime() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createHotPublisher(marbles: "-ab---c-d----|")
        // b (frame 2) replaced a; three quiet frames later, at 5, it goes out. d (8) replaced c (6)
        // before c's wait was over; it goes out at 11. The completion is passed on at once.
        scheduler.expect(
            input.debounce(for: .seconds(3), scheduler: scheduler),
            marbles: "-----b-----d-|")
    }

    @Test func aValueStillWaitingWhenTheInputFinishesIsDropped() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createHotPublisher(marbles: "a-b|")
        // b's wait would end at frame 5, but the completion at 3 ends the stream first.
        scheduler.expect(input.debounce(for: .seconds(3), scheduler: scheduler), marbles: "---|")
    }

    @Test func aFailureIsPassedOnAtOnce() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createHotPublisher(marbles: "a-----b#", error: KitError())
        scheduler.expect(
            input.debounce(for: .seconds(2), scheduler: scheduler), marbles: "--a----#", error: KitError())
    }
}

@Suite struct ThrottleMarbleTests {
    // The first value goes out at once. After a value goes out, the next one can go out no sooner
    // than one interval later; a value that arrives after that goes out at once.
    static let input = "abc-----d-e-----|"

    @Test func latestPublishesTheMostRecentValueOfEachInterval() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createHotPublisher(marbles: Self.input)
        // a at 0; b (1) is replaced by c (2), which goes out at 3; d (8) is more than an interval
        // after c and goes out at once; e (10) waits for 11.
        scheduler.expect(
            input.throttle(for: .seconds(3), scheduler: scheduler, latest: true),
            marbles: "a--c----d--e----|")
    }

    @Test func notLatestPublishesTheFirstValueOfEachInterval() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createHotPublisher(marbles: Self.input)
        // As above, but b keeps its place and c is dropped.
        scheduler.expect(
            input.throttle(for: .seconds(3), scheduler: scheduler, latest: false),
            marbles: "a--b----d--e----|")
    }

    @Test func theCompletionWaitsForTheValueAlreadyWaiting() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createHotPublisher(marbles: "ab|")
        // b waits for frame 3; the completion (2) goes out with it.
        scheduler.expect(
            input.throttle(for: .seconds(3), scheduler: scheduler, latest: true), marbles: "a--(b|)")
    }
}

@Suite struct DelayMarbleTests {
    @Test func shiftsEveryEventByTheInterval() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createHotPublisher(marbles: "-a--(bc)--|")
        // Values and the completion each arrive two frames late; the group stays a group.
        scheduler.expect(input.delay(for: .seconds(2), scheduler: scheduler), marbles: "---a--(bc)--|")
    }

    @Test func delaysAFailureToo() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createColdPublisher(marbles: "-a#", error: KitError())
        scheduler.expect(input.delay(for: .seconds(2), scheduler: scheduler), marbles: "---a#", error: KitError())
        // The subscription itself is not delayed, and a failed subscription is not cancelled.
        input.expectSubscriptions(["^"])
    }
}

@Suite struct TimeoutMarbleTests {
    @Test func finishesAndCancelsTheUpstreamAfterAQuietInterval() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createColdPublisher(marbles: "-a-b-----c|")
        // The clock starts at the subscription and again at each value: b at 3 sets it for 6,
        // when the publisher cancels its upstream and finishes; c never comes.
        scheduler.expect(input.timeout(.seconds(3), scheduler: scheduler), marbles: "-a-b--|")
        input.expectSubscriptions(["^-----!"])
    }

    @Test func failsWithTheCustomError() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createColdPublisher(marbles: "----a|", error: KitError())
        scheduler.expect(
            input.timeout(.seconds(2), scheduler: scheduler, customError: { KitError(code: 408) }),
            marbles: "--#", error: KitError(code: 408))
        input.expectSubscriptions(["^-!"])
    }

    @Test func anUpstreamThatFinishesInTimeIsNotCancelled() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createColdPublisher(marbles: "-a-b|")
        scheduler.expect(input.timeout(.seconds(3), scheduler: scheduler), marbles: "-a-b|")
        input.expectSubscriptions(["^"])
    }

    @Test func aLateSubscriptionStartsItsOwnClock() {
        let scheduler = DispatchQueue.test
        let input = scheduler.createColdPublisher(marbles: "-----a|")
        scheduler.advance(by: .seconds(2))
        // Subscribed at frame 2, timed out three frames later.
        scheduler.expect(input.timeout(.seconds(3), scheduler: scheduler), marbles: "-----|")
        input.expectSubscriptions(["--^--!"])
    }
}

@Suite struct SwitchToLatestMarbleTests {
    @Test func followsTheLatestInnerPublisherAndCancelsThePreviousOne() {
        let scheduler = DispatchQueue.test
        let x = scheduler.createColdPublisher(marbles: "a-b---c|")
        let y = scheduler.createColdPublisher(marbles: "-e--f|")
        let outer = scheduler.createHotPublisher(marbles: "-x---y------|", values: ["x": x, "y": y])
        // x is subscribed at 1 and plays a at 1 and b at 3; y arrives at 5, so x is cancelled
        // before its c (7). y plays e at 6 and f at 9 and finishes at 10; the stream finishes when
        // the outer publisher does, at 12, since its latest inner one is done.
        scheduler.expect(outer.switchToLatest(), marbles: "-a-b--e--f--|")
        x.expectSubscriptions(["-^---!"])
        y.expectSubscriptions(["-----^"])
        outer.expectSubscriptions(["^"])
    }

    @Test func waitsForTheLatestInnerPublisherAfterTheOuterOneFinishes() {
        let scheduler = DispatchQueue.test
        let x = scheduler.createColdPublisher(marbles: "--a--|")
        let outer = scheduler.createHotPublisher(marbles: "-x|", values: ["x": x])
        scheduler.expect(outer.switchToLatest(), marbles: "---a--|")
        x.expectSubscriptions(["-^"])
    }

    @Test func anInnerFailureFailsTheStreamAndCancelsTheOuterPublisher() {
        let scheduler = DispatchQueue.test
        let x = scheduler.createColdPublisher(marbles: "-a#", error: KitError())
        let y = scheduler.createColdPublisher(marbles: "b", error: KitError())
        let outer = scheduler.createHotPublisher(marbles: "-x----y", values: ["x": x, "y": y], error: KitError())
        scheduler.expect(outer.switchToLatest(), marbles: "--a#", error: KitError())
        outer.expectSubscriptions(["^--!"])
        y.expectSubscriptions([])
    }
}

@Suite struct MergeMarbleTests {
    @Test func interleavesBothAndFinishesWhenBothHave() {
        let scheduler = DispatchQueue.test
        let left = scheduler.createHotPublisher(marbles: "-a---b--|")
        let right = scheduler.createHotPublisher(marbles: "--x-y-|")
        scheduler.expect(left.merge(with: right), marbles: "-ax-yb--|")
        left.expectSubscriptions(["^"])
        right.expectSubscriptions(["^"])
    }

    @Test func valuesOfOneFrameArriveTogetherInTheOrderTheyWereSent() {
        let scheduler = DispatchQueue.test
        let left = scheduler.createHotPublisher(marbles: "-a----|")
        let right = scheduler.createHotPublisher(marbles: "-b|")
        scheduler.expect(left.merge(with: right), marbles: "-(ab)-|")
    }

    @Test func aFailureEndsTheStreamAndCancelsTheOtherUpstream() {
        let scheduler = DispatchQueue.test
        let left = scheduler.createHotPublisher(marbles: "-a--#", error: KitError())
        let right = scheduler.createHotPublisher(marbles: "--b---c", error: KitError())
        scheduler.expect(left.merge(with: right), marbles: "-ab-#", error: KitError())
        right.expectSubscriptions(["^---!"])
    }
}
