import BenchmarkCore
import OpenCombine

extension OpenCombineScenarios {
    /// 10. The bridge people write by hand: a subject, subscribed first, fed by a task that iterates
    /// the `AsyncStream` and sends each value, then the completion.
    public static func asyncSequence(values: Int, probe: Probe) async -> Int {
        let stream = AsyncSequenceWork.filledStream(values: values)
        let tally = Tally()
        let subject = PassthroughSubject<Int, Never>()
        var cancellable: AnyCancellable?
        probe.start()
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            cancellable = subject.sink(receiveCompletion: { _ in finished.resume() }, receiveValue: { tally.add($0) })
            let feeder = SubjectFeeder(subject: subject)
            Task {
                for await value in stream { feeder.send(value) }
                feeder.finish()
            }
        }
        probe.stop()
        cancellable?.cancel()
        return tally.checksum
    }
}

/// Hands a subject to the feeding task. `@unchecked Sendable`: OpenCombine's subject is thread-safe
/// but not marked `Sendable`.
private struct SubjectFeeder: @unchecked Sendable {
    let subject: PassthroughSubject<Int, Never>

    func send(_ value: Int) {
        subject.send(value)
    }

    func finish() {
        subject.send(completion: .finished)
    }
}
