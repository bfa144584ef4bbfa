import Streams
import StreamsTesting
import Testing

private struct OtherError: Error, Equatable {}

@Suite struct SetFailureTypeTests {
    @Test func passesValuesAndFinishedThrough() {
        let subscriber = TestSubscriber<Int, TransformTestError>()
        [1, 2, 3].publisher.setFailureType(to: TransformTestError.self).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func hasTheRequestedFailureType() {
        let subject = PassthroughSubject<Int, Never>()
        let retyped = subject.setFailureType(to: TransformTestError.self)
        #expect(type(of: retyped) == Publishers.SetFailureType<PassthroughSubject<Int, Never>, TransformTestError>.self)
        #expect(retyped.upstream === subject)
        let erased: AnyPublisher<Int, TransformTestError> = retyped.eraseToAnyPublisher()
        let subscriber = TestSubscriber<Int, TransformTestError>()
        erased.subscribe(subscriber)
        subject.send(4)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(4), .completion(.finished)])
    }

    @Test func fusedSetFailureTypeReplacesTheFailureType() {
        let subject = PassthroughSubject<Int, Never>()
        let twice = subject.setFailureType(to: TransformTestError.self).setFailureType(to: OtherError.self)
        #expect(type(of: twice) == Publishers.SetFailureType<PassthroughSubject<Int, Never>, OtherError>.self)
        #expect(twice.upstream === subject)
    }

    @Test func handsTheUpstreamSubscriptionStraightDown() throws {
        let upstream = TransformTestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, OtherError>(initialDemand: .max(1), demandPerValue: .max(3))
        upstream.setFailureType(to: OtherError.self).subscribe(subscriber)
        #expect(subscriber.subscription as AnyObject === upstream.subscription)
        #expect(upstream.send(2) == .max(3))
        subscriber.request(.max(2))
        subscriber.cancel()
        #expect(upstream.calls == [.request(.max(1)), .request(.max(2)), .cancel])
        #expect(TransformReflection(of: try #require(upstream.subscriber)) == .named("SetFailureType"))
    }

    @Test func honoursBoundedDemand() {
        let subscriber = TestSubscriber<Int, OtherError>(initialDemand: .max(1))
        [5, 6].publisher.setFailureType(to: OtherError.self).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(5)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(5), .value(6), .completion(.finished)])
    }

    @Test func isEquatableWhenTheUpstreamIs() {
        let one = Publishers.SetFailureType<Just<Int>, OtherError>(upstream: Just(1))
        #expect(one == Publishers.SetFailureType<Just<Int>, OtherError>(upstream: Just(1)))
        #expect(one != Publishers.SetFailureType<Just<Int>, OtherError>(upstream: Just(2)))
    }

    @Test func isSendableWhenTheUpstreamIs() {
        let sendable: any Sendable = Publishers.SetFailureType<Just<Int>, OtherError>(upstream: Just(3))
        #expect(sendable is Publishers.SetFailureType<Just<Int>, OtherError>)
    }
}
