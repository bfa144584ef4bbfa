/// What one slot of a churn thread's pool holds: the subscribers attached together, and whatever
/// else keeps them attached (a wrapper object, a connection).
final class Attachment {
    /// How an attachment still attached when the churning stops ends.
    enum Ending {
        /// Its publisher completes when the workload ends it; every participant must receive the
        /// completion.
        case completion
        /// Its publisher never completes (an `objectWillChange`, say): the churn thread cancels it.
        case cancellation
    }

    /// The subscribers under test.
    let participants: [any Participant]
    /// How it ends if still attached when the churning stops.
    let ending: Ending
    /// Objects that live as long as the attachment (a `Deduplicated` wrapper, an `ObservedPublisher`,
    /// a multicast publisher); released with it, and then expected to be freed.
    private var kept: [AnyObject]
    /// Runs before the participants are cancelled: cancelling a multicast connection, say.
    private var beforeCancelling: (() -> Void)?

    /// An attachment of `participants`, keeping `kept` alive, running `beforeCancelling` when detached,
    /// and ending as `ending` says if still attached at the end.
    init(
        _ participants: [any Participant], keeping kept: [AnyObject] = [], ending: Ending,
        beforeCancelling: (() -> Void)? = nil
    ) {
        self.participants = participants
        self.ending = ending
        self.kept = kept
        self.beforeCancelling = beforeCancelling
    }

    /// Cancels every participant from this thread (and whatever comes first).
    func detach() {
        beforeCancelling.take()?()
        for participant in participants { participant.cancelFromOutside() }
    }

    /// Asks one participant paced in bursts for more values.
    func poke(using random: inout SoakRandom) {
        participants.randomElement(using: &random)?.requestFromOutside()
    }

    /// Lets go of everything, noting weak references to what should now be freed: the participants'
    /// subscriptions and the kept objects.
    func release(into ring: inout ReleaseRing) {
        for participant in participants {
            if let subscription = participant.subscriptionReference { ring.note(subscription) }
        }
        for object in kept { ring.note(object) }
        kept.removeAll()
        beforeCancelling = nil
    }
}
