internal import CStreamsPlatform

/// The label a timeline gives the calling thread: its name, or `thread` and its number when it has
/// none.
func timelineThreadLabel() -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let length = Int(streams_thread_name(&buffer, buffer.count))
    if length > 0 {
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    return "thread \(streams_thread_number())"
}
