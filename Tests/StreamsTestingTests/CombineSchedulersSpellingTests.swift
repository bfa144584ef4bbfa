import Foundation
import Streams
import StreamsTesting
import Testing

/// Every public name combine-schedulers 1.2.2 declares that exists off Apple's platforms, spelled as
/// a test target written against combine-schedulers spells it, so that such a target compiles after
/// changing only its imports. Each name is also used, and its result checked. Two exceptions: its
/// SwiftUI `animation(_:)`/`transaction(_:)` and UIKit `animate` need frameworks Linux lacks, and its
/// generic `ImmediateScheduler<Time, Options>` is `ImmediateTestScheduler` here, because `Streams`
/// has Combine's non-generic `ImmediateScheduler` (`ImmediateSchedulerOf<S>` is the same in both).
@Suite struct CombineSchedulersSpellingTests {
    // MARK: Publishers.Timer

    @Test func publishersTimerIsTheSchedulerTimer() {
        let scheduler = DispatchQueue.test
        let timer: Publishers.Timer<TestSchedulerOf<DispatchQueue>> = Publishers.Timer(
            every: .seconds(1), tolerance: nil, scheduler: scheduler, options: nil)
        #expect(timer.interval == .seconds(1))
        #expect(timer.tolerance == nil)
        #expect(timer.options == nil)
        #expect(timer.scheduler === scheduler)
        var ticks: [DispatchQueue.SchedulerTimeType] = []
        let cancellable = timer.autoconnect().sink { ticks.append($0) }
        scheduler.advance(by: .seconds(3))
        #expect(ticks.map { scheduler.now.distance(to: $0) } == [.seconds(-2), .seconds(-1), .zero])
        cancellable.cancel()
    }

    @Test func timerPublisherReturnsAPublishersTimer() {
        let scheduler = DispatchQueue.test
        let timer: Publishers.Timer<TestSchedulerOf<DispatchQueue>> = scheduler.timerPublisher(every: .seconds(2))
        var count = 0
        let cancellable = timer.autoconnect().sink { _ in count += 1 }
        scheduler.advance(by: .seconds(5))
        #expect(count == 2)
        cancellable.cancel()
    }

    // MARK: Test, immediate and unimplemented schedulers

    @Test func testSchedulersOfEveryKind() {
        let dispatch: TestSchedulerOf<DispatchQueue> = DispatchQueue.test
        let runLoop: TestSchedulerOf<RunLoop> = RunLoop.test
        let operationQueue: TestSchedulerOf<OperationQueue> = OperationQueue.test
        let ui: TestSchedulerOf<UIScheduler> = UIScheduler.test
        let made = TestScheduler<DispatchQueue.SchedulerTimeType, Never>(now: .init(.init(uptimeNanoseconds: 1)))
        var ran: [String] = []
        dispatch.schedule { ran.append("dispatch") }
        runLoop.schedule { ran.append("runLoop") }
        operationQueue.schedule { ran.append("operationQueue") }
        ui.schedule { ran.append("ui") }
        made.schedule(after: made.now.advanced(by: .seconds(5))) { ran.append("made") }
        dispatch.advance()
        runLoop.run()
        operationQueue.advance(to: operationQueue.now)
        ui.advance(by: .zero)
        made.advance(by: .seconds(5))
        #expect(ran == ["dispatch", "runLoop", "operationQueue", "ui", "made"])
        #expect(made.now == .init(.init(uptimeNanoseconds: 5_000_000_001)))
        #expect(made.minimumTolerance == .zero)
    }

    @Test func immediateSchedulersOfEveryKind() {
        let schedulers: [String: (@escaping () -> Void) -> Void] = [
            "dispatch": { DispatchQueue.immediate.schedule($0) },
            "runLoop": { RunLoop.immediate.schedule($0) },
            "operationQueue": { OperationQueue.immediate.schedule($0) },
            "ui": { UIScheduler.immediate.schedule($0) },
            "any dispatch": { AnySchedulerOf<DispatchQueue>.immediate.schedule($0) },
            "any runLoop": { AnySchedulerOf<RunLoop>.immediate.schedule($0) },
            "any operationQueue": { AnySchedulerOf<OperationQueue>.immediate.schedule($0) },
            "made": { ImmediateSchedulerOf<DispatchQueue>(now: .init(.init(uptimeNanoseconds: 1))).schedule($0) },
        ]
        var ran: [String] = []
        for (name, schedule) in schedulers.sorted(by: { $0.key < $1.key }) { schedule { ran.append(name) } }
        #expect(ran == schedulers.keys.sorted())
        let typed: ImmediateSchedulerOf<DispatchQueue> = DispatchQueue.immediate
        #expect(typed.minimumTolerance == .zero)
    }

    @Test func unimplementedSchedulersOfEveryKindAreNamedAsTheirs() {
        let dispatch: UnimplementedSchedulerOf<DispatchQueue> = DispatchQueue.unimplemented("feature")
        let made = UnimplementedScheduler<RunLoop.SchedulerTimeType, Never>("made", now: .init(.distantPast))
        #expect(dispatch.prefix == "feature")
        #expect(made.prefix == "made")
        #expect(DispatchQueue.unimplemented.prefix == "DispatchQueue")
        #expect(RunLoop.unimplemented("r").prefix == "r")
        #expect(OperationQueue.unimplemented.prefix == "OperationQueue")
        let erased: [AnySchedulerOf<DispatchQueue>] = [.unimplemented, .unimplemented("any")]
        let erasedRunLoop: [AnySchedulerOf<RunLoop>] = [.unimplemented, .unimplemented("any")]
        let erasedQueue: [AnySchedulerOf<OperationQueue>] = [.unimplemented, .unimplemented("any")]
        #expect(erased.count + erasedRunLoop.count + erasedQueue.count == 6)
    }

    /// combine-schedulers' deprecated names, checked by compiling: deprecated here as there, they
    /// are spelled only inside this deprecated function, which nothing calls.
    @available(*, deprecated, message: "spells combine-schedulers' deprecated names on purpose")
    func failingNamesStillSpellTheUnimplementedSchedulers() -> [String] {
        let made: FailingScheduler<RunLoop.SchedulerTimeType, Never> = .init(now: .init(.distantPast))
        let dispatch: [FailingSchedulerOf<DispatchQueue>] = [DispatchQueue.failing, DispatchQueue.failing("x")]
        let runLoop: [UnimplementedSchedulerOf<RunLoop>] = [RunLoop.failing, RunLoop.failing("x")]
        let queue: [UnimplementedSchedulerOf<OperationQueue>] = [OperationQueue.failing, OperationQueue.failing("x")]
        return [made.prefix] + dispatch.map(\.prefix) + runLoop.map(\.prefix) + queue.map(\.prefix)
    }

    // MARK: Type erasure

    @Test func anySchedulerConveniences() {
        let test = DispatchQueue.test
        let erased: AnySchedulerOf<DispatchQueue> = test.eraseToAnyScheduler()
        var ran = false
        erased.schedule { ran = true }
        test.advance()
        #expect(ran)
        let built = AnySchedulerOf<DispatchQueue>(test)
        #expect(built.now == test.now)
        let main: AnySchedulerOf<DispatchQueue> = .main
        let global: AnySchedulerOf<DispatchQueue> = .global(qos: .userInitiated)
        let runLoopMain: AnySchedulerOf<RunLoop> = .main
        let operationQueueMain: AnySchedulerOf<OperationQueue> = .main
        let ui: AnySchedulerOf<UIScheduler> = .shared
        #expect(main.minimumTolerance == DispatchQueue.main.minimumTolerance)
        #expect(global.minimumTolerance == DispatchQueue.global().minimumTolerance)
        #expect(runLoopMain.minimumTolerance == RunLoop.main.minimumTolerance)
        #expect(operationQueueMain.minimumTolerance == OperationQueue.main.minimumTolerance)
        #expect(ui.minimumTolerance == UIScheduler.shared.minimumTolerance)
    }

    // MARK: Scheduler extensions

    @Test func sleepTimerAndMeasure() async throws {
        let scheduler = DispatchQueue.test
        let measured = scheduler.measure { scheduler.advance(by: .seconds(3)) }
        #expect(measured == .seconds(3))
        let sleeper = Task {
            try await scheduler.sleep(for: .seconds(1))
            try await scheduler.sleep(until: scheduler.now.advanced(by: .seconds(1)))
        }
        await scheduler.advance(by: .seconds(2))
        try await sleeper.value
        let ticker = Task { () -> Int in
            var ticks = 0
            for await _ in scheduler.timer(interval: .seconds(1)) {
                ticks += 1
                if ticks == 3 { break }
            }
            return ticks
        }
        await scheduler.advance(by: .seconds(3))
        #expect(await ticker.value == 3)
    }
}
