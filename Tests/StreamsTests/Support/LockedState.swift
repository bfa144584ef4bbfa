import Foundation

/// A value guarded by an `NSLock`, for test helpers that several threads or tasks touch at once.
///
/// Unlike `Mutex`, whose hand-over under contention goes through the kernel on Linux where the thread
/// sanitizer cannot see it, a pthread mutex is one the sanitizer follows, so heavy contention on
/// this state reports no false data race.
final class LockedState<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched with `lock` held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, the lock held.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
