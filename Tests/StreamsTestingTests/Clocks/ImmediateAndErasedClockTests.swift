import StreamsTesting
import Testing

/// The immediate, unimplemented and type-erased clocks, and clock timers.
@Suite @MainActor struct ImmediateAndErasedClockTests {
    @Test func anImmediateClocksSleepEndsAtOnceAtItsDeadline() async throws {
        let clock = ImmediateClock<Duration>(now: .init(offset: .seconds(10)))
        try await clock.sleep(for: .seconds(5))
        #expect(clock.now.offset == .seconds(15))
        try await clock.sleep(until: .init(offset: .seconds(1)))  // never back
        #expect(clock.now.offset == .seconds(15))
        #expect(clock.minimumResolution == .zero)
        let shared: ImmediateClock<Duration> = .immediate
        #expect(shared.now == .init())
    }

    @Test func anImmediateClocksSleepInACancelledTaskThrows() async {
        let clock = ImmediateClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.now.offset == .zero)
    }

    @Test func anUnimplementedClockReportsEachUseAndGoesOn() async throws {
        let clock = UnimplementedClock()
        let issues = await recordedIssues {
            try? await clock.sleep(for: .seconds(2))
        }
        #expect(issues == ["Unimplemented: Clock.now", "Unimplemented: Clock.sleep"])
        let named = UnimplementedClock(name: "ContinuousClock")
        #expect(recordedIssues { _ = named.minimumResolution } == ["Unimplemented: ContinuousClock.minimumResolution"])
        let later = recordedIssues { _ = clock.now }
        #expect(later == ["Unimplemented: Clock.now"])
    }

    @Test func anUnimplementedClockWrapsAnyClockUnderItsTypesName() async {
        let base = TestClock()
        let clock = UnimplementedClock(base)
        let issues = recordedIssues { _ = clock.now }
        #expect(issues == ["Unimplemented: TestClock<Duration>.now"])
        let shared: UnimplementedClock<Duration> = .unimplemented()
        #expect(recordedIssues { _ = shared.now } == ["Unimplemented: Clock.now"])
    }

    @Test func anErasedClockCountsFromTheMomentOfWrappingAndSleepsOnTheWrappedClock() async throws {
        let base = TestClock<Duration>(now: .init(offset: .seconds(100)))
        let clock = AnyClock(base)
        #expect(clock.now.offset == .zero)
        let sleeper = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(2))) }
        await untilSleeping(1, on: base)
        await base.advance(by: .seconds(1))
        #expect(base.sleepCount == 1)
        await base.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.now.offset == .seconds(2))
        base.minimumResolution = .milliseconds(5)
        #expect(clock.minimumResolution == .milliseconds(5))
    }

    @Test func aTimerSkipsTicksItsConsumerMissedAndKeepsToItsGrid() async throws {
        let clock = ImmediateClock()
        var ticks = clock.timer(interval: .seconds(1)).makeAsyncIterator()
        #expect(await ticks.next()?.offset == .seconds(1))
        try await clock.sleep(until: .init(offset: .milliseconds(3500)))  // the consumer is busy
        #expect(await ticks.next()?.offset == .seconds(4))
        #expect(await ticks.next()?.offset == .seconds(5))
    }

    @Test func aTimerEndsWhenItsTaskIsCancelled() async {
        let clock = TestClock()
        let ticking = Task {
            var count = 0
            for await _ in clock.timer(interval: .seconds(1)) { count += 1 }
            return count
        }
        await untilSleeping(1, on: clock)
        await clock.advance(by: .seconds(3))
        ticking.cancel()
        #expect(await ticking.value == 3)
        #expect(clock.sleepCount == 0)
    }
}
