import Streams

/// A view model with one property, which follows a publisher with `ObservedPublisher`: the model
/// changes, and its `objectWillChange` fires, only when the publisher sends a value.
final class PartViewModel<Value>: ObservableObject {
    /// The latest value the publisher sent.
    @ObservedPublisher var value: Value

    /// Follows a publisher for as long as the model lives.
    ///
    /// - Parameters:
    ///   - publisher: The publisher to follow, such as a slice of a store.
    ///   - initial: The value until the publisher sends one.
    init<P: Publisher>(following publisher: P, initial: Value) where P.Output == Value, P.Failure == Never {
        _value = ObservedPublisher(publisher: publisher, initial: initial)
    }
}
