/// The latest value of each upstream of a combine-latest publisher, and the tuple they make.
///
/// ``Publishers/CombineLatest``, ``Publishers/CombineLatest3`` and ``Publishers/CombineLatest4`` each
/// have one, defined below: a struct with an optional stored property per upstream.
@usableFromInline
protocol CombineLatestBuffers {
    /// The tuple of every upstream's latest value.
    associatedtype Output

    /// Buffers holding no value.
    init()

    /// The tuple of the latest values, once every upstream has sent one.
    var output: Output? { get }

    /// The latest values in upstream order, `nil` where none arrived yet, for the mirror.
    var mirrorValues: [Any?] { get }
}

/// The latest values of the two upstreams of ``Publishers/CombineLatest``.
@usableFromInline
struct CombineLatest2Buffers<A, B>: CombineLatestBuffers {
    @usableFromInline
    var a: A?

    @usableFromInline
    var b: B?

    @inlinable
    init() {}

    @inlinable
    var output: (A, B)? {
        guard let a, let b else { return nil }
        return (a, b)
    }

    @usableFromInline
    var mirrorValues: [Any?] { [a, b] }
}

/// The latest values of the three upstreams of ``Publishers/CombineLatest3``.
@usableFromInline
struct CombineLatest3Buffers<A, B, C>: CombineLatestBuffers {
    @usableFromInline
    var a: A?

    @usableFromInline
    var b: B?

    @usableFromInline
    var c: C?

    @inlinable
    init() {}

    @inlinable
    var output: (A, B, C)? {
        guard let a, let b, let c else { return nil }
        return (a, b, c)
    }

    @usableFromInline
    var mirrorValues: [Any?] { [a, b, c] }
}

/// The latest values of the four upstreams of ``Publishers/CombineLatest4``.
@usableFromInline
struct CombineLatest4Buffers<A, B, C, D>: CombineLatestBuffers {
    @usableFromInline
    var a: A?

    @usableFromInline
    var b: B?

    @usableFromInline
    var c: C?

    @usableFromInline
    var d: D?

    @inlinable
    init() {}

    @inlinable
    var output: (A, B, C, D)? {
        guard let a, let b, let c, let d else { return nil }
        return (a, b, c, d)
    }

    @usableFromInline
    var mirrorValues: [Any?] { [a, b, c, d] }
}
