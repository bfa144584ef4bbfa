import Streams
import StreamsTesting
import Testing

@Suite struct ReplaceNilTests {
    @Test func replacesNilElements() {
        let numbers: [Double?] = [1.0, 2.0, nil, 3.0]
        let subscriber = TestSubscriber<Double, Never>()
        numbers.publisher.replaceNil(with: 0.5).subscribe(subscriber)
        #expect(
            subscriber.events == [
                .subscription, .value(1.0), .value(2.0), .value(0.5), .value(3.0), .completion(.finished),
            ])
    }

    @Test func isAMapOfTheUpstream() {
        let subject = PassthroughSubject<String?, Never>()
        let replaced = subject.replaceNil(with: "-")
        #expect(type(of: replaced) == Publishers.Map<PassthroughSubject<String?, Never>, String>.self)
        #expect(replaced.upstream === subject)
        #expect(replaced.transform(nil) == "-")
        #expect(replaced.transform("x") == "x")
    }

    @Test func worksOnNestedOptionals() {
        let values: [Int??] = [.some(nil), nil, .some(.some(2))]
        let subscriber = TestSubscriber<Int?, Never>()
        values.publisher.replaceNil(with: 7).subscribe(subscriber)
        #expect(subscriber.values == [nil, 7, 2])
    }

    @Test func passesDemandAndFailureThrough() throws {
        let upstream = TransformTestPublisher<Int?, TransformTestError>()
        let subscriber = TestSubscriber<Int, TransformTestError>(initialDemand: .max(1), demandPerValue: .max(2))
        upstream.replaceNil(with: -1).subscribe(subscriber)
        #expect(subscriber.subscription as AnyObject === upstream.subscription)
        #expect(upstream.send(nil) == .max(2))
        #expect(upstream.send(4) == .max(2))
        upstream.send(completion: .failure(.upstream))
        #expect(subscriber.events == [.subscription, .value(-1), .value(4), .completion(.failure(.upstream))])
        #expect(upstream.calls == [.request(.max(1))])
        #expect(TransformReflection(of: try #require(upstream.subscriber)).description == "Map")
    }

    @Test func honoursBoundedDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        [nil, nil, 3].publisher.replaceNil(with: 0).subscribe(subscriber)
        #expect(subscriber.values == [0])
        subscriber.request(.max(2))
        #expect(subscriber.events == [.subscription, .value(0), .value(0), .value(3), .completion(.finished)])
    }
}
