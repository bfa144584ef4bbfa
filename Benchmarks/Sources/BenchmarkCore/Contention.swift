import CAllocCounter
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Scenario 7 (and scaling scenario M2): several threads send flat out into one subject. The rig is
/// the same for every implementation: it owns the receivers the subscribers record into, starts the
/// sender threads together, times them, samples memory and backlog meanwhile (unless told not to), and
/// checks that every value whose `send` had returned had reached every subscriber: each sender thread
/// right after its own last `send` returned (its own values), and the rig once every sender had been
/// joined (all values). The receivers also count the values that did not follow the previous value
/// from the same sender (``ContentionStats/outOfOrder``).
///
/// Sender thread `t` (from 0) sends `index << threadBits | t` for `index` in `0..<valuesPerThread`:
/// every value once, and its low `threadBits` bits say which thread sent it, so a subscriber counts per
/// thread with no division. `threadBits` is 3 for up to 8 threads (so scenario 7's values are
/// `index << 3 | t`), and as many as the thread numbers need beyond.
public final class ContentionRig {
    /// The most sender threads a rig supports: the thread number takes at most the low 10 bits of a
    /// value.
    public static let maximumThreads = 1 << 10

    /// The low bits of a value that name its sender thread, for `threads` threads: at least 3.
    public static func threadBits(forThreads threads: Int) -> Int {
        var bits = 3
        while 1 << bits < threads { bits += 1 }
        return bits
    }

    /// Resident memory growth past which the sampler stops the senders and the run counts as an
    /// unbounded backlog: 2 GiB, well below this machine's memory.
    public static let residentLimitBytes = 2 << 30

    /// Sender threads.
    public let threads: Int
    /// Values each sender thread sends.
    public let valuesPerThread: Int
    /// One per subscriber: subscriber `i` records what it receives into `receivers[i]`.
    public let receivers: [ContentionReceiver]
    /// Whether the rig trims the heap first, samples memory and backlog during the run and stops the
    /// senders when memory grows past ``residentLimitBytes``.
    public let watchesMemory: Bool
    private let threadBits: Int
    private let senders: [ContentionSender]
    private let control = Control()

    /// A rig for `threads` sender threads that send `valuesPerThread` values each to `subscribers`
    /// subscribers. With `watchesMemory` false there is no sampler thread, no memory guard and no reset
    /// of the process's peak resident size (which a caller measuring the whole process's peak needs);
    /// the stats' memory and backlog fields are then nil and 0.
    public init(threads: Int, valuesPerThread: Int, subscribers: Int, watchesMemory: Bool = true) {
        precondition(threads > 0 && threads <= Self.maximumThreads, "1 to \(Self.maximumThreads) sender threads")
        self.threads = threads
        self.valuesPerThread = valuesPerThread
        self.watchesMemory = watchesMemory
        let threadBits = Self.threadBits(forThreads: threads)
        self.threadBits = threadBits
        receivers = (0..<subscribers).map { _ in ContentionReceiver(threadBits: threadBits) }
        senders = (0..<threads).map { _ in ContentionSender() }
    }

    /// Runs the senders, each calling `send` for its values, and returns the checksum of what the
    /// subscribers had received once the last sender had been joined. The probe measures from the
    /// moment the senders are let go to the moment the last `send` returned, and keeps the run's
    /// ``ContentionStats``, which tell whether the delivery contract held.
    ///
    /// `send` is called from several threads at once: that is the point of the scenario. The rig can
    /// run once.
    public func run(probe: Probe, send: @escaping (Int) -> Void) -> Int {
        let send = UncheckedSend(send)
        // Memory that earlier runs freed goes back to the system first, so that every run starts from
        // a similar resident size and the growth measured is its own.
        if watchesMemory { _ = bench_trim_heap() }
        let sampler = watchesMemory ? startThread { [self] in sample() } : nil
        let senderThreads = (0..<threads).map { thread in
            startThread { [self] in sendValues(thread: thread, send: send.body) }
        }
        while control.ready.load(ordering: .acquiring) < threads { sched_yield() }
        let residentBefore = watchesMemory ? ProcessMemory.residentBytes() ?? 0 : 0
        let heapBefore = watchesMemory ? Int(bench_heap_in_use()) : -1
        let highWaterMarkReset = watchesMemory && ProcessMemory.resetHighWaterMark()
        control.residentBefore.store(residentBefore, ordering: .relaxed)
        control.armed.store(watchesMemory, ordering: .releasing)

        probe.start()
        let start = Probe.now()
        control.go.store(true, ordering: .releasing)
        for thread in senderThreads { join(thread) }
        let end = senders.reduce(0) { max($0, $1.finishedAt.load(ordering: .acquiring)) }
        probe.stop(endedAt: end)

        // What had arrived once every send had returned; the contract is: all of it.
        var deliveredAtJoin = 0
        var checksum = 0
        var outOfOrder = 0
        for receiver in receivers {
            let count = receiver.count
            deliveredAtJoin += count
            checksum = checksum &+ (receiver.sum &* 1_000_003 &+ count)
            outOfOrder += receiver.outOfOrder
        }
        let sent = senders.reduce(0) { $0 + $1.returned.load(ordering: .acquiring) }
        let deliveredWhenSendsReturned = senders.reduce(0) { $0 + $1.deliveredAtEnd.load(ordering: .acquiring) }
        let expected = sent * receivers.count
        sampleOnce()
        control.finished.store(true, ordering: .releasing)
        if let sampler { join(sampler) }
        let highWaterMark = highWaterMarkReset ? ProcessMemory.highWaterMarkBytes() : nil
        let peak = max(control.maximumResident.load(ordering: .acquiring), highWaterMark ?? 0)

        // Values still missing: wait for them, ten seconds at most, to tell late ones from lost ones.
        var lateBy: UInt64?
        var missingAfterWait = 0
        if deliveredAtJoin != expected {
            let deadline = Probe.now() + 10_000_000_000
            while true {
                let delivered = receivers.reduce(0) { $0 + $1.count }
                if delivered == expected {
                    lateBy = Probe.now() - end
                    break
                }
                if Probe.now() > deadline {
                    missingAfterWait = expected - delivered
                    break
                }
                usleep(1_000)
            }
        }

        probe.contention = ContentionStats(
            sent: sent,
            subscribers: receivers.count,
            deliveredWhenSendsReturned: deliveredWhenSendsReturned,
            deliveredAtJoin: deliveredAtJoin,
            lateByNanoseconds: lateBy,
            missingAfterWait: missingAfterWait,
            outOfOrder: outOfOrder,
            peakResidentGrowthBytes: residentBefore > 0 ? max(0, peak - residentBefore) : nil,
            peakHeapGrowthBytes: heapBefore >= 0
                ? max(0, control.maximumHeap.load(ordering: .acquiring) - heapBefore) : nil,
            maximumBacklog: control.maximumBacklog.load(ordering: .acquiring),
            unboundedBacklog: control.stopped.load(ordering: .acquiring),
            stoppedAfterNanoseconds: control.stopped.load(ordering: .acquiring)
                ? control.stoppedAt.load(ordering: .relaxed) - start : nil)
        return checksum
    }

    // MARK: Threads

    private func sendValues(thread: Int, send: (Int) -> Void) {
        let sender = senders[thread]
        control.ready.wrappingAdd(1, ordering: .releasing)
        while !control.go.load(ordering: .acquiring) { sched_yield() }
        var sent = 0
        for index in 0..<valuesPerThread {
            if index & 1023 == 0, control.stopped.load(ordering: .relaxed) { break }
            send(index << threadBits | thread)
            sent = index + 1
            // Releasing: a sampler that sees this count also sees what the delivery wrote.
            sender.returned.store(sent, ordering: .releasing)
        }
        sender.finishedAt.store(Probe.now(), ordering: .releasing)
        // Every one of this thread's sends has returned, so the contract says every subscriber has
        // received all of its values by now.
        var delivered = 0
        for receiver in receivers { delivered += receiver.count(fromThread: thread) }
        sender.deliveredAtEnd.store(delivered, ordering: .releasing)
    }

    /// Samples every millisecond until the run is over.
    private func sample() {
        while !control.finished.load(ordering: .acquiring) {
            sampleOnce()
            usleep(1_000)
        }
    }

    /// Records the resident size and the backlog, and stops the senders if memory has grown past the
    /// limit. It allocates nothing, so the allocation count of a run is the implementation's own.
    private func sampleOnce() {
        guard control.armed.load(ordering: .acquiring) else { return }
        // Returned sends first, then deliveries: a delivery that happens in between can only make the
        // backlog look smaller, never larger, so an implementation with none shows none.
        var returned = 0
        for sender in senders { returned += sender.returned.load(ordering: .acquiring) }
        var delivered = Int.max
        for receiver in receivers { delivered = min(delivered, receiver.count) }
        if delivered != Int.max, returned > delivered {
            control.maximumBacklog.raise(to: returned - delivered)
        }
        if let resident = ProcessMemory.residentBytes() {
            control.maximumResident.raise(to: resident)
            if resident - control.residentBefore.load(ordering: .relaxed) > Self.residentLimitBytes,
                !control.stopped.exchange(true, ordering: .relaxed)
            {
                control.stoppedAt.store(Probe.now(), ordering: .relaxed)
            }
        }
        control.maximumHeap.raise(to: Int(bench_heap_in_use()))
    }

    /// The state the senders, the sampler and the rig share.
    private final class Control: Sendable {
        let ready = Atomic<Int>(0)
        let go = Atomic<Bool>(false)
        let finished = Atomic<Bool>(false)
        /// Set by the memory guard: the senders stop sending.
        let stopped = Atomic<Bool>(false)
        let stoppedAt = Atomic<UInt64>(0)
        /// Set once the senders are ready and the memory before the run is known; the sampler records
        /// nothing before.
        let armed = Atomic<Bool>(false)
        let residentBefore = Atomic<Int>(0)
        let maximumResident = Atomic<Int>(0)
        let maximumHeap = Atomic<Int>(0)
        let maximumBacklog = Atomic<Int>(0)
    }
}

/// What one run of a contention scenario observed besides its time.
public struct ContentionStats: Sendable {
    /// Values whose `send` returned (all of them, unless the memory guard stopped the senders).
    public var sent: Int
    /// Subscribers of the subject.
    public var subscribers: Int
    /// Each sender thread's own values counted by all subscribers together right after that
    /// thread's last `send` returned, summed over the threads.
    public var deliveredWhenSendsReturned: Int
    /// Values counted by all subscribers together once every sender had been joined.
    public var deliveredAtJoin: Int
    /// When values were missing at the join and all arrived later: how long after the last `send`
    /// returned.
    public var lateByNanoseconds: UInt64?
    /// When values were missing at the join: how many had still not arrived ten seconds later.
    public var missingAfterWait: Int
    /// Deliveries whose value was not the one after the previous value the same subscriber had
    /// received from the same sender thread (a value repeated, skipped or out of order), counted until
    /// the join. Not part of ``deliveredBeforeSendReturned``.
    public var outOfOrder: Int
    /// Peak resident memory during the run minus the resident memory before it; nil where the
    /// process's memory cannot be read.
    public var peakResidentGrowthBytes: Int?
    /// The most heap memory in use (allocated, not yet freed) during the run minus that before it,
    /// sampled about every millisecond; nil where the allocator cannot say. Unlike resident memory, it
    /// also counts memory the allocator had kept from earlier runs and hands out again.
    public var peakHeapGrowthBytes: Int?
    /// The most values seen at once whose `send` had returned but that some subscriber had not yet
    /// received (sampled about every millisecond).
    public var maximumBacklog: Int
    /// Whether the memory guard stopped the senders (see ``ContentionRig/residentLimitBytes``).
    public var unboundedBacklog: Bool
    /// When the memory guard stopped the senders: how long after they started.
    public var stoppedAfterNanoseconds: UInt64?

    /// What the subscribers should have counted, when each sender's sends had returned and at the
    /// join alike: every value sent, once per subscriber.
    public var expected: Int { sent * subscribers }

    /// Whether every value whose `send` had returned had reached every subscriber, both when each
    /// sender thread checked right after its last `send` and once all had been joined.
    public var deliveredBeforeSendReturned: Bool {
        deliveredWhenSendsReturned == expected && deliveredAtJoin == expected
    }
}

/// What one subscriber of a contention scenario received: how many values from each sender thread,
/// their sum, and how many did not follow the previous one from their thread. Only one thread at a
/// time calls `receive` (each implementation serializes the calls to a subscriber), but the sampler and
/// the sender threads read the counts meanwhile, so the counters are atomics, written with plain loads
/// and stores. They sit on cache lines of their own.
///
/// A value is `index << threadBits | thread` (see ``ContentionRig``): the count of a thread's values
/// received so far is also the index its next value must have, so checking the order costs one
/// comparison.
public final class ContentionReceiver: @unchecked Sendable {
    // @unchecked: `slots` points to atomics, which any thread may read; only the one thread that is
    // delivering to this subscriber writes them.

    /// Counters per sender thread (`1 << threadBits` of them), then the sum, then the values out of
    /// order.
    @usableFromInline
    let slots: UnsafeMutablePointer<Atomic<Int>>
    /// The low bits of a value that name its sender thread.
    @usableFromInline
    let threadBits: Int

    /// Sender-thread counters.
    @usableFromInline
    var threadSlots: Int { 1 << threadBits }

    /// A receiver that has received nothing, for values whose low `threadBits` bits name their sender
    /// thread.
    public init(threadBits: Int = 3) {
        self.threadBits = threadBits
        let slotCount = (1 << threadBits) + 2
        let byteCount = (slotCount * MemoryLayout<Atomic<Int>>.stride + 127) / 128 * 128
        let memory = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 128)
        slots = memory.bindMemory(to: Atomic<Int>.self, capacity: slotCount)
        for slot in 0..<slotCount { (slots + slot).initialize(to: Atomic(0)) }
    }

    deinit {
        slots.deinitialize(count: threadSlots + 2)
        UnsafeMutableRawPointer(slots).deallocate()
    }

    /// Records a value (sent by thread `value & (1 << threadBits - 1)`).
    @inlinable
    public func receive(_ value: Int) {
        let count = slots + (value & (threadSlots - 1))
        let received = count.pointee.load(ordering: .relaxed)
        if value >> threadBits != received {
            slots[threadSlots + 1].store(slots[threadSlots + 1].load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        }
        count.pointee.store(received &+ 1, ordering: .releasing)
        slots[threadSlots].store(slots[threadSlots].load(ordering: .relaxed) &+ value, ordering: .relaxed)
    }

    /// Values received from sender thread `thread`.
    func count(fromThread thread: Int) -> Int {
        slots[thread].load(ordering: .acquiring)
    }

    /// Values received in all.
    var count: Int {
        var total = 0
        for thread in 0..<threadSlots { total += slots[thread].load(ordering: .acquiring) }
        return total
    }

    /// The sum of the values received.
    var sum: Int {
        slots[threadSlots].load(ordering: .acquiring)
    }

    /// Values received that were not the one after the previous value from the same thread.
    var outOfOrder: Int {
        slots[threadSlots + 1].load(ordering: .acquiring)
    }
}

/// One sender thread's progress, on a cache line of its own.
final class ContentionSender: Sendable {
    /// Sends that have returned.
    let returned = Atomic<Int>(0)
    /// When the last send returned.
    let finishedAt = Atomic<UInt64>(0)
    /// This thread's values counted by all subscribers together right after its last send returned.
    let deliveredAtEnd = Atomic<Int>(0)
    private let padding: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}

/// The send closure handed to the sender threads.
private struct UncheckedSend: @unchecked Sendable {
    // @unchecked: the closure is called from several threads at once on purpose; the subject it sends
    // into is what the scenario measures, thread safety included.
    let body: (Int) -> Void

    init(_ body: @escaping (Int) -> Void) {
        self.body = body
    }
}

// MARK: - Memory

/// The process's resident memory, read from `/proc` (Linux only; nil elsewhere) without allocating.
public enum ProcessMemory {
    /// The resident set size now: the second field of `/proc/self/statm`, in pages.
    public static func residentBytes() -> Int? {
        withFile("/proc/self/statm", capacity: 256) { text in
            guard let space = text.firstIndex(of: UInt8(ascii: " ")) else { return nil }
            let pages = decimal(text[(space + 1)...].prefix { $0 != UInt8(ascii: " ") })
            return pages.map { $0 * Int(sysconf(Int32(_SC_PAGESIZE))) }
        }
    }

    /// The peak resident set size since the last reset (`VmHWM` in `/proc/self/status`).
    public static func highWaterMarkBytes() -> Int? {
        withFile("/proc/self/status", capacity: 8192) { text in
            let key = Array("VmHWM:".utf8)
            var index = text.startIndex
            while index < text.endIndex {
                let lineEnd = text[index...].firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex
                let line = text[index..<lineEnd]
                if line.starts(with: key) {
                    let digits = line.dropFirst(key.count).drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                        .prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                    return decimal(digits).map { $0 * 1024 }
                }
                index = lineEnd < text.endIndex ? text.index(after: lineEnd) : lineEnd
            }
            return nil
        }
    }

    /// Resets the peak resident set size to the current one (writes "5" to `/proc/self/clear_refs`);
    /// false if this system does not allow it.
    public static func resetHighWaterMark() -> Bool {
        #if os(Linux)
            let file = open("/proc/self/clear_refs", O_WRONLY)
            guard file >= 0 else { return false }
            defer { close(file) }
            var five = UInt8(ascii: "5")
            return write(file, &five, 1) == 1
        #else
            return false
        #endif
    }

    /// Reads a small file into a temporary buffer (on the stack when it is small) and passes its
    /// bytes to `body`.
    private static func withFile(
        _ path: StaticString, capacity: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Int?
    ) -> Int? {
        #if os(Linux)
            let file = open(UnsafeRawPointer(path.utf8Start).assumingMemoryBound(to: CChar.self), O_RDONLY)
            guard file >= 0 else { return nil }
            defer { close(file) }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
                var length = 0
                while length < buffer.count {
                    let count = read(file, buffer.baseAddress! + length, buffer.count - length)
                    if count <= 0 { break }
                    length += count
                }
                return body(UnsafeBufferPointer(rebasing: buffer[0..<length]))
            }
        #else
            return nil
        #endif
    }

    private static func decimal<Digits: Collection<UInt8>>(_ digits: Digits) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }
}

extension Atomic where Value == Int {
    /// Raises the value to `candidate` if it is larger.
    fileprivate func raise(to candidate: Int) {
        var current = load(ordering: .relaxed)
        while candidate > current {
            let (exchanged, original) = compareExchange(
                expected: current, desired: candidate, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
}
