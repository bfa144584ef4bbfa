import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

/// Subscriptions to test publishers drawn as marble diagrams: `^` subscribed, `!` cancelled.
@Suite struct SubscriptionMarbleTests {
    private func message(of issue: Issue) -> String {
        issue.comments.map(\.rawValue).joined(separator: "\n")
    }

    @Test func drawsWhenEachSubscriptionBeganAndWasCancelled() {
        let scheduler = DispatchQueue.test
        let source = scheduler.createHotPublisher(marbles: "abcdef")
        let first = scheduler.record(source)
        first.cancel(at: .seconds(3))
        scheduler.at(.seconds(2)) { _ = scheduler.record(source) }
        scheduler.advance(by: .seconds(10))
        #expect(source.subscriptionMarbles() == ["^--!", "--^"])
        source.expectSubscriptions(["^--!", "--^"])
    }

    @Test func aCancellationInTheFrameOfTheSubscriptionIsAGroup() {
        let scheduler = DispatchQueue.test
        let source = scheduler.createColdPublisher(marbles: "a|")
        scheduler.advance(by: .seconds(1))
        scheduler.record(source).cancel()
        #expect(source.subscriptionMarbles() == ["-(^!)"])
        source.expectSubscriptions(["- (^!)"])
    }

    @Test func aSubscriptionEndedByTheCompletionIsNotCancelled() {
        let scheduler = DispatchQueue.test
        let source = scheduler.createColdPublisher(marbles: "--a|")
        #expect(scheduler.marbles(of: source) == "--a|")
        source.expectSubscriptions(["^"])
    }

    @Test func theFrameSetsTheScale() {
        let subscription = RecordedSubscription<DispatchStride>(
            subscribed: .milliseconds(200), cancelled: .milliseconds(500))
        #expect(subscription.marbles(frame: .milliseconds(100)) == "--^--!")
        #expect(
            subscription.marbles()
                == "cannot draw: the subscription at 200 ms falls between frames 0 and 1 of 1 s; draw with a frame that divides every time"
        )
    }

    @Test func aDifferentCancellationShowsBothDiagramsAndACaret() {
        let scheduler = DispatchQueue.test
        let source = scheduler.createHotPublisher(marbles: "abcdef")
        scheduler.record(source).cancel(at: .seconds(4))
        scheduler.advance(by: .seconds(10))
        withKnownIssue {
            source.expectSubscriptions(["^--!"])
        } matching: { issue in
            message(of: issue) == """
                Subscription 1 of 1 differs at column 4:
                expected: ^--!
                actual:   ^---!
                             ^
                """
        }
    }

    @Test func aDifferentNumberOfSubscriptionsListsThemAll() {
        let scheduler = DispatchQueue.test
        let source = scheduler.createColdPublisher(marbles: "-#", error: KitError())
        _ = scheduler.marbles(of: source.retry(2))
        #expect(source.subscriptionMarbles() == ["^", "-^", "--^"])
        withKnownIssue {
            source.expectSubscriptions(["^", "-^"])
        } matching: { issue in
            message(of: issue) == """
                Expected 2 subscriptions, recorded 3:
                expected: ^
                          -^
                actual:   ^
                          -^
                          --^
                """
        }
    }

    @Test func aMalformedSubscriptionDiagramFailsTheTest() {
        expectMisuse("Malformed marble diagram \"--!\"") {
            DispatchQueue.test.createColdPublisher(marbles: "a").expectSubscriptions(["--!"])
        }
    }

    @Test func aMalformedSubscriptionDiagramIsReportedAtTheCallersLine() {
        let scheduler = DispatchQueue.test
        let cold = scheduler.createColdPublisher(marbles: "a")
        let hot = scheduler.createHotPublisher(marbles: "a")
        expectReported(atLine: #line) { cold.expectSubscriptions(["--!"]) }
        expectReported(atLine: #line) { hot.expectSubscriptions(["^", "^^"]) }
    }
}
