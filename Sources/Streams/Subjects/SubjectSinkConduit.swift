/// The conduit of a ``Subscribers/Sink``: it holds the sink as it is, without a ``SubscriberBox``,
/// and calls the sink's value closure itself.
///
/// A subject delivering a value to many sinks would otherwise take each sink's lock and retain and
/// release each one's closure, which costs more than the closures' own work. The conduit keeps the
/// value closure the sink had when it subscribed, in a constant it lets go of only when it goes
/// itself: the subject lets go of its conduits only on its delivering thread, or while no thread
/// delivers, so the delivering thread calls the closure as it is stored, without a lock or a retain.
/// The sink's closures only ever change to none (when it completes or is cancelled), so calling the
/// copy while the sink still has them, as ``Subscribers/Sink/hasHandlers`` says, is what the sink
/// would do.
@usableFromInline
final class SubjectSinkConduit<Output, Failure: Error>: SubjectConduit<Output, Failure> {
    @usableFromInline
    typealias Sink = Subscribers.Sink<Output, Failure>

    /// The sink's value closure as it was when it subscribed, `nil` if it had already ended; kept as
    /// the sink stores it, so that copying it in costs no allocation.
    @usableFromInline
    let receiveValue: Sink.ValueHandler?

    @inlinable
    init(broadcaster: __shared SubjectBroadcaster<Output, Failure>, subject: AnyObject?, sink: Sink) {
        receiveValue = sink.valueHandlerForDelivery
        super.init(
            broadcaster: broadcaster,
            subject: subject,
            downstream: sink,
            deliverValue: { SubjectSinkConduit.deliverValue($0, $1, $2) },
            deliverCompletion: { SubjectSinkConduit.deliverCompletion($0, $1) },
            cancellation: { SubjectConduit.end($0) })
    }

    /// Delivers a value; called by the subject's delivering thread only.
    @inlinable
    static func deliverValue(
        _ base: SubjectConduit<Output, Failure>, _ value: Output, _ isCurrentValue: Bool
    ) -> Subscribers.Demand? {
        guard base.admitsValue(isCurrentValue: isCurrentValue), let storage = base.downstreamStorage else { return nil }
        // The handler is a constant of the conduit, which the caller keeps alive: used as stored.
        let conduit = Unmanaged.passUnretained(unsafeDowncast(base, to: SubjectSinkConduit.self))
        conduit._withUnsafeGuaranteedRef { conduit in
            Unmanaged<Sink>.fromOpaque(storage)._withUnsafeGuaranteedRef {
                $0.deliverDirectly(value, through: conduit.receiveValue)
            }
        }
        return Subscribers.Demand.none
    }

    /// Ends the subscription and delivers the completion (see ``SubjectConduit/endForCompletion(_:)``).
    @inlinable
    static func deliverCompletion(
        _ base: SubjectConduit<Output, Failure>, _ completion: Subscribers.Completion<Failure>
    ) {
        guard let (owner, storage) = base.endForCompletion(completion) else { return }
        // The subject lives until its completion has been delivered, as in Combine.
        defer { withExtendedLifetime(owner) {} }
        Unmanaged<Sink>.fromOpaque(storage.toOpaque()).takeRetainedValue().receive(completion: completion)
    }

    @usableFromInline
    override var downstreamForReflection: Any? {
        withDownstreamForReflection { Unmanaged<Sink>.fromOpaque($0).takeUnretainedValue() }
    }
}
