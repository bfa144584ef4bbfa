import Dispatch
import Foundation
import Streams
import Testing

/// Checks, at compile time, that operators return the same types as in Combine: each constant below
/// is annotated with the type Combine's operator returns, so a different generic shape fails to build.
@Suite struct CombineAPIShapeTests {
    struct Item: Codable {
        var value: Int
    }

    final class Target {
        var value = 0
    }

    @Test func operatorsReturnCombinesPublisherTypes() {
        typealias Failing = PassthroughSubject<Int, TestError>
        typealias Never_ = PassthroughSubject<Int, Never>
        let failing = Failing()
        let never = Never_()
        let queue = DispatchQueue(label: "CombineAPIShapeTests")

        // Transforming.
        let _: Publishers.Map<Failing, String> = failing.map { "\($0)" }
        let _: Publishers.TryMap<Failing, String> = failing.tryMap { "\($0)" }
        let _: Publishers.MapError<Failing, any Error> = failing.mapError { $0 as any Error }
        let _: Publishers.MapKeyPath<Failing, Int> = failing.map(\.bitWidth)
        let _: Publishers.MapKeyPath2<Failing, Int, Int> = failing.map(\.bitWidth, \.nonzeroBitCount)
        let _: Publishers.MapKeyPath3<Failing, Int, Int, Int> =
            failing.map(\.bitWidth, \.nonzeroBitCount, \.leadingZeroBitCount)
        let _: Publishers.Scan<Failing, Int> = failing.scan(0, +)
        let _: Publishers.TryScan<Failing, Int> = failing.tryScan(0, +)
        let _: Publishers.Map<Publishers.Map<Failing, Int?>, Int> = failing.map { Optional($0) }.replaceNil(with: 0)
        let _: Publishers.SetFailureType<Never_, TestError> = never.setFailureType(to: TestError.self)
        let _: Publishers.CompactMap<Failing, String> = failing.compactMap { "\($0)" }
        let _: Publishers.TryCompactMap<Failing, String> = failing.tryCompactMap { "\($0)" }

        // flatMap, in its four shapes.
        let _: Publishers.FlatMap<Fail<Int, TestError>, Failing> = failing.flatMap { Fail(error: TestError(code: $0)) }
        let _: Publishers.FlatMap<Publishers.SetFailureType<Never_, TestError>, Failing> =
            failing.flatMap { _ in never }
        let _: Publishers.FlatMap<Failing, Publishers.SetFailureType<Never_, TestError>> =
            never.flatMap { _ in failing }
        let _: Publishers.FlatMap<Never_, Never_> = never.flatMap(maxPublishers: .max(1)) { _ in never }

        // Filtering and selecting.
        let _: Publishers.Filter<Failing> = failing.filter { $0 > 0 }
        let _: Publishers.TryFilter<Failing> = failing.tryFilter { $0 > 0 }
        let _: Publishers.RemoveDuplicates<Failing> = failing.removeDuplicates()
        let _: Publishers.TryRemoveDuplicates<Failing> = failing.tryRemoveDuplicates { $0 == $1 }
        let _: Publishers.ReplaceEmpty<Failing> = failing.replaceEmpty(with: 0)
        let _: Publishers.ReplaceError<Failing> = failing.replaceError(with: 0)
        let _: Publishers.First<Failing> = failing.first()
        let _: Publishers.FirstWhere<Failing> = failing.first { $0 > 0 }
        let _: Publishers.TryFirstWhere<Failing> = failing.tryFirst { $0 > 0 }
        let _: Publishers.Last<Failing> = failing.last()
        let _: Publishers.LastWhere<Failing> = failing.last { $0 > 0 }
        let _: Publishers.TryLastWhere<Failing> = failing.tryLast { $0 > 0 }
        let _: Publishers.Output<Failing> = failing.output(at: 1)
        let _: Publishers.Output<Failing> = failing.output(in: 1..<3)
        let _: Publishers.Output<Failing> = failing.prefix(2)
        let _: Publishers.PrefixWhile<Failing> = failing.prefix { $0 > 0 }
        let _: Publishers.TryPrefixWhile<Failing> = failing.tryPrefix { $0 > 0 }
        let _: Publishers.Drop<Failing> = failing.dropFirst()
        let _: Publishers.DropWhile<Failing> = failing.drop { $0 > 0 }
        let _: Publishers.TryDropWhile<Failing> = failing.tryDrop { $0 > 0 }
        let _: Publishers.DropUntilOutput<Failing, Failing> = failing.drop(untilOutputFrom: failing)
        let _: Publishers.PrefixUntilOutput<Failing, Never_> = failing.prefix(untilOutputFrom: never)

        // Reducing, matching and counting.
        let _: Publishers.Collect<Failing> = failing.collect()
        let _: Publishers.CollectByCount<Failing> = failing.collect(2)
        let _: Publishers.CollectByTime<Failing, DispatchQueue> =
            failing.collect(.byTime(queue, .seconds(1)), options: nil)
        let _: Publishers.IgnoreOutput<Failing> = failing.ignoreOutput()
        let _: Publishers.Reduce<Failing, Int> = failing.reduce(0, +)
        let _: Publishers.TryReduce<Failing, Int> = failing.tryReduce(0, +)
        let _: Publishers.Count<Failing> = failing.count()
        let _: Publishers.Comparison<Failing> = failing.max()
        let _: Publishers.Comparison<Failing> = failing.min(by: <)
        let _: Publishers.TryComparison<Failing> = failing.tryMax(by: <)
        let _: Publishers.Contains<Failing> = failing.contains(1)
        let _: Publishers.ContainsWhere<Failing> = failing.contains { $0 > 0 }
        let _: Publishers.TryContainsWhere<Failing> = failing.tryContains { $0 > 0 }
        let _: Publishers.AllSatisfy<Failing> = failing.allSatisfy { $0 > 0 }
        let _: Publishers.TryAllSatisfy<Failing> = failing.tryAllSatisfy { $0 > 0 }

        // Combining and sequencing.
        let _: Publishers.Concatenate<Publishers.Sequence<[Int], TestError>, Failing> = failing.prepend(0, 1)
        let _: Publishers.Concatenate<Failing, Publishers.Sequence<[Int], TestError>> = failing.append([2, 3])
        let _: Publishers.Concatenate<Failing, Failing> = failing.append(failing)
        let _: Publishers.Merge<Failing, Failing> = failing.merge(with: failing)
        let _: Publishers.Merge3<Failing, Failing, Failing> = failing.merge(with: failing, failing)
        let _: Publishers.MergeMany<Failing> = Publishers.MergeMany([failing, failing])
        let _: Publishers.CombineLatest<Failing, Failing> = failing.combineLatest(failing)
        let _: Publishers.Map<Publishers.CombineLatest3<Failing, Failing, Failing>, Int> =
            failing.combineLatest(failing, failing) { $0 + $1 + $2 }
        let _: Publishers.CombineLatest4<Failing, Failing, Failing, Failing> =
            failing.combineLatest(failing, failing, failing)
        let _: Publishers.Zip<Failing, Failing> = failing.zip(failing)
        let _: Publishers.Map<Publishers.Zip3<Failing, Failing, Failing>, Int> =
            failing.zip(failing, failing) { $0 + $1 + $2 }
        let _: Publishers.Zip4<Failing, Failing, Failing, Failing> = failing.zip(failing, failing, failing)
        let _: Publishers.SwitchToLatest<Failing, PassthroughSubject<Failing, TestError>> =
            PassthroughSubject<Failing, TestError>().switchToLatest()
        let _: Publishers.SwitchToLatest<Never_, PassthroughSubject<Never_, Never>> =
            PassthroughSubject<Never_, Never>().switchToLatest()
        let _:
            Publishers.SwitchToLatest<Failing, Publishers.SetFailureType<PassthroughSubject<Failing, Never>, TestError>> =
                PassthroughSubject<Failing, Never>().switchToLatest()
        let outerOfNever = PassthroughSubject<Never_, TestError>()
        let _:
            Publishers.SwitchToLatest<
                Publishers.SetFailureType<Never_, TestError>,
                Publishers.Map<PassthroughSubject<Never_, TestError>, Publishers.SetFailureType<Never_, TestError>>
            > = outerOfNever.switchToLatest()

        // Errors.
        let _: Publishers.Catch<Failing, Just<Int>> = failing.catch { _ in Just(0) }
        let _: Publishers.TryCatch<Failing, Just<Int>> = failing.tryCatch { _ in Just(0) }
        let _: Publishers.Retry<Failing> = failing.retry(1)
        let _: Publishers.AssertNoFailure<Failing> = failing.assertNoFailure()

        // Time and scheduling.
        let _: Publishers.Debounce<Failing, DispatchQueue> = failing.debounce(for: .seconds(1), scheduler: queue)
        let _: Publishers.Throttle<Failing, DispatchQueue> =
            failing.throttle(for: .seconds(1), scheduler: queue, latest: true)
        let _: Publishers.Delay<Failing, DispatchQueue> = failing.delay(for: .seconds(1), scheduler: queue)
        let _: Publishers.Timeout<Failing, DispatchQueue> =
            failing.timeout(.seconds(1), scheduler: queue, customError: { TestError() })
        let _: Publishers.MeasureInterval<Failing, DispatchQueue> = failing.measureInterval(using: queue)
        let _: Publishers.ReceiveOn<Failing, DispatchQueue> = failing.receive(on: queue)
        let _: Publishers.SubscribeOn<Failing, DispatchQueue> = failing.subscribe(on: queue)

        // Sharing.
        let _: Publishers.Share<Failing> = failing.share()
        let _: Publishers.MakeConnectable<Never_> = never.makeConnectable()
        let _: Publishers.Multicast<Failing, PassthroughSubject<Int, TestError>> =
            failing.multicast(subject: PassthroughSubject())
        let _: Publishers.Autoconnect<Publishers.MakeConnectable<Never_>> = never.makeConnectable().autoconnect()

        // Coding.
        let items = PassthroughSubject<Item, TestError>()
        let _: Publishers.Encode<PassthroughSubject<Item, TestError>, JSONEncoder> = items.encode(
            encoder: JSONEncoder())
        let _:
            Publishers.Decode<Publishers.Encode<PassthroughSubject<Item, TestError>, JSONEncoder>, Item, JSONDecoder> =
                items.encode(encoder: JSONEncoder()).decode(type: Item.self, decoder: JSONDecoder())

        // Debugging.
        let _: Publishers.Print<Failing> = failing.print("tag")
        let _: Publishers.HandleEvents<Failing> = failing.handleEvents(receiveOutput: { _ in })
        let _: Publishers.Breakpoint<Failing> = failing.breakpoint()
        let _: Publishers.Breakpoint<Failing> = failing.breakpointOnError()

        // Subscribing.
        let target = Target()
        let cancellables: [AnyCancellable] = [
            failing.sink(receiveCompletion: { _ in }, receiveValue: { _ in }),
            never.sink { _ in },
            never.assign(to: \.value, on: target),
            failing.subscribe(PassthroughSubject<Int, TestError>()),
        ]
        let _: AnyPublisher<Int, TestError> = failing.eraseToAnyPublisher()
        let _: AnySubscriber<Int, TestError> = AnySubscriber(PassthroughSubject<Int, TestError>())
        let _: AsyncPublisher<Never_> = never.values
        let _: AsyncThrowingPublisher<Failing> = failing.values
        let _: NotificationCenter.Publisher = NotificationCenter.default.publisher(for: Notification.Name("shape"))
        for cancellable in cancellables { cancellable.cancel() }
        #expect(cancellables.count == 4)
    }
}
