import Foundation
import Streams
import XCTest

/// A timer on `RunLoop.main` fires only while the main thread runs the main run loop. XCTest runs
/// test methods on the main thread, so a test can run it, with `RunLoop.main.run(until:)` or with
/// `wait(for:timeout:)`. (Swift Testing cannot: on Linux its tests, `@MainActor` ones included, do
/// not run on the main thread.)
final class MainRunLoopTimerXCTests: XCTestCase {
    /// The timer's interval: short, so the test is quick.
    let interval: TimeInterval = 0.01

    func testAMainRunLoopTimerFiresOnlyWhileTheTestRunsTheMainRunLoop() {
        XCTAssertTrue(Thread.isMainThread)
        var ticks = 0
        let cancellable = Timer.publish(every: interval, on: .main, in: .default)
            .autoconnect()
            .sink { _ in ticks += 1 }
        // Three intervals pass without the main run loop running: no tick.
        let quiet = Date(timeIntervalSinceNow: 3 * interval)
        while Date() < quiet {}
        XCTAssertEqual(ticks, 0)
        // Running it delivers the ticks; the deadline only stops a broken test from hanging.
        let deadline = Date(timeIntervalSinceNow: 10)
        while ticks < 3 && Date() < deadline {
            RunLoop.main.run(until: Date(timeIntervalSinceNow: interval))
        }
        cancellable.cancel()
        XCTAssertGreaterThanOrEqual(ticks, 3)
    }

    func testWaitForExpectationsRunsTheMainRunLoop() {
        let threeTicks = expectation(description: "three ticks")
        threeTicks.expectedFulfillmentCount = 3
        threeTicks.assertForOverFulfill = false
        let cancellable = Timer.publish(every: interval, on: .main, in: .default)
            .autoconnect()
            .sink { _ in threeTicks.fulfill() }
        wait(for: [threeTicks], timeout: 10)
        cancellable.cancel()
    }
}
