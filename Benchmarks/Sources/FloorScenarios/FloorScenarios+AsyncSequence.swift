import BenchmarkCore

extension FloorScenarios {
    /// 10. Iterating the `AsyncStream` directly with `for await`.
    public static func asyncSequence(values: Int, probe: Probe) async -> Int {
        let stream = AsyncSequenceWork.filledStream(values: values)
        let tally = Tally()
        probe.start()
        for await value in stream { tally.add(value) }
        probe.stop()
        return tally.checksum
    }
}
