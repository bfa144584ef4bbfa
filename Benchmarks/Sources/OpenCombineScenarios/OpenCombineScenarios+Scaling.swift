import BenchmarkCore
import OpenCombine

/// The scaling scenarios (`--threads`), written against OpenCombine 0.14.0 exactly as Combine code would be.
extension OpenCombineScenarios {
    /// M1. Each thread its own PassthroughSubject → map → filter → removeDuplicates → sink, built by
    /// that thread; nothing shared.
    public static func independentPipelines(threads: Int, valuesPerThread: Int) -> ScalingOutcome {
        IndependentThreads.run(threads: threads, operationsPerThread: valuesPerThread) { _ in
            let subject = PassthroughSubject<Int, Never>()
            let recorder = ThreadRecorder()
            let cancellable =
                subject
                .map { PipelineWork.transform($0) }
                .filter { PipelineWork.isIncluded($0) }
                .removeDuplicates()
                .sink { recorder.chain($0) }
            return ThreadWork(
                run: {
                    for index in 0..<valuesPerThread { subject.send(PipelineWork.input(index)) }
                },
                check: {
                    cancellable.cancel()
                    return PipelineWork.mismatch(recorder, values: valuesPerThread).map { [$0] } ?? []
                })
        }
    }

    /// M2. Every thread sends flat out into one PassthroughSubject with one sink.
    public static func sharedSubject(threads: Int, valuesPerThread: Int) -> ScalingOutcome {
        let rig = ContentionRig(
            threads: threads, valuesPerThread: valuesPerThread, subscribers: 1, watchesMemory: false)
        let subject = PassthroughSubject<Int, Never>()
        let receiver = rig.receivers[0]
        let cancellable = subject.sink { receiver.receive($0) }
        let outcome = rig.runScaling { subject.send($0) }
        cancellable.cancel()
        return outcome
    }

    /// M3. Every thread subscribes map + sink to one subject and cancels, again and again, while one
    /// more thread sends into that subject.
    public static func subscribeChurn(threads: Int, pairsPerThread: Int) -> ScalingOutcome {
        let subject = PassthroughSubject<Int, Never>()
        return ChurnRig.run(churners: threads, pairsPerChurner: pairsPerThread, send: { subject.send($0) }) {
            recorder, serial in
            let cancellable = subject.map { ChurnRig.transform($0) }.sink { recorder.receive($0, subscription: serial) }
            cancellable.cancel()
        }
    }

    /// M4. Each thread its own ObservableObject with one @Published property and `sinks` sinks on its
    /// `$value`, built by that thread; nothing shared. Each sink must see the initial value and then
    /// every write, in order.
    public static func independentPublished(threads: Int, writesPerThread: Int, sinks: Int) -> ScalingOutcome {
        IndependentThreads.run(threads: threads, operationsPerThread: writesPerThread) { _ in
            let model = PublishedCounter()
            let recorders = (0..<sinks).map { _ in ThreadRecorder() }
            let cancellables = recorders.map { recorder in model.$value.sink { recorder.expect($0) } }
            return ThreadWork(
                run: {
                    for write in 0..<writesPerThread { model.value = write + 1 }
                },
                check: {
                    for cancellable in cancellables { cancellable.cancel() }
                    return recorders.enumerated().compactMap { index, recorder in
                        recorder.mismatch(expectingUpTo: writesPerThread).map { "sink \(index): \($0)" }
                    }
                })
        }
    }
}

/// M4's model: one published property.
final class PublishedCounter: ObservableObject {
    @Published var value = 0
}
