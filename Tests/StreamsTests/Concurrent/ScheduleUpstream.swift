import Foundation
import Streams

/// How an upstream of a schedule hands its values over.
enum UpstreamKind: String, Sendable {
    /// A ``StressSource``: each send waits until the operator has asked for a value, so nothing is
    /// lost for want of demand, as with an upstream that buffers (`Publishers.Sequence`, `Record`, a
    /// buffer).
    case waiting
    /// A `PassthroughSubject`: a value sent while the operator has no demand for it is dropped.
    case subject
}

/// One upstream of a schedule: the publisher an operator subscribes to, and the body of the thread
/// that plays its script.
final class ScheduleUpstream: Sendable, CustomStringConvertible {
    /// What the values go through.
    private enum Backing: Sendable {
        case waiting(StressSource<StressValue, StressError>)
        case subject(PassthroughSubject<StressValue, StressError>)
    }

    let script: UpstreamScript
    let kind: UpstreamKind
    /// What failure messages and the leak probe call it.
    let name: String
    private let backing: Backing
    /// The values given to the subject so far (a waiting source records its own).
    private let given = LockedState<[StressValue]>([])
    /// Signalled once the upstream has passed its subscription on, or has been let go of: a waiting
    /// source sends its completion only then, as a publisher does once it has a subscriber.
    private let attached = StressSignal()

    /// Creates the upstream that plays `script`, of `kind`, called `name` (by default after its index).
    init(_ script: UpstreamScript, kind: UpstreamKind, name: String? = nil) {
        self.script = script
        self.kind = kind
        self.name = name ?? "upstream \(script.index)"
        switch kind {
        case .waiting: backing = .waiting(StressSource())
        case .subject: backing = .subject(PassthroughSubject())
        }
    }

    var description: String { "\(name) (\(kind.rawValue)): \(script)" }

    /// The publisher to subscribe to; it names each subscription it makes to `probe`.
    func publisher(watchedBy probe: StressLeakProbe) -> AnyPublisher<StressValue, StressError> {
        switch backing {
        case .waiting(let source):
            WatchedPublisher(upstream: source, probe: probe, name: name, onSubscription: attached.signal)
                .eraseToAnyPublisher()
        case .subject(let subject):
            WatchedPublisher(upstream: subject, probe: probe, name: name).eraseToAnyPublisher()
        }
    }

    /// Expects the source or subject itself to be freed once the test lets go of it.
    func watch(_ probe: StressLeakProbe) {
        switch backing {
        case .waiting(let source): probe.watch(name, source)
        case .subject(let subject): probe.watch(name, object: subject)
        }
    }

    /// Plays the script on the calling thread: each value, after `pace` steps of spinning, then the
    /// completion. A waiting source stops once the operator has let go of it. Returns false if a
    /// value waited for demand, or the completion for a subscriber, until the deadline.
    func play() -> Bool {
        for value in script.values {
            if script.pace > 0 { _ = stressSpin(script.pace) }
            switch backing {
            case .waiting(let source):
                switch source.send(value) {
                case .sent: continue
                case .ended: return true
                case .timedOut: return false
                }
            case .subject(let subject):
                given.withLock { $0.append(value) }
                subject.send(value)
            }
        }
        guard let completion = script.completion else { return true }
        switch backing {
        case .waiting(let source):
            guard attached.wait() else { return false }
            source.finish(completion)
        case .subject(let subject):
            subject.send(completion: completion)
        }
        return true
    }

    /// Ends the upstream once the run is over and checked: lets a waiting sender go, and completes a
    /// subject. A subscription to a subject keeps the subject alive until it is cancelled or the
    /// subject completes, as in Combine, and some operators leave one uncancelled (as
    /// `prefix(untilOutputFrom:)` leaves its other publisher's).
    func end() {
        switch backing {
        case .waiting(let source): source.close()
        case .subject(let subject): subject.send(completion: .finished)
        }
        attached.signal()
    }

    /// Waits until a waiting source has handed `count` values over, or has been let go of; false if
    /// neither happened before the deadline. A subject does not wait.
    func waitUntilSent(_ count: Int) -> Bool {
        if case .waiting(let source) = backing { return source.waitUntilSent(count) }
        return true
    }

    /// Lets a sender that waits for demand, or for a subscriber, go: the stream no longer needs it.
    func close() {
        if case .waiting(let source) = backing { source.close() }
        attached.signal()
    }

    /// What the upstream handed over, in order: to the operator for a waiting source, to the subject
    /// for a subject.
    var sent: [StressValue] {
        switch backing {
        case .waiting(let source): source.sent
        case .subject: given.withLock { $0 }
        }
    }

    /// How many times the operator cancelled a waiting source; `nil` for a subject.
    var cancelCount: Int? {
        if case .waiting(let source) = backing { return source.cancelCount }
        return nil
    }

    /// Whether a waiting source passed its completion on; `nil` for a subject.
    var completionPassedOn: Bool? {
        if case .waiting(let source) = backing { return source.didFinish }
        return nil
    }
}

extension Array where Element == ScheduleUpstream {
    /// Lets every sender still waiting go.
    func closeAll() {
        for upstream in self { upstream.close() }
    }

    /// Ends every upstream once the run is over and checked (see ``ScheduleUpstream/end()``).
    func endAll() {
        for upstream in self { upstream.end() }
    }
}
