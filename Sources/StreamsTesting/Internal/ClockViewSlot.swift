import Streams

/// Where a test scheduler keeps the clock view of its time, made on first use, so that every use of
/// `clock` sees the same clock (and the same waiting sleeps).
final class ClockViewSlot: @unchecked Sendable {  // @unchecked: `clock` is guarded by `lock`.
    private let lock = Lock()
    private var clock: (any Sendable)?

    /// The clock kept here, or the one `make` returns, kept from now on.
    func clock<C: Sendable>(_ make: () -> C) -> C {
        lock.withLock {
            if let existing = clock as? C { return existing }
            let made = make()
            clock = made
            return made
        }
    }
}
