import Streams
import StreamsTesting
import Testing

/// A subscriber for a merging operator (`merge`, `flatMap`) whose upstreams send from many threads at
/// once: sender `thread` sends the values `thread * perThread ..< (thread + 1) * perThread` in order.
/// Each delivery keeps the subscriber busy for a while, so that two deliveries at once would show.
struct ManyThreadsMerging {
    let threads: Int
    let perThread: Int
    let detector = ReentryDetector()
    let subscriber: TestSubscriber<Int, Never>

    /// With `bounded`, the subscriber asks for one value at a time; otherwise for unlimited values.
    init(threads: Int, perThread: Int, bounded: Bool = false) {
        self.threads = threads
        self.perThread = perThread
        subscriber =
            bounded
            ? TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
            : TestSubscriber<Int, Never>()
        subscriber.onReceiveValue { [detector] _ in detector.enter(spin: 2_000) {} }
    }

    /// The values sender `thread` sends, in order.
    func values(of thread: Int) -> Range<Int> {
        thread * perThread..<(thread + 1) * perThread
    }

    /// Expects every value once, each sender's in the order sent, never two deliveries at once, then
    /// `.finished`.
    func expectEverythingArrived(sourceLocation: SourceLocation = #_sourceLocation) {
        let values = subscriber.values
        #expect(values.count == threads * perThread, sourceLocation: sourceLocation)
        #expect(Set(values) == Set(0..<threads * perThread), sourceLocation: sourceLocation)
        #expect(subscriber.completion == .finished, sourceLocation: sourceLocation)
        #expect(detector.overlaps == 0, sourceLocation: sourceLocation)
        for thread in 0..<threads {
            let own = values.filter { $0 / perThread == thread }
            #expect(own == own.sorted(), sourceLocation: sourceLocation)
        }
    }
}
