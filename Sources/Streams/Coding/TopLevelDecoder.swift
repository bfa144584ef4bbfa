/// A type that defines methods for decoding.
///
/// Conform a decoder to this protocol to use it with the ``Publisher/decode(type:decoder:)``
/// operator. Foundation's `JSONDecoder` and `PropertyListDecoder` conform already.
///
/// ```swift
/// struct Book: Decodable { let title: String }
/// let data = Data(#"[{"title": "Dune"}]"#.utf8)
/// let cancellable = Just(data)
///     .decode(type: [Book].self, decoder: JSONDecoder())
///     .sink(receiveCompletion: { _ in }, receiveValue: { print($0.map(\.title)) })
/// // Prints: ["Dune"]
/// ```
public protocol TopLevelDecoder {
    /// The type this decoder accepts.
    associatedtype Input

    /// Decodes an instance of the indicated type.
    ///
    /// - Parameters:
    ///   - type: The type of the value to decode.
    ///   - from: The encoded input to decode it from.
    /// - Returns: The decoded value.
    func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}
