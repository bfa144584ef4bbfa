import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct PublishersTimerTests {
    @Test func isStreamsSchedulerTimerUnderCombineSchedulersName() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        var ticks: [DispatchQueue.SchedulerTimeType.Stride] = []
        let timer: SchedulerTimer<TestSchedulerOf<DispatchQueue>> = Publishers.Timer(
            every: .seconds(1), scheduler: scheduler)
        let cancellable = timer.autoconnect().sink { ticks.append(start.distance(to: $0)) }
        scheduler.advance(by: .seconds(3))
        #expect(ticks == [.seconds(1), .seconds(2), .seconds(3)])
        cancellable.cancel()
        scheduler.advance(by: .seconds(3))
        #expect(ticks.count == 3)
    }
}
