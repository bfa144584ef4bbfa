#if canImport(Darwin)
    import Observation
#else
    // The toolchain's Observation module carries its did-set tracking, which Apple's SDKs do not
    // publish; with it, a change is announced after the new value is stored.
    @_spi(SwiftUI) import Observation
#endif
import Synchronization

/// What an observation tracking token reports to.
@usableFromInline
protocol ObservationTrackingTarget: AnyObject, Sendable {
    /// Something the last read read has changed. Where Observation announces changes once they are
    /// stored (``ObservationTrackingToken/announcesStoredValues``), a read from now on sees the new
    /// value; elsewhere the new value may not be stored yet.
    func changed()

    /// The last read's tracking was let go of without a change: whatever it read is gone, or it
    /// read nothing observable, so nothing will change any more.
    func trackingDropped()
}

/// One tracked read: what the installations of observation tracking made for it capture in their
/// change handlers, and the one change it announces.
///
/// The models' registrars hold the handlers, and with them this token, until a change (each handler
/// runs once, then is let go of) or until the models are deallocated (the handlers are let go of
/// without running). The token tells its target which of the two happened, once: the first change
/// announced by any of its installations is the read's change, and the others, the same write seen
/// by a second installation, are ignored (announcing them would schedule one more read per write,
/// per installation, doubling with every write). It holds the target weakly, so a cancelled
/// subscription is freed even while a model still holds its handlers.
@usableFromInline
final class ObservationTrackingToken: Sendable {
    private let fired = Atomic<Bool>(false)
    private weak let target: (any ObservationTrackingTarget)?

    /// Whether a change is announced after its value is stored (the toolchain's Observation), rather
    /// than before (Apple's SDKs, whose Observation publishes only its will-set tracking).
    @usableFromInline
    static var announcesStoredValues: Bool {
        #if canImport(Darwin)
            false
        #else
            true
        #endif
    }

    private init(target: any ObservationTrackingTarget) {
        self.target = target
    }

    /// Whether a change has been announced: the read's tracking is spent.
    var hasFired: Bool {
        fired.load(ordering: .acquiring)
    }

    /// Reads `read` with tracking installed, reporting to `target`, and returns what it read, with
    /// the token of the read's tracking.
    ///
    /// Observation installs tracking only after the read has returned, so a write that lands between
    /// the read and the installation is neither read nor announced. The read is therefore made twice:
    /// the second starts once the first one's tracking is installed, so it sees any write the first
    /// missed, and a write after the first installation is announced by it or by the second. The
    /// second read's value is returned; one token serves both installations, so a write announced by
    /// both is announced to `target` once.
    @usableFromInline
    static func read<Value>(
        _ read: () -> Value, reportingTo target: any ObservationTrackingTarget
    ) -> (value: Value, token: ObservationTrackingToken) {
        let token = ObservationTrackingToken(target: target)
        _ = token.track(read)
        return (token.track(read), token)
    }

    /// Reads `read` with one installation of tracking that fires this token.
    private func track<Value>(_ read: () -> Value) -> Value {
        #if canImport(Darwin)
            withObservationTracking(read, onChange: { [self] in fire() })
        #else
            withObservationTracking(
                read,
                didSet: { [self] tracking in
                    // Did-set tracking lasts until cancelled: it is spent by its first change.
                    tracking.cancel()
                    fire()
                })
        #endif
    }

    /// Runs in a change handler, on the thread that writes the new value.
    private func fire() {
        guard fired.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        target?.changed()
    }

    deinit {
        if !fired.load(ordering: .acquiring) {
            target?.trackingDropped()
        }
    }
}
