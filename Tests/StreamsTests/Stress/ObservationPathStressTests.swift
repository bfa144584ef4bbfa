import Dispatch
import Foundation
import Observation
import Streams
import StreamsTesting
import Testing

/// Every way of observing state, under several writers: while threads write (one write at a time, in
/// increasing order, so every observer must see increasing values), other threads subscribe, read
/// and cancel. Each subscriber starts from the value current when it subscribed or a later one,
/// never sees values go backwards, and once the writers stop and the schedulers drain, every live
/// observer's last value is the final value.
@Suite(.timeLimit(.minutes(3))) struct ObservationPathStressTests {
    /// An `ObservableObject` with one `@Published` counter.
    final class PublishedCounter: ObservableObject, @unchecked Sendable {
        // @unchecked Sendable: `@Published` storage is thread-safe; writes are serialized by the rig.
        @Published var value = 0
    }

    /// A way of observing the counter: what writes it, what reads it, how an observer subscribes,
    /// whether an observer receives the current value when it subscribes (those that do not are made
    /// live only before the writes start), and how to wait for deliveries in flight.
    struct Path: Sendable {
        var write: @Sendable (Int) -> Void
        var current: @Sendable () -> Int
        var subscribe: @Sendable (TestSubscriber<Int, Never>) -> Void
        var startsFromCurrent = true
        var drain: @Sendable () -> Void = {}
    }

    static let writers = 3
    static let writesPerWriter = 300
    static let churners = 2
    static let liveObservers = 8

    /// Runs the writers and the churning observers on `path`, then checks every live observer.
    static func check(_ path: Path, sourceLocation: SourceLocation = #_sourceLocation) {
        let written = LockedBox(0)
        let live = LockedBox<[TestSubscriber<Int, Never>]>([])
        @Sendable func observe() -> TestSubscriber<Int, Never> {
            let before = path.current()
            let subscriber = TestSubscriber<Int, Never>()
            path.subscribe(subscriber)
            let values = subscriber.values
            if path.startsFromCurrent {
                #expect(
                    (values.first ?? .min) >= before, "started older than \(before)", sourceLocation: sourceLocation)
            }
            return subscriber
        }
        for _ in 0..<(path.startsFromCurrent ? liveObservers / 2 : liveObservers) {
            live.mutate { $0.append(observe()) }
        }
        let done = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: writers + churners) { worker in
            if worker < writers {
                done.enter()
                for _ in 0..<writesPerWriter {
                    written.mutate {
                        $0 += 1
                        path.write($0)
                    }
                }
                done.leave()
                return
            }
            var round = 0
            while written.value < writers * writesPerWriter {
                let subscriber = observe()
                round += 1
                if path.startsFromCurrent, round.isMultiple(of: 50), worker == writers {
                    live.mutate { $0.append(subscriber) }
                } else {
                    subscriber.cancel()
                }
                // Read once: a value in flight when `cancel()` was called may still arrive, and a
                // kept observer goes on receiving, so two reads may differ.
                let values = subscriber.values
                #expect(values == values.sorted(), "went backwards", sourceLocation: sourceLocation)
            }
        }
        done.wait()
        if path.startsFromCurrent {
            for _ in 0..<liveObservers / 2 { live.mutate { $0.append(observe()) } }
        }
        path.drain()
        let final = writers * writesPerWriter
        #expect(path.current() == final, sourceLocation: sourceLocation)
        for subscriber in live.value {
            let values = subscriber.values
            #expect(values == values.sorted(), "went backwards", sourceLocation: sourceLocation)
            #expect(values.last == final, "ended at \(values.last ?? -1), not \(final)", sourceLocation: sourceLocation)
            #expect(subscriber.completion == nil, sourceLocation: sourceLocation)
            subscriber.cancel()
        }
    }

    @Test func publishedProperty() {
        let model = PublishedCounter()
        Self.check(
            Path(
                write: { model.value = $0 }, current: { model.value },
                subscribe: { model.$value.subscribe($0) }))
    }

    @Test func objectDidChangeReadingTheModel() {
        // objectWillChange fires before the store, so an observer that reads the model reads it
        // once it is stored: on objectDidChange.
        let model = PublishedCounter()
        Self.check(
            Path(
                write: { model.value = $0 }, current: { model.value },
                subscribe: { model.objectDidChange.map { model.value }.subscribe($0) }, startsFromCurrent: false))
    }

    @Test func storeSlice() {
        struct State {
            var value = 0
            var other = ""
        }
        let store = Store(State())
        _ = store.slice(\.other)
        Self.check(
            Path(
                write: { value in store.update { $0.value = value } }, current: { store.value },
                subscribe: { store.slice(\.value).subscribe($0) }))
    }

    @Test func deduplicated() {
        let model = PublishedCounter()
        let wrappers = LockedBox<[Deduplicated<PublishedCounter, Int>]>([])
        Self.check(
            Path(
                write: { model.value = $0 }, current: { model.value },
                subscribe: { subscriber in
                    let wrapper = model.deduplicated { $0.value }
                    wrappers.mutate { $0.append(wrapper) }
                    wrapper.objectWillChange.map { wrapper.snapshot }.subscribe(subscriber)
                }, startsFromCurrent: false))
        for wrapper in wrappers.value { #expect(wrapper.snapshot == Self.writers * Self.writesPerWriter) }
    }

    @Test func observedPublisher() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let wrapper = ObservedPublisher(publisher: subject.map { $0 }.removeDuplicates(), initial: 0)
        Self.check(
            Path(
                write: { subject.send($0) }, current: { wrapper.wrappedValue },
                subscribe: { wrapper.projectedValue.subscribe($0) }))
        #expect(wrapper.wrappedValue == Self.writers * Self.writesPerWriter)
    }

    @Test func observationBridgeOnAQueue() {
        let model = ThreadSafeCounter()
        let queue = DispatchQueue(label: "observation-path")
        Self.check(
            Path(
                write: { model.value = $0 }, current: { model.value },
                subscribe: { model.publisher(for: \.value, scheduler: queue).subscribe($0) },
                drain: {
                    queue.sync {}
                    queue.sync {}
                }))
    }

    #if !canImport(Darwin)
        @Test func observationBridgeOnTheImmediateScheduler() {
            // Apple's SDKs announce a change before the value is stored, so a read made at once
            // cannot see it there (ObservationSchedulingTests).
            let model = ThreadSafeCounter()
            Self.check(
                Path(
                    write: { model.value = $0 }, current: { model.value },
                    subscribe: { model.publisher(for: \.value, scheduler: ImmediateScheduler.shared).subscribe($0) }))
        }
    #endif

    @Test func observationBridgeOnARunLoop() {
        let thread = RunLoopThread()
        let model = ThreadSafeCounter()
        Self.check(
            Path(
                write: { model.value = $0 }, current: { model.value },
                subscribe: { model.publisher(for: \.value, scheduler: thread.runLoop).subscribe($0) },
                drain: {
                    thread.drain()
                    thread.drain()
                }))
        thread.stop()
    }
}

/// A value guarded by a lock, for test bookkeeping shared by threads.
final class LockedBox<Value>: @unchecked Sendable {
    // @unchecked Sendable: `stored` is only touched with `lock` held.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        lock.withLock { stored }
    }

    func mutate(_ body: (inout Value) -> Void) {
        lock.withLock { body(&stored) }
    }
}

/// A thread that runs its run loop until stopped, for tests of run-loop scheduling.
final class RunLoopThread: @unchecked Sendable {
    // @unchecked Sendable: `loop` is written once, before `started` is signalled, then only read;
    // `running` is only touched with `lock` held.
    private var loop: RunLoop?
    private let started = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var running = true
    private let finished = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [self] in
            loop = RunLoop.current
            // A timer keeps the run loop from returning at once while nothing is scheduled.
            loop?.add(Timer(timeInterval: 3_600, repeats: true) { _ in }, forMode: .default)
            started.signal()
            while lock.withLock({ running }) {
                _ = loop?.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
            }
            finished.signal()
        }
        thread.start()
        started.wait()
    }

    var runLoop: RunLoop {
        loop!
    }

    /// Returns once everything scheduled on the run loop before the call has run.
    func drain() {
        let ran = DispatchSemaphore(value: 0)
        runLoop.schedule { ran.signal() }
        ran.wait()
    }

    func stop() {
        lock.withLock { running = false }
        finished.wait()
    }
}
