#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension TimelineRecorder {
    /// The events kept, as a trace in the Trace Event Format (JSON), which Perfetto
    /// (ui.perfetto.dev) and `chrome://tracing` open.
    ///
    /// Each marked point is a process of the trace, named after the point, and each subscription
    /// through it a track of its own, named after its lane and the thread it started on. A
    /// subscription's life is a slice from its first event kept to its end (or to now, while it
    /// lives); values, demand and the completion or cancel are instants on it, with the thread each
    /// happened on. Times are microseconds on the recorder's clock. When older events were dropped,
    /// `otherData.droppedEvents` says how many.
    public func traceEvents() -> String {
        let (events, dropped) = snapshot()
        let now = clock.now()
        var points: [String: Int] = [:]
        var output: [String] = []
        func point(_ name: String) -> Int {
            if let id = points[name] { return id }
            let id = points.count + 1
            points[name] = id
            output.append(
                #"{"ph":"M","name":"process_name","pid":\#(id),"tid":0,"args":{"name":\#(Self.json(name))}}"#)
            return id
        }
        // Each lane's first event, last event and whether it ended.
        var lanes: [TimelineLane: (first: TimelineEvent, last: TimelineEvent, ended: Bool)] = [:]
        var order: [TimelineLane] = []
        for event in events {
            let ends: Bool
            switch event.kind {
            case .finished, .failed, .cancelled: ends = true
            case .subscribed, .requested, .value: ends = false
            }
            if let known = lanes[event.lane] {
                lanes[event.lane] = (known.first, event, known.ended || ends)
            } else {
                lanes[event.lane] = (event, event, ends)
                order.append(event.lane)
            }
        }
        for lane in order {
            guard let (first, last, ended) = lanes[lane] else { continue }
            let pid = point(lane.name)
            let tid = lane.subscription
            let track = "#\(lane.subscription) (started on \(first.thread))"
            output.append(
                #"{"ph":"M","name":"thread_name","pid":\#(pid),"tid":\#(tid),"args":{"name":\#(Self.json(track))}}"#)
            let end = ended ? last.time : max(now, last.time)
            output.append(
                #"{"ph":"X","name":\#(Self.json(lane.description)),"cat":"subscription","pid":\#(pid),"tid":\#(tid),"ts":\#(Self.microseconds(first.time)),"dur":\#(Self.microseconds(end - first.time)),"args":{"ended":\#(ended)}}"#
            )
        }
        for event in events {
            let pid = point(event.lane.name)
            output.append(
                #"{"ph":"i","s":"t","name":\#(Self.json(event.description)),"cat":"event","pid":\#(pid),"tid":\#(event.lane.subscription),"ts":\#(Self.microseconds(event.time)),"args":{"thread":\#(Self.json(event.thread))}}"#
            )
        }
        return """
            {"traceEvents":[
            \(output.joined(separator: ",\n"))
            ],"displayTimeUnit":"ms","otherData":{"droppedEvents":\(dropped)}}

            """
    }

    /// Writes ``traceEvents()`` to a file at `path`, replacing one that is there.
    ///
    /// - Throws: ``TimelineError/cannotWrite(path:reason:)`` if the file cannot be written; nothing
    ///   else changes then.
    public func writeTrace(to path: String) throws(TimelineError) {
        let bytes = Array(traceEvents().utf8)
        guard let file = fopen(path, "w") else {
            throw .cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        let written = fwrite(bytes, 1, bytes.count, file)
        let failure = written == bytes.count ? nil : String(cString: strerror(errno))
        if fclose(file) != 0 || failure != nil {
            throw .cannotWrite(path: path, reason: failure ?? String(cString: strerror(errno)))
        }
    }

    /// A duration in microseconds, as a JSON number with three decimals.
    static func microseconds(_ duration: Duration) -> String {
        threeDecimals(duration, thousandthsPerSecond: 1_000_000_000)
    }

    /// A string as a JSON string literal.
    static func json(_ string: String) -> String {
        var escaped = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case let control where control.value < 0x20:
                escaped +=
                    "\\u" + String(repeating: "0", count: 4 - String(control.value, radix: 16).count)
                    + String(control.value, radix: 16)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }
}
