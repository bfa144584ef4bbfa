/// A type of object with a publisher that emits before the object has changed.
///
/// By default an observable object gets an ``ObservableObjectPublisher`` as its `objectWillChange`,
/// and every `@Published` property sends through it before its value changes — properties declared in
/// superclasses and subclasses alike:
///
/// ```swift
/// final class Contact: ObservableObject {
///     @Published var name: String
///     @Published var age: Int
///
///     init(name: String, age: Int) {
///         self.name = name
///         self.age = age
///     }
///
///     func haveBirthday() -> Int {
///         age += 1
///         return age
///     }
/// }
///
/// let john = Contact(name: "John Appleseed", age: 24)
/// let cancellable = john.objectWillChange.sink { _ in print("\(john.age) will change") }
/// print(john.haveBirthday())
/// // Prints:
/// // 24 will change
/// // 25
/// ```
///
/// The default publisher is created the first time `objectWillChange` is read and kept for the
/// object's lifetime; reading it again finds it without inspecting the object. Until somebody reads
/// it, writing a `@Published` property sends nothing and costs next to nothing.
///
/// Streams adds ``objectDidChange``: the same signal, sent after the change, for observers that need
/// to read the new state synchronously (see ``Deduplicated``).
public protocol ObservableObject: AnyObject {
    /// The type of publisher that emits before the object has changed.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// A publisher that emits before the object has changed.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// A publisher that emits before the object has changed: the object's own, created on first use.
    public var objectWillChange: ObservableObjectPublisher {
        ObservationRegistry.shared.signals(for: self).willChange
    }
}

extension ObservableObject {
    /// A publisher that emits after the object has changed.
    ///
    /// `@Published` properties send through it right after storing a new value, so a subscriber can
    /// read the object's new state at once. Objects with a custom `objectWillChange` publisher also get
    /// one, but it fires only for `@Published` properties. This publisher is a Streams addition;
    /// Combine has no counterpart.
    ///
    /// ```swift
    /// final class Counter: ObservableObject {
    ///     @Published var count = 0
    /// }
    /// let counter = Counter()
    /// let cancellable = counter.objectDidChange.sink { print("changed to", counter.count) }
    /// counter.count = 1
    /// // Prints: changed to 1
    /// ```
    public var objectDidChange: ObservableObjectPublisher {
        ObservationRegistry.shared.signals(for: self).didChange
    }
}
