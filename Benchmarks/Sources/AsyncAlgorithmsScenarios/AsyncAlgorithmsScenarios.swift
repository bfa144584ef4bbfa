import AsyncAlgorithms
import BenchmarkCore

/// The scenarios as someone without Combine (on Linux, say) would write them with Swift concurrency:
/// an `AsyncStream` for each subject, its continuation's `yield` for `send`, the standard library's
/// and swift-async-algorithms 1.1.4's operators, and a task that iterates the result with
/// `for await` as the sink.
///
/// The measured stretch runs from the first `yield` until the consuming task has received the last
/// value, so it includes the hand-over from the sending task to the consuming one. Values are
/// yielded as fast as the sender can (each stream buffers without limit, `AsyncStream`'s default),
/// except in combineLatest (8b), which waits for each combined value before sending the next: see
/// there.
///
/// The harness runs each of these in a task of its own and waits for it.
public enum AsyncAlgorithmsScenarios {
    /// 1. AsyncStream → map → filter → removeDuplicates → for await.
    public static func pipeline(values: Int, probe: Probe) async -> Int {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let tally = Tally()
        let consumer = Task {
            let pipeline =
                stream
                .map { PipelineWork.transform($0) }
                .filter { PipelineWork.isIncluded($0) }
                .removeDuplicates()
            for await value in pipeline { tally.chain(value) }
        }
        probe.start()
        for index in 0..<values { continuation.yield(PipelineWork.input(index)) }
        continuation.finish()
        await consumer.value
        probe.stop()
        return tally.checksum
    }

    /// 8a. Eight streams merged into one. swift-async-algorithms merges two or three sequences at
    /// a time, so the eight are merged as three merges (3 + 3 + 2) inside a merge of three, which is
    /// how one writes it with this library. Each value passes through two merges.
    public static func merge(values: Int, probe: Probe) async -> Int {
        let upstreams = (0..<CombiningWork.mergeUpstreams).map { _ in AsyncStream.makeStream(of: Int.self) }
        let streams = upstreams.map(\.stream)
        let continuations = upstreams.map(\.continuation)
        let tally = Tally()
        let consumer = Task {
            let merged = AsyncAlgorithms.merge(
                AsyncAlgorithms.merge(streams[0], streams[1], streams[2]),
                AsyncAlgorithms.merge(streams[3], streams[4], streams[5]),
                AsyncAlgorithms.merge(streams[6], streams[7]))
            // The order in which a merge interleaves its upstreams is not defined: the checksum
            // ignores order.
            for await value in merged { tally.add(value) }
        }
        probe.start()
        for index in 0..<values { continuations[index % CombiningWork.mergeUpstreams].yield(index) }
        for continuation in continuations { continuation.finish() }
        await consumer.value
        probe.stop()
        return tally.checksum
    }

    /// 8b. combineLatest of three streams, values sent round-robin.
    ///
    /// Lock-step: after each value (once all three streams have had one), the sender waits for the
    /// combined tuple before it sends the next value. combineLatest iterates each upstream in a
    /// task of its own, so values yielded ahead would reach it in an order that depends on how those
    /// tasks are scheduled, and the tuples (and the checksum) would differ from run to run. Waiting
    /// gives the tuples a `PassthroughSubject` delivers, one per value, at the price of a hand-over
    /// to the upstream task and back for each value.
    public static func combineLatest(values: Int, probe: Probe) async -> Int {
        let upstreams = (0..<CombiningWork.combineLatestUpstreams).map { _ in AsyncStream.makeStream(of: Int.self) }
        let streams = upstreams.map(\.stream)
        let continuations = upstreams.map(\.continuation)
        let tally = Tally()
        var iterator = AsyncAlgorithms.combineLatest(streams[0], streams[1], streams[2]).makeAsyncIterator()
        probe.start()
        for index in 0..<values {
            continuations[index % CombiningWork.combineLatestUpstreams].yield(index)
            guard index >= CombiningWork.combineLatestUpstreams - 1 else { continue }
            guard let (a, b, c) = await iterator.next() else { preconditionFailure("combineLatest ended early") }
            tally.add(CombiningWork.combine(a, b, c))
        }
        for continuation in continuations { continuation.finish() }
        while let (a, b, c) = await iterator.next() { tally.add(CombiningWork.combine(a, b, c)) }
        probe.stop()
        return tally.checksum
    }

    /// 8c. zip of two streams, values sent alternately.
    public static func zip(values: Int, probe: Probe) async -> Int {
        let (first, firstContinuation) = AsyncStream.makeStream(of: Int.self)
        let (second, secondContinuation) = AsyncStream.makeStream(of: Int.self)
        let tally = Tally()
        let consumer = Task {
            // zip pairs the n-th values of its upstreams whatever the scheduling, so the order is
            // defined and the checksum keeps it.
            for await (a, b) in AsyncAlgorithms.zip(first, second) { tally.chain(CombiningWork.combine(a, b)) }
        }
        probe.start()
        for index in 0..<values {
            if index & 1 == 0 { firstContinuation.yield(index) } else { secondContinuation.yield(index) }
        }
        firstContinuation.finish()
        secondContinuation.finish()
        await consumer.value
        probe.stop()
        return tally.checksum
    }

    /// 8d. One stream shared with `share()` (swift-async-algorithms 1.1, default buffering policy
    /// `.bounded(1)`) by `subscribers` tasks, each iterating it with `for await`.
    ///
    /// Every iterator is made before the first value is sent: an iterator of a shared sequence
    /// receives only the values that arrive after it was made, so making them inside their tasks
    /// would let the first tasks start receiving before the last had joined.
    public static func share(subscribers: Int, values: Int, probe: Probe) async -> Int {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let shared = stream.share()
        var consumers: [Task<(sum: Int, count: Int), Never>] = []
        consumers.reserveCapacity(subscribers)
        for _ in 0..<subscribers {
            let iterator = shared.makeAsyncIterator()
            consumers.append(
                Task {
                    var iterator = iterator
                    var sum = 0
                    var count = 0
                    while let value = await iterator.next(isolation: nil) {
                        sum &+= value
                        count += 1
                    }
                    return (sum, count)
                })
        }
        probe.start()
        for index in 0..<values { continuation.yield(index) }
        continuation.finish()
        var received: [(sum: Int, count: Int)] = []
        received.reserveCapacity(subscribers)
        for consumer in consumers { received.append(await consumer.value) }
        probe.stop()
        let tally = Tally()
        for (sum, count) in received { tally.add(sum: sum, count: count) }
        return tally.checksum
    }
}
