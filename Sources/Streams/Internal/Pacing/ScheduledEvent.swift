/// Something an operator that delivers on a scheduler (`receive(on:)`, `delay`, `timeout`) has taken in
/// from upstream and will hand downstream later.
@usableFromInline
enum ScheduledEvent<Input, Failure: Error> {
    /// A value to deliver.
    case value(Input)
    /// The upstream's completion, delivered after every value before it.
    case completion(Subscribers.Completion<Failure>)
}
