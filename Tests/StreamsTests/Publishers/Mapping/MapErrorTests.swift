import Streams
import StreamsTesting
import Testing

private struct WrappedError: Error, Equatable {
    var inner: TransformTestError
}

@Suite struct MapErrorTests {
    @Test func convertsTheFailure() {
        let upstream = TransformTestPublisher<Int, TransformTestError>()
        let subscriber = TestSubscriber<Int, WrappedError>()
        upstream.mapError { WrappedError(inner: $0) }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(.thrown(3)))
        #expect(
            subscriber.events == [.subscription, .value(1), .completion(.failure(WrappedError(inner: .thrown(3))))])
    }

    @Test func leavesValuesAndFinishedAlone() {
        let subscriber = TestSubscriber<Int, WrappedError>()
        [1, 2].publisher.mapError { (never: Never) -> WrappedError in }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func erasesATypedErrorFromTryMapBack() {
        let subscriber = TestSubscriber<Int, TransformTestError>()
        [1, 0, 2].publisher
            .tryMap { value -> Int in
                if value == 0 { throw TransformTestError.thrown(0) }
                return 10 / value
            }
            .mapError { TransformTestError.from($0) }
            .subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(10), .completion(.failure(.thrown(0)))])
    }

    @Test func handsTheUpstreamSubscriptionStraightDown() throws {
        let upstream = TransformTestPublisher<Int, TransformTestError>()
        let subscriber = TestSubscriber<Int, WrappedError>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.mapError { WrappedError(inner: $0) }.subscribe(subscriber)
        #expect(subscriber.subscription as AnyObject === upstream.subscription)
        #expect(upstream.send(5) == .max(1))
        subscriber.cancel()
        #expect(upstream.calls == [.request(.max(2)), .cancel])
        #expect(TransformReflection(of: try #require(upstream.subscriber)) == .named("MapError"))
    }

    @Test func honoursBoundedDemand() {
        let subscriber = TestSubscriber<Int, WrappedError>(initialDemand: .max(1))
        [7, 8].publisher.setFailureType(to: TransformTestError.self).mapError { WrappedError(inner: $0) }
            .subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(7)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(7), .value(8), .completion(.finished)])
    }

    @Test func bothInitializersKeepTheTransform() {
        let upstream = Fail<Int, TransformTestError>(error: .upstream)
        let unlabeled = Publishers.MapError(upstream: upstream, { WrappedError(inner: $0) })
        let labeled = Publishers.MapError(upstream: upstream, transform: { WrappedError(inner: $0) })
        #expect(unlabeled.transform(.thrown(1)) == WrappedError(inner: .thrown(1)))
        #expect(labeled.transform(.thrown(2)) == WrappedError(inner: .thrown(2)))
        let subscriber = TestSubscriber<Int, WrappedError>()
        labeled.subscribe(subscriber)
        #expect(subscriber.completion == .failure(WrappedError(inner: .upstream)))
    }
}
