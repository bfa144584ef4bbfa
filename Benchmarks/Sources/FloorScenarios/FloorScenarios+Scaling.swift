import BenchmarkCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The scaling scenarios (`--threads`) by hand: where the threads share nothing, the work with no
/// locks; where they share one subject, one pthread mutex held while calling the stored closures.
extension FloorScenarios {
    /// M1. Each thread its own ``Pipeline`` (scenario 1's stored closures and last-value check), built
    /// by that thread; no locks.
    public static func independentPipelines(threads: Int, valuesPerThread: Int) -> ScalingOutcome {
        IndependentThreads.run(threads: threads, operationsPerThread: valuesPerThread) { _ in
            let recorder = ThreadRecorder()
            let pipeline = Pipeline(
                transform: opaque { PipelineWork.transform($0) },
                isIncluded: opaque { PipelineWork.isIncluded($0) },
                receive: opaque { recorder.chain($0) })
            return ThreadWork(
                run: {
                    for index in 0..<valuesPerThread { pipeline.send(PipelineWork.input(index)) }
                },
                check: { PipelineWork.mismatch(recorder, values: valuesPerThread).map { [$0] } ?? [] })
        }
    }

    /// M2. Every thread sends into one ``LockedBroadcast`` of one stored closure: a pthread mutex held
    /// while calling it (scenario 7's floor).
    public static func sharedSubject(threads: Int, valuesPerThread: Int) -> ScalingOutcome {
        let rig = ContentionRig(
            threads: threads, valuesPerThread: valuesPerThread, subscribers: 1, watchesMemory: false)
        let receiver = rig.receivers[0]
        let broadcast = LockedBroadcast(handlers: [opaque { receiver.receive($0) }])
        return rig.runScaling { broadcast.send($0) }
    }

    /// M3. Every thread registers a mapping closure under a token in one ``LockedRegistry`` and
    /// removes it, again and again, while one more thread calls the registered closures under the
    /// registry's mutex.
    public static func subscribeChurn(threads: Int, pairsPerThread: Int) -> ScalingOutcome {
        let registry = LockedRegistry()
        let transform: (Int) -> Int = opaque { ChurnRig.transform($0) }
        return ChurnRig.run(churners: threads, pairsPerChurner: pairsPerThread, send: { registry.send($0) }) {
            recorder, serial in
            let token = registry.add(opaque { recorder.receive(transform($0), subscription: serial) })
            registry.remove(token)
        }
    }

    /// M4. Each thread its own ``ObservedCounter``: a property whose `willSet` calls a hand-written
    /// list of `sinks` closures with the new value (each also called with the current value when it
    /// is added, as a `$value` sink is); no locks.
    public static func independentPublished(threads: Int, writesPerThread: Int, sinks: Int) -> ScalingOutcome {
        IndependentThreads.run(threads: threads, operationsPerThread: writesPerThread) { _ in
            let model = ObservedCounter()
            let recorders = (0..<sinks).map { _ in ThreadRecorder() }
            for recorder in recorders { model.observe(opaque { recorder.expect($0) }) }
            return ThreadWork(
                run: {
                    for write in 0..<writesPerThread { model.value = write + 1 }
                },
                check: {
                    recorders.enumerated().compactMap { index, recorder in
                        recorder.mismatch(expectingUpTo: writesPerThread).map { "sink \(index): \($0)" }
                    }
                })
        }
    }
}

/// M3: handlers registered under integer tokens, behind one ``PthreadMutex`` that `send` holds while
/// calling them.
final class LockedRegistry {
    private let mutex = PthreadMutex()
    private var handlers: [Int: (Int) -> Void] = [:]
    private var nextToken = 0

    /// Registers a handler; returns its token.
    func add(_ handler: @escaping (Int) -> Void) -> Int {
        mutex.withLock {
            let token = nextToken
            nextToken += 1
            handlers[token] = handler
            return token
        }
    }

    /// Unregisters the handler of `token`: once this returns, it is called no more.
    func remove(_ token: Int) {
        mutex.withLock { handlers[token] = nil }
    }

    /// Calls every registered handler with `value`, holding the mutex.
    func send(_ value: Int) {
        mutex.withLock {
            for handler in handlers.values { handler(value) }
        }
    }
}

/// M4: one property and a list of observers its `willSet` calls with the new value.
final class ObservedCounter {
    private var observers: [(Int) -> Void] = []

    var value = 0 {
        willSet {
            for observer in observers { observer(newValue) }
        }
    }

    /// Adds an observer and calls it with the current value.
    func observe(_ observer: @escaping (Int) -> Void) {
        observers.append(observer)
        observer(value)
    }
}
