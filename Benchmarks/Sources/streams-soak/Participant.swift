/// A subscriber under test, as the thread that attached it sees it.
protocol Participant: AnyObject {
    /// Cancels the subscription from this thread; afterwards at most one value, one that another thread
    /// was already handing over, may arrive.
    func cancelFromOutside()

    /// Asks for more values from this thread, if the subscriber is paced in bursts.
    func requestFromOutside()

    /// Asks for every remaining value, so that a publisher waiting for demand can run to its end.
    func openUpDemand()

    /// Whether the subscriber has been cancelled or has received its completion.
    var hasEnded: Bool { get }

    /// The subscription the subscriber received, held weakly: nil once the publisher let go of it.
    var subscriptionReference: AnyObject? { get }

    /// Records a violation if the subscriber never received a subscription, or, when
    /// `expectingCompletion`, if it is still attached.
    func checkEnded(expectingCompletion: Bool)
}
