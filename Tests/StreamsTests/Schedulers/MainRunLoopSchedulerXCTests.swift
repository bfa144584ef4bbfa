import Dispatch
import Foundation
import Streams
import XCTest

/// `RunLoop.main.schedule(_:)` from the main thread, which only XCTest test methods run on: the
/// action waits for the main run loop's next pass, in order with actions scheduled from other
/// threads, and a run loop with nothing else to do still performs it.
final class MainRunLoopSchedulerXCTests: XCTestCase {
    func testAnActionScheduledFromTheMainThreadWaitsForTheNextPass() {
        XCTAssertTrue(Thread.isMainThread)
        var ran = false
        RunLoop.main.schedule { ran = true }
        XCTAssertFalse(ran)
        // Nothing else is attached to the run loop's default mode; the queued action alone keeps it
        // from returning at once. The deadline only stops a broken test from hanging.
        let deadline = Date(timeIntervalSinceNow: 10)
        while !ran && Date() < deadline {
            RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.01))
        }
        XCTAssertTrue(ran)
    }

    func testActionsFromTheMainThreadAndAnotherThreadRunInTheOrderScheduled() {
        var order: [String] = []
        RunLoop.main.schedule { order.append("main 1") }
        DispatchQueue.global().sync {
            RunLoop.main.schedule { order.append("other") }
        }
        RunLoop.main.schedule { order.append("main 2") }
        let deadline = Date(timeIntervalSinceNow: 10)
        while order.count < 3 && Date() < deadline {
            RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.01))
        }
        XCTAssertEqual(order, ["main 1", "other", "main 2"])
    }

    func testAnActionScheduledByAnActionRunsOnALaterPass() {
        var order: [Int] = []
        RunLoop.main.schedule {
            order.append(1)
            RunLoop.main.schedule { order.append(3) }
            order.append(2)
        }
        let deadline = Date(timeIntervalSinceNow: 10)
        while order.count < 3 && Date() < deadline {
            RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.01))
        }
        XCTAssertEqual(order, [1, 2, 3])
    }
}
