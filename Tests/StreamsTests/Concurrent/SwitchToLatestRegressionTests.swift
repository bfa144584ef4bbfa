import Streams
import StreamsTesting
import Testing

extension ConcurrentScheduleTests {
    /// What the concurrent schedules found in switchToLatest, replayed deterministically.
    @Suite struct SwitchToLatestRegressionTests {
        /// The outer publisher replaces the inner one, from another thread, while the subscriber is
        /// inside `receive(_:)` for the replaced one's value. The demand the subscriber returns then
        /// must reach the new inner publisher, which was asked for nothing when it subscribed.
        /// (Before, it went back only to the replaced publisher, and the stream waited for ever.)
        @Test func demandReturnedWhileTheInnerPublisherIsReplacedReachesItsSuccessor() {
            let outer = PassthroughSubject<Int, Never>()
            let inners = [SelectionUpstream<Int, Never>(), SelectionUpstream<Int, Never>()]
            let inside = StressSignal()
            let switched = StressSignal()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1)) { _ in
                inside.signal()
                #expect(switched.wait())
                return .max(1)
            }
            outer.map { inners[$0] }.switchToLatest().subscribe(subscriber)
            outer.send(0)
            #expect(inners[0].events == [.requested(.max(1))])

            runOnThreads(2) { thread in
                if thread == 0 {
                    inners[0].send(10)
                } else {
                    #expect(inside.wait())
                    outer.send(1)
                    switched.signal()
                }
            }
            #expect(inners[0].events == [.requested(.max(1)), .cancelled])
            #expect(inners[1].events == [.requested(.max(1))], "the successor is asked for the returned demand")
            inners[1].send(11)
            #expect(subscriber.values == [10, 11])
            subscriber.cancel()
        }
    }
}
