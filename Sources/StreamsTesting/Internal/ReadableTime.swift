import Foundation
import Streams

/// Writes virtual times and strides in units a person reads at a glance, for test failure messages
/// and descriptions.
///
/// The rule: the largest of seconds, milliseconds, microseconds and nanoseconds in which the amount
/// is at least 1, written exactly with trailing zeros dropped, then a space and the unit: `1.5 s`,
/// `250 ms`, `3 µs`, `1.000001 s`, `-20 ms`. Zero is `0 s`. Strides that count seconds in a
/// floating-point number (run loop and operation queue strides) are shown to the nanosecond.
///
/// It knows the strides of the schedulers Streams declares (`DispatchQueue`, `RunLoop`,
/// `OperationQueue`) and `Duration`; any other time is written as Swift describes it.
enum ReadableTime {
    /// `time` in readable units, or as Swift describes it when its type is not a known stride.
    static func describe(_ time: Any) -> String {
        nanoseconds(of: time).map(describe(nanoseconds:)) ?? String(describing: time)
    }

    /// The whole number of nanoseconds `time` stands for, if it is a known stride.
    static func nanoseconds(of time: Any) -> Int? {
        switch time {
        case let stride as DispatchQueue.SchedulerTimeType.Stride:
            return stride.magnitude
        case let stride as RunLoop.SchedulerTimeType.Stride:
            return nanoseconds(seconds: stride.magnitude)
        case let stride as OperationQueue.SchedulerTimeType.Stride:
            return nanoseconds(seconds: stride.magnitude)
        case let duration as Duration:
            return duration.clampedNanoseconds
        default:
            return nil
        }
    }

    /// A count of nanoseconds in readable units.
    static func describe(nanoseconds: Int) -> String {
        guard nanoseconds != 0 else { return "0 s" }
        let sign = nanoseconds < 0 ? "-" : ""
        let amount = nanoseconds.magnitude
        let units: [(scale: UInt, name: String, digits: Int)] = [
            (1_000_000_000, "s", 9), (1_000_000, "ms", 6), (1_000, "µs", 3), (1, "ns", 0),
        ]
        let unit = units.first { amount >= $0.scale } ?? units[units.count - 1]
        let whole = amount / unit.scale
        var fraction = ""
        if unit.digits > 0 {
            let rest = String(amount % unit.scale)
            fraction = String(repeating: "0", count: unit.digits - rest.count) + rest
            while fraction.last == "0" { fraction.removeLast() }
        }
        return sign + String(whole) + (fraction.isEmpty ? "" : "." + fraction) + " " + unit.name
    }

    /// `seconds` rounded to whole nanoseconds, if that fits in an `Int`.
    private static func nanoseconds(seconds: Double) -> Int? {
        let count = (seconds * 1_000_000_000).rounded()
        guard count.isFinite, count > Double(Int.min), count < Double(Int.max) else { return nil }
        return Int(count)
    }
}
