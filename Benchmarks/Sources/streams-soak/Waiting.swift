#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Polls `condition` every millisecond until it holds or `seconds` have passed; returns whether it
/// held. For the end of a workload, where work on dispatch queues and in tasks settles on its own.
func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        if ContinuousClock.now >= deadline { return condition() }
        usleep(1_000)
    }
    return true
}
