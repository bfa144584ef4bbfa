import BenchmarkCore
import CAllocCounter

/// The process's memory at one moment: its resident set size (RSS, what the system counts against
/// it) and the bytes its heap has in use (allocated and not freed), where the system tells.
struct MemoryReading {
    /// Resident set size in bytes (`/proc/self/statm`), or nil where it cannot be read.
    let resident: Int?
    /// Bytes allocated and not yet freed (glibc's `mallinfo2`), or nil where unavailable.
    let heapInUse: Int?

    /// The memory now. Reads no file when neither is available, and allocates nothing.
    static func now() -> MemoryReading {
        let heap = bench_heap_in_use()
        return MemoryReading(resident: ProcessMemory.residentBytes(), heapInUse: heap >= 0 ? Int(heap) : nil)
    }

    /// Returns the memory the allocator holds free to the system (glibc's `malloc_trim`), then reads
    /// the memory: what is left is what is in use, not what the allocator kept for later.
    static func afterTrimming() -> MemoryReading {
        _ = bench_trim_heap()
        return now()
    }
}
