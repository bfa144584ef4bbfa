import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Streams

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Streams' lock under many more threads than processors: it excludes, it loses no thread (a
/// waiter that sleeps is woken), and a waiter sleeps instead of burning the processor the holder
/// needs. (`Tests/StreamsTests/Internal` holds the tests of `Sources/Streams/Internal`.)
@Suite(.timeLimit(.minutes(2)), .serialized) struct LockTests {
    final class Guarded: @unchecked Sendable {  // @unchecked: `count` is guarded by `lock`.
        let lock = Lock()
        var count = 0
    }

    @Test func manyThreadsIncrementingUnderTheLockLoseNothing() {
        let guarded = Guarded()
        let threads = 24
        let increments = 20_000
        runOnThreads(threads) { thread in
            for step in 0..<increments {
                guarded.lock.withLock {
                    guarded.count += 1
                    // Now and then a longer hold, so that waiters give up spinning and sleep.
                    if step % 1_000 == thread { _ = stressSpin(20_000) }
                }
            }
        }
        #expect(guarded.lock.withLock { guarded.count } == threads * increments)
    }

    #if !canImport(Darwin)
        /// The holder keeps the lock until every waiter has counted itself among the lock's sleepers,
        /// which a waiter does only once it stops spinning and goes to sleep in the kernel; then
        /// it lets go, and every sleeper is woken and gets the lock.
        @Test func waitersSleepUntilTheHolderLetsGo() {
            let guarded = Guarded()
            let waiters = 6
            let holding = DispatchSemaphore(value: 0)
            let allAsleep = Atomic<Bool>(false)
            runOnThreads(waiters + 1) { thread in
                if thread == 0 {
                    guarded.lock.withLock {
                        for _ in 0..<waiters { holding.signal() }
                        let deadline = stressDeadline()
                        while DispatchTime.now() < deadline {
                            let sleeping = guarded.lock.sleepers.load(ordering: .relaxed) / LockWord.oneSleeper
                            if sleeping == UInt32(waiters) {
                                allAsleep.store(true, ordering: .relaxed)
                                break
                            }
                            sched_yield()
                        }
                        guarded.count += 1
                    }
                } else {
                    holding.wait()
                    guarded.lock.withLock { guarded.count += 1 }
                }
            }
            let wentToSleep = allAsleep.load(ordering: .relaxed)
            #expect(wentToSleep, "every waiter went to sleep while the lock was held")
            #expect(guarded.lock.withLock { guarded.count } == waiters + 1)
            #expect(guarded.lock.sleepers.load(ordering: .relaxed) == 0, "nobody is left counted as asleep")
        }
    #endif
}
