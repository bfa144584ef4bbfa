import CoreFoundation
import Dispatch
import Foundation
import Streams

/// A value that the scheduler tests share between threads.
///
/// It is guarded by an `NSLock`, whose hand-overs the thread sanitizer sees.
// @unchecked Sendable: `storage` is only touched with `lock` held.
final class SchedulerTestBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value

    init(_ value: Value) {
        storage = value
    }

    /// The current value.
    var value: Value {
        lock.withLock { storage }
    }

    /// Runs `body` on the value with the lock held.
    @discardableResult
    func withValue<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&storage) }
    }
}

extension SchedulerTestBox where Value == [Int] {
    func append(_ element: Int) {
        withValue { $0.append(element) }
    }
}

/// A thread that runs its run loop, in the default mode, until ``stop()``.
///
/// The loop waits without a time limit, so it only wakes up for what is added to it. After
/// ``waitUntilAsleep()``, a test that gets an action performed on the loop shows that scheduling
/// woke it.
// @unchecked Sendable: `loop`, `keepAlive` and `isStopped` are only touched with `lock` held.
final class SchedulerTestRunLoopThread: @unchecked Sendable {
    private let lock = NSLock()
    private var loop: RunLoop?
    private var keepAlive: Timer?
    private var isStopped = false
    private let finished = DispatchSemaphore(value: 0)
    /// Signalled each time the loop is about to wait.
    private let aboutToWait = DispatchSemaphore(value: 0)

    /// The thread that runs the loop.
    private(set) var thread: Thread!

    init() {
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            let loop = RunLoop.current
            let observer = CFRunLoopObserverCreateWithHandler(
                nil, CFRunLoopActivity.beforeWaiting.rawValue, true, 0
            ) { [aboutToWait] _, _ in aboutToWait.signal() }
            CFRunLoopAddObserver(CFRunLoopGetCurrent(), observer, kCFRunLoopDefaultMode)
            // A timer that never fires keeps the loop from finishing for want of anything to wait for.
            let keepAlive = Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }
            loop.add(keepAlive, forMode: .default)
            lock.withLock {
                self.loop = loop
                self.keepAlive = keepAlive
            }
            started.signal()
            while !lock.withLock({ isStopped }) {
                _ = loop.run(mode: .default, before: .distantFuture)
            }
            finished.signal()
        }
        thread.name = "SchedulerTestRunLoopThread"
        self.thread = thread
        thread.start()
        started.wait()
    }

    /// The thread's run loop.
    var runLoop: RunLoop {
        lock.withLock { loop! }
    }

    /// Waits until the loop has gone to sleep at least once: from then on, nothing but what a test
    /// adds to it wakes it up (the first call returns once it has fallen asleep the first time).
    func waitUntilAsleep() -> Bool {
        aboutToWait.wait(timeout: .now() + schedulerTestTimeout) == .success
    }

    /// Lets the loop finish and waits for the thread to end.
    func stop() {
        let (loop, keepAlive) = lock.withLock {
            isStopped = true
            return (self.loop!, self.keepAlive!)
        }
        keepAlive.invalidate()
        // A due timer wakes the loop, which then finds nothing left to wait for.
        loop.add(Timer(fire: .distantPast, interval: 0, repeats: false) { _ in }, forMode: .default)
        _ = finished.wait(timeout: .now() + 10)
    }
}

/// Wraps a value in a keyed container, so that single-value encodings can be checked as JSON.
struct SchedulerTestKeyed<Value: Codable & Equatable>: Codable, Equatable {
    var value: Value
}

/// Encodes `value` in a ``SchedulerTestKeyed`` and returns the JSON text.
func schedulerTestJSON<Value: Codable & Equatable>(_ value: Value) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(SchedulerTestKeyed(value: value)), as: UTF8.self)
}

/// Decodes a value that ``schedulerTestJSON(_:)`` encoded.
func schedulerTestDecode<Value: Codable & Equatable>(_ type: Value.Type, from json: String) throws -> Value {
    try JSONDecoder().decode(SchedulerTestKeyed<Value>.self, from: Data(json.utf8)).value
}

/// How long the scheduler tests wait for something that should happen: long enough never to be
/// reached on a loaded machine, so reaching it means the event is missing.
let schedulerTestTimeout: DispatchTimeInterval = .seconds(10)
