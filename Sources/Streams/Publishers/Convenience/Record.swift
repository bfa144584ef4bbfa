/// A publisher that allows for recording a series of inputs and a completion, for later playback to
/// each subscriber.
///
/// Every subscriber receives the recorded values, as fast as its demand allows, followed by the
/// recorded completion. A recording with no values completes at once.
///
/// ```swift
/// let record = Record<Int, Never> { recording in
///     recording.receive(1)
///     recording.receive(2)
///     recording.receive(completion: .finished)
/// }
/// let cancellable = record.sink(
///     receiveCompletion: { print($0) }, receiveValue: { print($0) })
/// // Prints:
/// // 1
/// // 2
/// // finished
/// ```
public struct Record<Output, Failure: Error>: Publisher {
    /// The recorded output and completion.
    public let recording: Recording

    /// Creates a publisher to interactively record a series of outputs and a completion.
    ///
    /// - Parameter record: A closure that adds outputs and, optionally, a completion to the
    ///   recording it is given. Without a completion, the recording finishes normally.
    @inlinable
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.recording = recording
    }

    /// Creates a record publisher from an existing recording.
    ///
    /// - Parameter recording: A previously-recorded recording of published elements and a
    ///   completion.
    @inlinable
    public init(recording: Recording) {
        self.recording = recording
    }

    /// Creates a record publisher to publish the provided elements, followed by the provided
    /// completion value.
    ///
    /// - Parameters:
    ///   - output: An array of output elements to publish.
    ///   - completion: The completion value with which to end publishing.
    @inlinable
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        recording = Recording(output: output, completion: completion)
    }

    /// Gives the subscriber a subscription that plays the recording back as demand arrives.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        guard !recording.output.isEmpty else {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: recording.completion)
            return
        }
        subscriber.receive(
            subscription: RecordSubscription(
                downstream: subscriber, output: recording.output, completion: recording.completion))
    }
}

extension Record {
    /// A recorded sequence of outputs, followed by a completion value.
    ///
    /// A recording made with ``init()`` accepts outputs until it receives a completion; one made with
    /// ``init(output:completion:)``, or decoded, is already complete. Adding to a complete recording
    /// is a programmer error.
    public struct Recording {
        /// The type of values the recording accepts: the publisher's output.
        public typealias Input = Output

        /// Whether the recording still accepts input.
        private var isComplete: Bool

        /// The output which will be sent to a `Subscriber`.
        public private(set) var output: [Output]

        /// The completion which will be sent to a `Subscriber`.
        public private(set) var completion: Subscribers.Completion<Failure>

        /// Sets up a recording in a state ready to receive output.
        public init() {
            isComplete = false
            output = []
            completion = .finished
        }

        /// Sets up a complete recording with the specified output and completion.
        ///
        /// - Parameters:
        ///   - output: The values to play back.
        ///   - completion: The completion to play back after the values.
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            isComplete = true
            self.output = output
            self.completion = completion
        }

        /// Adds an output to the recording.
        ///
        /// Adding an output after the recording has completed stops the program.
        ///
        /// - Parameter input: The value to add.
        public mutating func receive(_ input: Input) {
            precondition(!isComplete, "A Record.Recording cannot receive a value after its completion")
            output.append(input)
        }

        /// Adds a completion to the recording.
        ///
        /// Adding a second completion stops the program.
        ///
        /// - Parameter completion: The completion to play back after the values.
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            precondition(!isComplete, "A Record.Recording cannot receive more than one completion")
            self.completion = completion
            isComplete = true
        }
    }
}

extension Record: Sendable where Output: Sendable {}

extension Record.Recording: Sendable where Output: Sendable {}

extension Record: Codable where Output: Codable, Failure: Codable {}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    /// The keys of an encoded recording.
    private enum CodingKeys: String, CodingKey {
        case output
        case completion
    }

    /// Decodes a complete recording from its `output` array and its `completion`.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let output = try container.decode([Output].self, forKey: .output)
        let completion = try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion)
        self.init(output: output, completion: completion)
    }

    /// Encodes the recording's `output` array and its `completion`.
    ///
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encode(completion, forKey: .completion)
    }

    /// Encodes the recording; the same as ``encode(to:)``.
    ///
    /// - Parameter encoder: The encoder to write to.
    public func encode(into encoder: any Encoder) throws {
        try encode(to: encoder)
    }
}

/// The subscription of ``Record``: it plays the recorded values back from the thread that requests,
/// one per unit of demand, in a loop rather than recursively, then sends the recorded completion.
@usableFromInline
final class RecordSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    typealias Output = Downstream.Input

    @usableFromInline
    let lock = Lock()

    /// Guarded by `lock`; `nil` once completed or cancelled.
    @usableFromInline
    var downstream: Downstream?

    /// Guarded by `lock`: the recorded values; emptied once completed or cancelled.
    @usableFromInline
    var output: [Output]

    /// Guarded by `lock`: the index of the next value to send.
    @usableFromInline
    var nextIndex = 0

    @usableFromInline
    let completion: Subscribers.Completion<Downstream.Failure>

    /// Guarded by `lock`.
    @usableFromInline
    var demand = Subscribers.Demand.none

    /// Guarded by `lock`: whether a thread is in the emitting loop.
    @usableFromInline
    var isEmitting = false

    @inlinable
    init(downstream: Downstream, output: [Output], completion: Subscribers.Completion<Downstream.Failure>) {
        self.downstream = downstream
        self.output = output
        self.completion = completion
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // Combine ignores a request for no values rather than stopping the program.
        let emit = lock.withLock { () -> Bool in
            guard downstream != nil, demand > 0 else { return false }
            self.demand += demand
            guard !isEmitting else { return false }
            isEmitting = true
            return true
        }
        if emit { emitWhileDemanded() }
    }

    /// What the emitting loop does after a value has been delivered.
    @usableFromInline
    enum AfterValue {
        case next
        case stop
        case complete(Downstream, played: [Output])
    }

    @inlinable
    func emitWhileDemanded() {
        while true {
            let step = lock.withLock { () -> (Downstream, Output)? in
                guard let downstream, demand > 0 else {
                    isEmitting = false
                    return nil
                }
                demand -= 1
                let value = output[nextIndex]
                nextIndex += 1
                return (downstream, value)
            }
            guard let (target, value) = step else { return }
            let more = target.receive(value)
            let after = lock.withLock { () -> AfterValue in
                guard downstream != nil, nextIndex < output.count else {
                    isEmitting = false
                    guard let finishing = downstream.take() else { return .stop }
                    let played = output
                    output = []
                    return .complete(finishing, played: played)
                }
                demand += more
                return .next
            }
            switch after {
            case .next:
                continue
            case .stop:
                return
            case .complete(let finishing, let played):
                finishing.receive(completion: completion)
                withExtendedLifetime(played) {}
                return
            }
        }
    }

    @inlinable
    func cancel() {
        let released = lock.withLock { () -> (Downstream?, [Output]) in
            let played = output
            output = []
            return (downstream.take(), played)
        }
        withExtendedLifetime(released) {}
    }

    /// The recorded values, as Combine prints them, such as `[1, 2, 3]`; `Cancelled Events` once the
    /// playback has ended.
    @usableFromInline
    var description: String {
        lock.withLock { downstream == nil ? "Cancelled Events" : String(describing: output) }
    }

    @usableFromInline
    var customMirror: Mirror {
        let output = lock.withLock { self.output }
        return Mirror(self, children: ["sequence": output, "completion": completion])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
