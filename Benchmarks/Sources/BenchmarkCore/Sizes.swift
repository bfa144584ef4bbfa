/// How much work each scenario does per run.
public struct Sizes: Sendable {
    /// Scenario 1: values sent through map → filter → removeDuplicates → sink.
    public var pipelineValues: Int
    /// Scenario 2: subscribers of the 10-field state with map + removeDuplicates chains.
    public var fanOutSubscribers: Int
    /// Scenario 2: updates sent to those subscribers.
    public var fanOutUpdates: Int
    /// Scenario 2: observer counts for the slice comparison, one scenario each.
    public var sliceObservers: [Int]
    /// Scenario 2: updates sent in each slice scenario, in the order of `sliceObservers`.
    public var sliceUpdates: [Int]
    /// Scenario 3: subscribe + cancel pairs.
    public var subscribeCancelPairs: Int
    /// Scenario 4: values delivered through receive(on:) a serial queue.
    public var receiveOnValues: Int
    /// Scenario 5: objectWillChange observers.
    public var publishedObservers: Int
    /// Scenario 5: writes to the @Published properties.
    public var publishedWrites: Int
    /// Scenario 6: subscriptions kept in a Set<AnyCancellable>, each on its own subject.
    public var storedSubscriptions: Int
    /// Scenario 6: subscriptions kept in a Set<AnyCancellable>, all on one subject.
    public var oneSubjectSubscribers: Int
    /// Scenario 7: values each sender thread sends into the shared subject with one subscriber.
    public var contentionValuesPerThread: Int
    /// Scenario 7: values each sender thread sends into the shared subject with ten subscribers.
    public var contentionValuesPerThreadTenSinks: Int
    /// Scenario 8a: values sent round-robin into the 8 merged subjects (in all).
    public var mergeValues: Int
    /// Scenario 8b: values sent round-robin into the 3 subjects of combineLatest (in all).
    public var combineLatestValues: Int
    /// Scenario 8c: values sent alternately into the 2 subjects of zip (in all).
    public var zipValues: Int
    /// Scenario 8d: subscribers of the shared subject.
    public var shareSubscribers: Int
    /// Scenario 8d: values sent to the shared subject.
    public var shareValues: Int
    /// Scenarios 9: observers of a 10-property model, each watching one property (a tenth of them
    /// per property).
    public var observationObservers: Int
    /// Scenarios 9: writes to that model, each to one property.
    public var observationWrites: Int
    /// Scenario 10: values in the asynchronous sequence turned into a publisher.
    public var asyncSequenceValues: Int
    /// Timed rounds per scenario (each round runs every implementation once).
    public var rounds: Int
    /// Timed rounds for the slowest scenarios.
    public var heavyRounds: Int

    /// The sizes of a measuring run (the default).
    public static let full = Sizes(
        pipelineValues: 2_000_000,
        fanOutSubscribers: 1_000,
        fanOutUpdates: 2_000,
        sliceObservers: [1_000, 10_000],
        sliceUpdates: [2_000, 400],
        subscribeCancelPairs: 1_000_000,
        receiveOnValues: 1_000_000,
        publishedObservers: 100,
        publishedWrites: 50_000,
        storedSubscriptions: 100_000,
        oneSubjectSubscribers: 20_000,
        contentionValuesPerThread: 2_000_000,
        contentionValuesPerThreadTenSinks: 200_000,
        mergeValues: 200_000,
        combineLatestValues: 100_000,
        zipValues: 300_000,
        shareSubscribers: 100,
        shareValues: 5_000,
        observationObservers: 1_000,
        observationWrites: 2_000,
        asyncSequenceValues: 200_000,
        rounds: 7,
        heavyRounds: 5)

    /// Tiny sizes for a smoke test (`--quick`): every implementation must agree, the numbers mean nothing.
    public static let quick = Sizes(
        pipelineValues: 20_000,
        fanOutSubscribers: 1_000,
        fanOutUpdates: 20,
        sliceObservers: [1_000, 10_000],
        sliceUpdates: [20, 5],
        subscribeCancelPairs: 5_000,
        receiveOnValues: 5_000,
        publishedObservers: 100,
        publishedWrites: 500,
        storedSubscriptions: 2_000,
        oneSubjectSubscribers: 2_000,
        contentionValuesPerThread: 50_000,
        contentionValuesPerThreadTenSinks: 10_000,
        mergeValues: 20_000,
        combineLatestValues: 10_000,
        zipValues: 20_000,
        shareSubscribers: 100,
        shareValues: 500,
        observationObservers: 100,
        observationWrites: 20,
        asyncSequenceValues: 2_000,
        rounds: 3,
        heavyRounds: 3)
}
