// The reference model of the operator-chain test: plays a case over plain arrays and counters, with
// Combine's rules for demand, and lists what the subscriber should see.

/// Something the subscriber at the end of a chain saw, or a step the test took.
enum ChainEvent: Equatable, Sendable, CustomStringConvertible {
    case subscription
    case value(Int)
    case finished
    case failure(ChainFailure)
    /// The test took this step (listed between events, so that each event is placed in time).
    case step(String)

    var description: String {
        switch self {
        case .subscription: "subscription"
        case .value(let value): "value(\(value))"
        case .finished: "finished"
        case .failure(let failure): "failure(.\(failure))"
        case .step(let step): "<\(step)>"
        }
    }
}

/// Plays a ``ChainCase`` through a single-threaded model of Combine's rules.
///
/// Each operator's values come from its array form (``ChainOperator/outputs(after:)``,
/// ``ChainOperator/result(of:)``); the model adds when they are delivered:
///
/// - Demand: a subscriber receives values only as far as it has asked for them, in order. A
///   `Publishers.Sequence` sends while it has demand and finishes right after its last element, or
///   at once when it is empty. A `PassthroughSubject` drops a value sent while it has no demand: only
///   demand that has reached it counts. Filter-like operators ask upstream for one more for each
///   value they drop; `dropFirst(n)` asks for `n` more as it subscribes; `collect(n)` asks for `n`
///   for each array; reduce-like operators and `ignoreOutput` ask for unlimited as they subscribe.
/// - Ends: `prefix`, `output(in:)` and `prefix(while:)` finish (and cancel upstream) right after the
///   value that ends them; a reduce-like operator, once it has its result, waits for downstream to
///   ask for anything before it sends its value, if any, and finishes.
/// - Failures pass at once, demand or not. An operator whose closure throws cancels upstream and
///   fails; `collect(n)` drops what it holds, a reduce-like operator its result.
/// - A request from inside `receive(_:)` adds demand like one between steps: a source that is
///   already sending keeps going.
/// - Cancel: after the subscriber cancels, it sees nothing more.
///
/// Whether an operator that sends a last value and then finishes regardless of demand (a reduce-like
/// result, `collect(n)`'s remainder, a `replaceEmpty` replacement, the one value of `Just` and its
/// kin) still finishes when the subscriber cancels inside that value's `receive(_:)` is not
/// documented for Combine; the model marks such a case ``ambiguity`` and the generator draws another.
final class ChainReference {
    private enum Completion: Equatable {
        case finished
        case failure(ChainFailure)
    }

    /// Where an operator stands.
    private struct Stage {
        let op: ChainOperator
        /// Still connected upstream: not cancelled upstream, and upstream has not completed.
        var upstreamOpen = true
        /// May still send downstream: not completed downstream, not cancelled by downstream.
        var downstreamOpen = true
        /// What it received, in order.
        var inputs: [Int] = []
        /// How many of its outputs it has sent (filter-like).
        var sent = 0
        /// The values of an incomplete array (collect).
        var buffer: [Int] = []
        /// Whether downstream asked for anything (reduce-like).
        var downstreamAsked = false
        /// The result waiting for downstream to ask: `.some(nil)` is a finish without a value.
        var pendingResult: Int??
        /// What downstream asked for and was not yet sent (replaceEmpty).
        var demand = ModelDemand.none
        /// An empty upstream finished before downstream asked for the replacement (replaceEmpty).
        var replacementPending = false
    }

    private let script: SubscriberScript
    private var stages: [Stage]
    private let sourceValues: [Int]
    private let sourceIsSequence: Bool
    /// Whether the source is `Just` or a kin of it (Publishers.Sequence's own reduce-like operators).
    private let sourceIsSingleValue: Bool

    private var sourceIndex = 0
    private var sourceDemand = ModelDemand.none
    private var sourceEmitting = false
    /// The source completed, or was cancelled.
    private var sourceClosed = false

    private var received = 0
    /// The subscriber completed, or cancelled.
    private var subscriberDone = false
    /// Nested deliveries of a value that is followed by a finish regardless of cancellation.
    private var lastValueDepth = 0

    /// What the subscriber saw, with the steps between.
    private(set) var events: [ChainEvent] = []
    /// Set when the case depends on behaviour Combine does not document.
    private(set) var ambiguity: String?

    /// Plays `chainCase` and returns the model.
    static func play(_ chainCase: ChainCase) -> ChainReference {
        let model = ChainReference(chainCase)
        model.run(chainCase.steps)
        return model
    }

    private init(_ chainCase: ChainCase) {
        script = chainCase.subscriber
        var operators = chainCase.operators
        switch chainCase.source {
        case .sequence(let input):
            sourceIsSequence = true
            if chainCase.fusesFirst {
                // Publishers.Sequence's own operator computes the whole result at once and publishes
                // it as another sequence, or as a publisher of one value, which behaves as a sequence
                // of that one value (or none).
                let first = operators.removeFirst()
                sourceValues = first.apply(to: input).values  // Never a failure: no `try` operator fuses.
                sourceIsSingleValue = first.fusesIntoSingleValue
            } else {
                sourceValues = input
                sourceIsSingleValue = false
            }
        case .subject:
            sourceIsSequence = false
            sourceValues = []
            sourceIsSingleValue = false
        }
        stages = operators.map { Stage(op: $0) }
    }

    /// The index of the subscriber, just below the last operator.
    private var subscriberIndex: Int { stages.count }

    // MARK: Steps

    private func run(_ steps: [ChainStep]) {
        subscribe()
        for step in steps {
            events.append(.step(step.description))
            switch step {
            case .request(let demand):
                if !subscriberDone { request(demand, to: subscriberIndex - 1) }
            case .send(let value): subjectSend(value)
            case .finish: subjectComplete(.finished)
            case .fail: subjectComplete(.failure(.sent))
            case .cancel:
                if !subscriberDone {
                    subscriberDone = true
                    cancel(subscriberIndex - 1)
                }
            }
        }
    }

    /// The chain subscribes from the subscriber up: the subscriber makes its first request, then each
    /// operator, from the last up, makes its own as it gets its subscription.
    private func subscribe() {
        events.append(.subscription)
        if script.initialDemand.isPositive { request(script.initialDemand, to: subscriberIndex - 1) }
        for index in stages.indices.reversed() where stages[index].upstreamOpen {
            switch stages[index].op.shape {
            case .dropFirst(let count) where count > 0: request(.max(count), to: index - 1)
            case .reduceLike, .ignoreOutput: request(.unlimited, to: index - 1)
            default: break
            }
        }
        if sourceIsSequence, sourceValues.isEmpty, !sourceClosed {
            sourceClosed = true
            complete(.finished, at: 0)
        }
    }

    // MARK: Source

    private func sourceRequest(_ demand: ModelDemand) {
        guard !sourceClosed else { return }
        sourceDemand += demand
        guard sourceIsSequence, !sourceEmitting else { return }
        sourceEmitting = true
        defer { sourceEmitting = false }
        while !sourceClosed, sourceDemand.isPositive, sourceIndex < sourceValues.count {
            sourceDemand.consumeOne()
            let value = sourceValues[sourceIndex]
            sourceIndex += 1
            if sourceIsSingleValue { lastValueDepth += 1 }
            let more = receive(value, at: 0)
            if sourceIsSingleValue { lastValueDepth -= 1 }
            if sourceIndex == sourceValues.count {
                if !sourceClosed {
                    sourceClosed = true
                    complete(.finished, at: 0)
                }
                return
            }
            sourceDemand += more
        }
    }

    private func subjectSend(_ value: Int) {
        guard !sourceClosed, sourceDemand.isPositive else { return }
        sourceDemand.consumeOne()
        sourceDemand += receive(value, at: 0)
    }

    private func subjectComplete(_ completion: Completion) {
        guard !sourceClosed else { return }
        sourceClosed = true
        complete(completion, at: 0)
    }

    // MARK: Operators

    /// The downstream of operator `index` asks it for `demand`; index -1 is the source.
    private func request(_ demand: ModelDemand, to index: Int) {
        guard index >= 0 else { return sourceRequest(demand) }
        guard stages[index].downstreamOpen else { return }
        switch stages[index].op.shape {
        case .filterLike, .dropFirst:
            if stages[index].upstreamOpen { request(demand, to: index - 1) }
        case .collect(let count):
            if stages[index].upstreamOpen { request(demand * count, to: index - 1) }
        case .reduceLike:
            stages[index].downstreamAsked = true
            if let result = stages[index].pendingResult {
                stages[index].pendingResult = nil
                deliver(result, from: index)
            }
        case .ignoreOutput:
            break  // Upstream already has unlimited demand.
        case .replaceEmpty(let replacement):
            if stages[index].replacementPending {
                stages[index].replacementPending = false
                deliver(replacement, from: index)
            } else if stages[index].upstreamOpen {
                stages[index].demand += demand
                request(demand, to: index - 1)
            }
        }
    }

    /// Operator `index` (or the subscriber) receives `value` from upstream and returns the demand it
    /// adds.
    private func receive(_ value: Int, at index: Int) -> ModelDemand {
        guard index < subscriberIndex else { return subscriberReceive(value) }
        guard stages[index].upstreamOpen, stages[index].downstreamOpen else { return .none }
        let op = stages[index].op
        switch op.shape {
        case .filterLike:
            stages[index].inputs.append(value)
            if op.throwsAt(stages[index].inputs) {
                fail(index)
                return .none
            }
            let outputs = op.outputs(after: stages[index].inputs)
            let fresh = outputs.dropFirst(stages[index].sent)
            precondition(fresh.count <= 1, "\(op) sent \(fresh.count) values for one")
            stages[index].sent = outputs.count
            let ends = op.ends(after: stages[index].inputs)
            var demand = ModelDemand.none
            if let output = fresh.first {
                demand = receive(output, at: index + 1)
            } else if !ends {
                return .max(1)
            }
            if ends, stages[index].downstreamOpen {
                stages[index].upstreamOpen = false
                cancel(index - 1)
                stages[index].downstreamOpen = false
                complete(.finished, at: index + 1)
            }
            return demand
        case .dropFirst(let count):
            stages[index].inputs.append(value)
            return stages[index].inputs.count <= count ? .none : receive(value, at: index + 1)
        case .collect(let count):
            stages[index].buffer.append(value)
            guard stages[index].buffer.count == count else { return .none }
            let values = stages[index].buffer
            stages[index].buffer = []
            return receive(ChainClosures.encode(values), at: index + 1) * count
        case .reduceLike:
            stages[index].inputs.append(value)
            if op.throwsAt(stages[index].inputs) {
                fail(index)
            } else if op.ends(after: stages[index].inputs) {
                stages[index].upstreamOpen = false
                cancel(index - 1)
                publishResult(of: index)
            }
            return .none
        case .ignoreOutput:
            return .none
        case .replaceEmpty:
            stages[index].inputs.append(value)
            stages[index].demand.consumeOne()
            let more = receive(value, at: index + 1)
            stages[index].demand += more
            return more
        }
    }

    /// Operator `index` (or the subscriber) receives a completion from upstream.
    private func complete(_ completion: Completion, at index: Int) {
        guard index < subscriberIndex else { return subscriberComplete(completion) }
        guard stages[index].upstreamOpen, stages[index].downstreamOpen else { return }
        stages[index].upstreamOpen = false
        switch stages[index].op.shape {
        case .filterLike, .dropFirst, .ignoreOutput:
            stages[index].downstreamOpen = false
            complete(completion, at: index + 1)
        case .collect:
            let remainder = stages[index].buffer
            stages[index].buffer = []
            if completion == .finished, !remainder.isEmpty {
                sendLastValue(ChainClosures.encode(remainder), to: index + 1)
            }
            stages[index].downstreamOpen = false
            complete(completion, at: index + 1)
        case .reduceLike:
            if completion == .finished {
                publishResult(of: index)
            } else {
                stages[index].downstreamOpen = false
                complete(completion, at: index + 1)
            }
        case .replaceEmpty(let replacement):
            if completion == .finished, stages[index].inputs.isEmpty {
                if stages[index].demand.isPositive {
                    deliver(replacement, from: index)
                } else {
                    stages[index].replacementPending = true
                }
            } else {
                stages[index].downstreamOpen = false
                complete(completion, at: index + 1)
            }
        }
    }

    /// Operator `index`'s closure threw: it cancels upstream and fails.
    private func fail(_ index: Int) {
        stages[index].upstreamOpen = false
        cancel(index - 1)
        stages[index].downstreamOpen = false
        complete(.failure(.thrown), at: index + 1)
    }

    /// A reduce-like operator has its result: it sends it once downstream has asked for anything.
    private func publishResult(of index: Int) {
        let result = stages[index].op.result(of: stages[index].inputs)
        if stages[index].downstreamAsked {
            deliver(result, from: index)
        } else {
            stages[index].pendingResult = .some(result)
        }
    }

    /// Operator `index` sends its last value, if any, and finishes.
    private func deliver(_ value: Int?, from index: Int) {
        guard stages[index].downstreamOpen else { return }
        if let value { sendLastValue(value, to: index + 1) }
        stages[index].downstreamOpen = false
        complete(.finished, at: index + 1)
    }

    /// Sends a value that the finish follows regardless of cancellation.
    private func sendLastValue(_ value: Int, to index: Int) {
        lastValueDepth += 1
        _ = receive(value, at: index)
        lastValueDepth -= 1
    }

    /// The downstream of operator `index` cancels it; index -1 is the source.
    private func cancel(_ index: Int) {
        guard index >= 0 else {
            sourceClosed = true
            return
        }
        guard stages[index].downstreamOpen else { return }
        stages[index].downstreamOpen = false
        stages[index].pendingResult = nil
        stages[index].replacementPending = false
        if stages[index].upstreamOpen {
            stages[index].upstreamOpen = false
            cancel(index - 1)
        }
    }

    // MARK: Subscriber

    private func subscriberReceive(_ value: Int) -> ModelDemand {
        guard !subscriberDone else { return .none }
        events.append(.value(value))
        received += 1
        let request = script.request(insideValue: received)
        if request.isPositive { self.request(request, to: subscriberIndex - 1) }
        if received == script.cancelAtValue {
            subscriberDone = true
            if lastValueDepth > 0 {
                ambiguity = "the subscriber cancels inside the receive of a value that a finish follows"
            }
            cancel(subscriberIndex - 1)
        }
        return script.demand(afterValue: received)
    }

    private func subscriberComplete(_ completion: Completion) {
        guard !subscriberDone else { return }
        subscriberDone = true
        switch completion {
        case .finished: events.append(.finished)
        case .failure(let failure): events.append(.failure(failure))
        }
    }
}
