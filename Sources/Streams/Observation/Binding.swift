/// A two-way connection to a value stored somewhere else.
///
/// A binding reads through its `get` closure and writes through its `set` closure, so a component can
/// edit a value it doesn't own. Dynamic member lookup projects a binding to a property of the value:
///
/// ```swift
/// struct Profile {
///     var name = ""
///     var age = 0
/// }
/// let store = CurrentValueSubject<Profile, Never>(Profile())
/// let name: Binding<String> = store.binding.name
/// name.wrappedValue = "Ada"
/// print(store.value.name)
/// // Prints: Ada
/// ```
@propertyWrapper
@dynamicMemberLookup
public struct Binding<Value> {
    private let getValue: () -> Value
    private let setValue: (Value) -> Void

    /// Creates a binding with closures that read and write the value.
    ///
    /// - Parameters:
    ///   - get: Reads the value.
    ///   - set: Writes a new value.
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        getValue = get
        setValue = set
    }

    /// Creates a binding from the projected value of another, as `@Binding var x: T` receives one.
    ///
    /// - Parameter projectedValue: The binding to use.
    public init(projectedValue: Binding<Value>) {
        self = projectedValue
    }

    /// A binding to a value that never changes: writes are ignored.
    ///
    /// - Parameter value: The value to return.
    /// - Returns: A binding whose reads return `value`.
    public static func constant(_ value: Value) -> Binding<Value> {
        Binding(get: { value }, set: { _ in })
    }

    /// The value: reading calls `get`, writing calls `set`.
    public var wrappedValue: Value {
        get { getValue() }
        nonmutating set { setValue(newValue) }
    }

    /// The binding itself, so `$property` passes it on.
    public var projectedValue: Binding<Value> {
        self
    }

    /// A binding to a property of the value: reads project, writes modify the value and write it back.
    public subscript<Property>(dynamicMember keyPath: WritableKeyPath<Value, Property>) -> Binding<Property> {
        Binding<Property>(
            get: { self.getValue()[keyPath: keyPath] },
            set: { newValue in
                var value = self.getValue()
                value[keyPath: keyPath] = newValue
                self.setValue(value)
            })
    }
}

extension Binding {
    /// A binding that reads a part of a store's state and dispatches writes into the store.
    ///
    /// Each write sets the subject's value with the part replaced, so every subscriber of the store
    /// sees it.
    ///
    /// ```swift
    /// let store = CurrentValueSubject<Profile, Never>(Profile())
    /// let name = Binding.dispatched(to: store, \.name)
    /// name.wrappedValue = "Grace"   // store.value.name == "Grace"
    /// ```
    ///
    /// - Parameters:
    ///   - subject: The store.
    ///   - keyPath: The part of the state to bind.
    /// - Returns: A binding to that part of the state.
    public static func dispatched<State>(
        to subject: CurrentValueSubject<State, Never>, _ keyPath: WritableKeyPath<State, Value>
    ) -> Binding<Value> {
        Binding(
            get: { subject.value[keyPath: keyPath] },
            set: { newValue in
                var state = subject.value
                state[keyPath: keyPath] = newValue
                subject.value = state
            })
    }
}

extension CurrentValueSubject where Failure == Never {
    /// A binding to the subject's value: writes send the new value.
    public var binding: Binding<Output> {
        Binding(get: { self.value }, set: { self.value = $0 })
    }

    /// A binding to a part of the subject's value: writes send the value with that part replaced.
    ///
    /// - Parameter keyPath: The part of the value to bind.
    /// - Returns: A binding to that part.
    public func binding<Property>(for keyPath: WritableKeyPath<Output, Property>) -> Binding<Property> {
        Binding.dispatched(to: self, keyPath)
    }
}
