import BenchmarkCore
import Streams

extension StreamsScenarios {
    /// 10. An `AsyncStream` holding every value, turned into a publisher with `publisher` and
    /// consumed by a `sink`; the time runs from subscribing until the completion arrives.
    public static func asyncSequence(values: Int, probe: Probe) async -> Int {
        let stream = AsyncSequenceWork.filledStream(values: values)
        let tally = Tally()
        var cancellable: AnyCancellable?
        probe.start()
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            cancellable = stream.publisher.sink(
                receiveCompletion: { _ in finished.resume() }, receiveValue: { tally.add($0) })
        }
        probe.stop()
        cancellable?.cancel()
        return tally.checksum
    }
}
