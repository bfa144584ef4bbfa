/// A caller's predicate as an operator's logic calls it: plain, or throwing for the operator's `try`
/// variant.
///
/// An operator whose plain and `try` variants differ only in whether the predicate may throw writes its
/// logic once, generic over this type: the plain variant fails only with the upstream's failure, the
/// `try` variant with `any Error`, from the upstream or from the predicate.
@usableFromInline
protocol OperatorPredicate {
    /// The value the predicate tests.
    associatedtype Input
    /// The upstream's failure.
    associatedtype UpstreamFailure: Error
    /// The operator's failure.
    associatedtype Failure: Error

    /// Calls the predicate. A plain predicate never throws.
    func callAsFunction(_ input: Input) throws(Failure) -> Bool

    /// Converts the upstream's failure into the operator's.
    static func convert(_ failure: UpstreamFailure) -> Failure
}

/// A predicate that cannot throw: the operator's failure is the upstream's.
@usableFromInline
struct PlainPredicate<Input, Failure: Error>: OperatorPredicate {
    @usableFromInline
    typealias UpstreamFailure = Failure

    @usableFromInline
    let body: (Input) -> Bool

    @inlinable
    init(_ body: @escaping (Input) -> Bool) {
        self.body = body
    }

    @inlinable
    func callAsFunction(_ input: Input) throws(Failure) -> Bool { body(input) }

    @inlinable
    static func convert(_ failure: Failure) -> Failure { failure }
}

/// A predicate that may throw: the operator fails with `any Error`.
@usableFromInline
struct ThrowingPredicate<Input, UpstreamFailure: Error>: OperatorPredicate {
    @usableFromInline
    let body: (Input) throws -> Bool

    @inlinable
    init(_ body: @escaping (Input) throws -> Bool) {
        self.body = body
    }

    @inlinable
    func callAsFunction(_ input: Input) throws(any Error) -> Bool { try body(input) }

    @inlinable
    static func convert(_ failure: UpstreamFailure) -> any Error { failure }
}
