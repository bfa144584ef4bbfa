public import Dispatch
public import Foundation
public import Streams

// combine-schedulers' earlier names for its unimplemented schedulers, which it still declares, so that
// tests using them compile here too. As there, they are deprecated in favour of the new names.

/// The earlier name of ``UnimplementedScheduler``.
@available(*, deprecated, renamed: "UnimplementedScheduler")
public typealias FailingScheduler = UnimplementedScheduler

/// The earlier name of ``UnimplementedSchedulerOf``.
@available(*, deprecated, renamed: "UnimplementedSchedulerOf")
public typealias FailingSchedulerOf = UnimplementedSchedulerOf

extension DispatchQueue {
    /// The earlier name of `unimplemented`.
    @available(*, deprecated, renamed: "unimplemented")
    public static var failing: UnimplementedSchedulerOf<DispatchQueue> { unimplemented }

    /// The earlier name of `unimplemented(_:)`.
    @available(*, deprecated, renamed: "unimplemented(_:)")
    public static func failing(_ prefix: String) -> UnimplementedSchedulerOf<DispatchQueue> {
        unimplemented(prefix)
    }
}

extension RunLoop {
    /// The earlier name of `unimplemented`.
    @available(*, deprecated, renamed: "unimplemented")
    public static var failing: UnimplementedSchedulerOf<RunLoop> { unimplemented }

    /// The earlier name of `unimplemented(_:)`.
    @available(*, deprecated, renamed: "unimplemented(_:)")
    public static func failing(_ prefix: String) -> UnimplementedSchedulerOf<RunLoop> {
        unimplemented(prefix)
    }
}

extension OperationQueue {
    /// The earlier name of `unimplemented`.
    @available(*, deprecated, renamed: "unimplemented")
    public static var failing: UnimplementedSchedulerOf<OperationQueue> { unimplemented }

    /// The earlier name of `unimplemented(_:)`.
    @available(*, deprecated, renamed: "unimplemented(_:)")
    public static func failing(_ prefix: String) -> UnimplementedSchedulerOf<OperationQueue> {
        unimplemented(prefix)
    }
}
