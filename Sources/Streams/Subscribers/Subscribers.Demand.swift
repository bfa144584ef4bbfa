extension Subscribers {
    /// A requested number of items, sent to a publisher from a subscriber through the subscription.
    ///
    /// A demand is either ``unlimited`` or a finite, non-negative count made with ``max(_:)``. Arithmetic
    /// saturates: a sum or product too large for `Int` becomes ``unlimited``, anything subtracted from
    /// ``unlimited`` leaves ``unlimited``, and a difference below zero becomes `.max(0)`.
    ///
    /// ```swift
    /// var demand = Subscribers.Demand.max(2)
    /// demand += 3          // max(5)
    /// demand -= 10         // max(0)
    /// demand + .unlimited  // unlimited
    /// ```
    @frozen
    public struct Demand: Equatable, Comparable, Hashable, Codable, Sendable, CustomStringConvertible {
        /// The count, or `unlimitedRawValue` for an unlimited demand.
        @usableFromInline
        let rawValue: UInt

        /// The raw value that stands for ``unlimited``: one more than the largest finite demand.
        @usableFromInline
        static var unlimitedRawValue: UInt { UInt(Int.max) + 1 }

        @inlinable
        init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        /// A request for as many values as the publisher can produce.
        @inlinable
        public static var unlimited: Demand { Demand(rawValue: unlimitedRawValue) }

        /// A request for no elements from the publisher; the same as `max(0)`.
        @inlinable
        public static var none: Demand { Demand(rawValue: 0) }

        /// Creates a demand for the given maximum number of elements.
        ///
        /// - Parameter value: The maximum number of elements; it must not be negative.
        /// - Returns: A demand for up to `value` elements.
        @inlinable
        public static func max(_ value: Int) -> Demand {
            precondition(value >= 0, "Subscribers.Demand.max requires a non-negative number of elements, got \(value)")
            return Demand(rawValue: UInt(value))
        }

        /// The number of requested values, or `nil` if the demand is ``unlimited``.
        @inlinable
        public var max: Int? {
            rawValue == Demand.unlimitedRawValue ? nil : Int(rawValue)
        }

        /// A textual representation: `unlimited` or `max(n)`.
        public var description: String {
            rawValue == Demand.unlimitedRawValue ? "unlimited" : "max(\(rawValue))"
        }

        // MARK: Arithmetic with demands

        /// Returns the sum of two demands; ``unlimited`` if either is unlimited or the sum overflows.
        @inlinable
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            guard let l = lhs.max, let r = rhs.max else { return .unlimited }
            let (sum, overflow) = l.addingReportingOverflow(r)
            return overflow ? .unlimited : Demand(rawValue: UInt(sum))
        }

        /// Adds a demand to another, in place.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Demand) {
            lhs = lhs + rhs
        }

        /// Returns the difference of two demands.
        ///
        /// Subtracting anything from ``unlimited`` leaves ``unlimited``; subtracting ``unlimited`` from a
        /// finite demand gives `.max(0)`; a negative difference gives `.max(0)`.
        @inlinable
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            guard let l = lhs.max else { return .unlimited }
            guard let r = rhs.max else { return .none }
            return l > r ? Demand(rawValue: UInt(l - r)) : .none
        }

        /// Subtracts a demand from another, in place.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Demand) {
            lhs = lhs - rhs
        }

        // MARK: Arithmetic with integers

        /// Returns a demand increased by a number of elements.
        ///
        /// An unlimited demand stays unlimited; an overflow gives ``unlimited``; a negative result gives
        /// `.max(0)`.
        @inlinable
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            guard let l = lhs.max else { return .unlimited }
            let (sum, overflow) = l.addingReportingOverflow(rhs)
            if overflow { return rhs > 0 ? .unlimited : .none }
            return sum < 0 ? .none : Demand(rawValue: UInt(sum))
        }

        /// Adds a number of elements to a demand, in place.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Int) {
            lhs = lhs + rhs
        }

        /// Returns a demand decreased by a number of elements.
        ///
        /// An unlimited demand stays unlimited. Otherwise the result is never below `.max(0)`, and a
        /// difference too large for an `Int` (subtracting a large negative number) also gives `.max(0)`,
        /// as in Combine: the subtraction does not turn into an addition that saturates.
        @inlinable
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            guard let l = lhs.max else { return .unlimited }
            let (difference, overflow) = l.subtractingReportingOverflow(rhs)
            guard !overflow, difference > 0 else { return .none }
            return Demand(rawValue: UInt(difference))
        }

        /// Subtracts a number of elements from a demand, in place.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Int) {
            lhs = lhs - rhs
        }

        /// Returns a demand multiplied by a number.
        ///
        /// An unlimited demand stays unlimited, whatever the number; a product too large (or too small)
        /// for an `Int` gives ``unlimited``. Any other negative product would be a negative demand,
        /// which stops the program, as ``max(_:)`` does for a negative count.
        @inlinable
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            guard let l = lhs.max else { return .unlimited }
            let (product, overflow) = l.multipliedReportingOverflow(by: rhs)
            if overflow { return .unlimited }
            precondition(
                product >= 0, "Subscribers.Demand cannot be negative: \(lhs) multiplied by \(rhs) is \(product)")
            return Demand(rawValue: UInt(product))
        }

        /// Multiplies a demand by a number, in place.
        @inlinable
        public static func *= (lhs: inout Demand, rhs: Int) {
            lhs = lhs * rhs
        }

        // MARK: Comparison

        /// Returns whether the first demand asks for fewer elements than the second; ``unlimited`` is
        /// greater than every finite demand.
        @inlinable
        public static func < (lhs: Demand, rhs: Demand) -> Bool {
            lhs.rawValue < rhs.rawValue
        }

        /// Returns whether a demand asks for more elements than a number; ``unlimited`` always does.
        @inlinable
        public static func > (lhs: Demand, rhs: Int) -> Bool {
            guard let l = lhs.max else { return true }
            return l > rhs
        }

        /// Returns whether a demand asks for at least as many elements as a number.
        @inlinable
        public static func >= (lhs: Demand, rhs: Int) -> Bool {
            guard let l = lhs.max else { return true }
            return l >= rhs
        }

        /// Returns whether a number is greater than a demand; never true for ``unlimited``.
        @inlinable
        public static func > (lhs: Int, rhs: Demand) -> Bool {
            guard let r = rhs.max else { return false }
            return lhs > r
        }

        /// Returns whether a number is at least a demand; never true for ``unlimited``.
        @inlinable
        public static func >= (lhs: Int, rhs: Demand) -> Bool {
            guard let r = rhs.max else { return false }
            return lhs >= r
        }

        /// Returns whether a demand asks for fewer elements than a number; never true for ``unlimited``.
        @inlinable
        public static func < (lhs: Demand, rhs: Int) -> Bool {
            guard let l = lhs.max else { return false }
            return l < rhs
        }

        /// Returns whether a number is less than a demand; ``unlimited`` is greater than every number.
        @inlinable
        public static func < (lhs: Int, rhs: Demand) -> Bool {
            guard let r = rhs.max else { return true }
            return lhs < r
        }

        /// Returns whether a demand asks for at most a number of elements; never true for ``unlimited``.
        @inlinable
        public static func <= (lhs: Demand, rhs: Int) -> Bool {
            guard let l = lhs.max else { return false }
            return l <= rhs
        }

        /// Returns whether a number is at most a demand; always true for ``unlimited``.
        @inlinable
        public static func <= (lhs: Int, rhs: Demand) -> Bool {
            guard let r = rhs.max else { return true }
            return lhs <= r
        }

        /// Returns whether a demand asks for exactly a number of elements.
        @inlinable
        public static func == (lhs: Demand, rhs: Int) -> Bool {
            lhs.max == rhs
        }

        /// Returns whether a demand does not ask for exactly a number of elements.
        @inlinable
        public static func != (lhs: Demand, rhs: Int) -> Bool {
            lhs.max != rhs
        }

        /// Returns whether a number equals a demand.
        @inlinable
        public static func == (lhs: Int, rhs: Demand) -> Bool {
            rhs.max == lhs
        }

        /// Returns whether a number differs from a demand.
        @inlinable
        public static func != (lhs: Int, rhs: Demand) -> Bool {
            rhs.max != lhs
        }

        // MARK: Codable

        /// Decodes a demand from its raw count.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            // A count beyond any `Int` decodes as unlimited, as in Combine; a negative one is an error.
            let raw = try container.decode(UInt.self)
            self.init(rawValue: Swift.min(raw, Demand.unlimitedRawValue))
        }

        /// Encodes a demand as its raw count.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}
