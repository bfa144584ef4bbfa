#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The floor's lock where threads share something (scenarios 7, M2, M3): a glibc pthread mutex,
/// allocated where it cannot move.
///
/// Not the standard library's `Mutex`: on Linux `Mutex` keeps its owner's thread id in the lock word
/// and hands a contended lock over through the kernel; with four sending threads on two cores that
/// made scenario 7's floor about 1.8 µs per value against some 40 ns with a pthread mutex, which
/// lets a running thread take a lock that was just released.
final class PthreadMutex {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    @inline(__always)
    func withLock<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
