import Synchronization

/// A unique identifier for identifying publisher streams.
///
/// Subscriptions and subscribers use a `CombineIdentifier` to tell instances apart. Classes get one
/// derived from their object identity; value types create a fresh one with ``init()``.
public struct CombineIdentifier: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline
    let rawValue: UInt64

    /// Creates a unique identifier, distinct from every other identifier created this way.
    @inlinable
    public init() {
        rawValue = CombineIdentifier.nextRawValue()
    }

    /// Creates an identifier for the given object, equal for as long as the object lives; it prints
    /// as the object's address, as in Combine.
    ///
    /// - Parameter obj: The object whose identity the identifier reflects.
    @inlinable
    public init(_ obj: AnyObject) {
        rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj)))
    }

    /// The identifier in hexadecimal, such as `0x7f9a2c004a60`.
    public var description: String {
        "0x" + String(rawValue, radix: 16)
    }

    /// Values from this counter have their top bit set, so they never collide with an object address.
    @usableFromInline
    static func nextRawValue() -> UInt64 {
        identifierCounter.add(1, ordering: .relaxed).newValue | (1 << 63)
    }
}

/// The counter behind ``CombineIdentifier/init()``.
private let identifierCounter = Atomic<UInt64>(0)

/// A protocol for uniquely identifying publisher streams.
///
/// Subscribers and subscriptions conform. A class gets a conformance for free; a structure provides a
/// stored ``CombineIdentifier`` made with ``CombineIdentifier/init()``.
public protocol CustomCombineIdentifierConvertible {
    /// A unique identifier for identifying publisher streams.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    /// The identity of this object as a ``CombineIdentifier``.
    @inlinable
    public var combineIdentifier: CombineIdentifier {
        CombineIdentifier(self)
    }
}
