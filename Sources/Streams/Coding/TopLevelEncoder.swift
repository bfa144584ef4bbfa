/// A type that defines methods for encoding.
///
/// Conform an encoder to this protocol to use it with the ``Publisher/encode(encoder:)`` operator.
/// Foundation's `JSONEncoder` and `PropertyListEncoder` conform already.
///
/// ```swift
/// struct Book: Encodable { let title: String }
/// let cancellable = Just(Book(title: "Dune"))
///     .encode(encoder: JSONEncoder())
///     .sink(receiveCompletion: { _ in }, receiveValue: { print(String(decoding: $0, as: UTF8.self)) })
/// // Prints: {"title":"Dune"}
/// ```
public protocol TopLevelEncoder {
    /// The type this encoder produces.
    associatedtype Output

    /// Encodes an instance of the indicated type.
    ///
    /// - Parameter value: The instance to encode.
    /// - Returns: The encoded form of `value`.
    func encode<T: Encodable>(_ value: T) throws -> Output
}
