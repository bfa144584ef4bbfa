/// Scenarios 11, the seeds' store: one app state of ten fields (`State10`), `observers` observers,
/// observer `index` using field `index % 10` (`ObservationWork.field(ofObserver:)`), and write number
/// `write` changing one field (`State10.update`), so a tenth of the observers see their part change.
public enum SeedsWork {
    /// What an observer does with its part when it runs (a view's body, say): reads it into the
    /// tally. Every implementation calls this, so their checksums agree.
    @inlinable
    public static func render(_ part: Int, into tally: Tally) {
        tally.add(part)
    }
}
