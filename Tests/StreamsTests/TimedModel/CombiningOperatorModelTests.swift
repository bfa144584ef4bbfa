import Foundation
import Streams
import StreamsTesting
import Testing

/// Random cases of the combining operators (`merge` of two to eight upstreams and `MergeMany`,
/// `zip`, `combineLatest`, `append`, `prepend`, `catch`, `prefix(untilOutputFrom:)`,
/// `drop(untilOutputFrom:)`, `share()`, `multicast(subject:)` with a scripted `connect()`) over subjects
/// the script sends into at random virtual times, interleaved on one time line, maybe followed by
/// time or synchronous operators, with random demand and cancelling; a shared publisher also has
/// other subscribers of its own, subscribing at random times: checked against ``TimedReference`` on
/// the test scheduler, event for event and second for second, for every subscriber.
///
/// Seeded and replayed as the other model tests are (``ModelRun``).
@Suite struct CombiningOperatorModelTests {
    static let defaultSeed: UInt64 = 0xC0B1_D0DE_2026
    static let defaultCaseCount = 4_000

    @Test func combiningCasesMatchTheModel() {
        checkTimedCases(
            suite: "CombiningOperatorModelTests", defaultSeed: Self.defaultSeed, defaultCount: Self.defaultCaseCount,
            stream: 5
        ) { TimedCase.randomCombining(using: &$0) }
    }
}
