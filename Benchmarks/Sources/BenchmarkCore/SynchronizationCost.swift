import Synchronization

/// What the two synchronization steps a thread-safe stream cannot avoid cost on this machine,
/// uncontended: taking and releasing a lock, and an atomic increment and decrement (what retaining and
/// releasing an object does). They bound how close a thread-safe implementation can come to the floor,
/// which has no synchronization at all.
public enum SynchronizationCost {
    /// Nanoseconds per lock pass (a compare-and-exchange to take it, a releasing store to give it
    /// back) and per atomic increment/decrement pair: medians of `rounds` runs of `iterations` each.
    public static func measure(
        iterations: Int = 10_000_000, rounds: Int = 5
    ) -> (lockPass: Double, incrementDecrement: Double) {
        let subject = Subject()
        var lockTimes: [Double] = []
        var retainTimes: [Double] = []
        for _ in 0..<rounds {
            lockTimes.append(time(iterations) { lockPasses(subject, iterations) })
            retainTimes.append(time(iterations) { incrementDecrementPairs(subject, iterations) })
        }
        return (median(lockTimes), median(retainTimes))
    }

    private final class Subject {
        let isLocked = Atomic<Bool>(false)
        let referenceCount = Atomic<Int>(1)
        var counter = 0
    }

    @inline(never)
    private static func lockPasses(_ subject: Subject, _ iterations: Int) {
        for index in 0..<iterations {
            _ = subject.isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring)
            subject.counter &+= index
            subject.isLocked.store(false, ordering: .releasing)
        }
    }

    @inline(never)
    private static func incrementDecrementPairs(_ subject: Subject, _ iterations: Int) {
        for index in 0..<iterations {
            subject.referenceCount.wrappingAdd(1, ordering: .relaxed)
            subject.counter &+= index
            subject.referenceCount.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }
    }

    private static func time(_ iterations: Int, _ body: () -> Void) -> Double {
        let start = Probe.now()
        body()
        return Double(Probe.now() - start) / Double(iterations)
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}
