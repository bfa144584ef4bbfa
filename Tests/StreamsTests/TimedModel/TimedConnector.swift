/// The connection of a `multicast(subject:)` case, in Streams or in the reference: how to connect, and
/// how to cancel the connection once it is made. It lets the script connect at its time and the run
/// cancel the connection at its end.
final class TimedConnector {
    /// Connects, returning what cancels the connection; `nil` unless the case is a multicast one.
    var connect: (() -> () -> Void)?
    private var cancelConnection: (() -> Void)?

    /// Connects, keeping the connection.
    func connectNow() {
        if let connect { cancelConnection = connect() }
    }

    /// Cancels the connection, if one was made.
    func cancel() {
        let cancelling = cancelConnection
        cancelConnection = nil
        cancelling?()
    }
}
