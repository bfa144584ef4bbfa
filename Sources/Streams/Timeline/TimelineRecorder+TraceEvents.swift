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
    /// Each pipeline is a process of the trace, named after its chain (`PassthroughSubject → Map →
    /// RemoveDuplicates`), and each subscription in it a track of its own, upstream ones first,
    /// named after its lane and the thread it started on. A subscription's life is a slice from its
    /// first event kept to its end (or to now, while it lives). Each value is a slice of no length
    /// on it, with an arrow from the value upstream it came from; demand and the completion or
    /// cancel are instants. Every event carries the thread it happened on. Times are microseconds
    /// on the recorder's clock. When older events were dropped, `otherData.droppedEvents` says how
    /// many.
    public func traceEvents() -> String {
        let (events, dropped) = snapshot()
        let now = clock.now()
        var output: [String] = []
        // Each lane's first event, last event and whether it ended, in the order lanes appear.
        var lanes: [Int: (lane: TimelineLane, first: TimelineEvent, last: TimelineEvent, ended: Bool)] = [:]
        var order: [Int] = []
        for event in events {
            let number = event.lane.subscription
            if let known = lanes[number] {
                lanes[number] = (known.lane, known.first, event, known.ended || event.kind.endsSubscription)
            } else {
                lanes[number] = (event.lane, event, event, event.kind.endsSubscription)
                order.append(number)
            }
        }
        // The lanes from each one to the last of its pipeline, through the lanes kept.
        func chain(from lane: TimelineLane) -> [TimelineLane] {
            var chain = [lane]
            while let number = chain[chain.count - 1].downstream, let downstream = lanes[number]?.lane,
                chain.count <= lanes.count
            {
                chain.append(downstream)
            }
            return chain
        }
        // Each pipeline is named after the chain of its deepest lane (the first of those).
        var pipelines: [Int: [TimelineLane]] = [:]
        var pipelineOrder: [Int] = []
        for number in order {
            guard let lane = lanes[number]?.lane else { continue }
            let laneChain = chain(from: lane)
            if pipelines[lane.pipeline] == nil { pipelineOrder.append(lane.pipeline) }
            if laneChain.count > pipelines[lane.pipeline]?.count ?? 0 { pipelines[lane.pipeline] = laneChain }
        }
        for pipeline in pipelineOrder {
            let name = (pipelines[pipeline] ?? []).map(\.name).joined(separator: " → ")
            output.append(
                #"{"ph":"M","name":"process_name","pid":\#(pipeline),"tid":0,"args":{"name":\#(Self.json(name))}}"#)
        }
        for number in order {
            guard let (lane, first, last, ended) = lanes[number] else { continue }
            let pid = lane.pipeline
            let track = "\(lane) (started on \(first.thread))"
            output.append(
                #"{"ph":"M","name":"thread_name","pid":\#(pid),"tid":\#(number),"args":{"name":\#(Self.json(track))}}"#)
            output.append(
                #"{"ph":"M","name":"thread_sort_index","pid":\#(pid),"tid":\#(number),"args":{"sort_index":\#(1 - chain(from: lane).count)}}"#
            )
            let end = ended ? last.time : max(now, last.time)
            output.append(
                #"{"ph":"X","name":\#(Self.json(lane.description)),"cat":"subscription","pid":\#(pid),"tid":\#(number),"ts":\#(Self.microseconds(first.time)),"dur":\#(Self.microseconds(end - first.time)),"args":{"ended":\#(ended)}}"#
            )
        }
        var kept: [Int: TimelineEvent] = [:]
        for event in events { kept[event.id] = event }
        for event in events {
            let place =
                #""pid":\#(event.lane.pipeline),"tid":\#(event.lane.subscription),"ts":\#(Self.microseconds(event.time))"#
            let args = #""args":{"thread":\#(Self.json(event.thread))}"#
            guard case .value = event.kind else {
                output.append(
                    #"{"ph":"i","s":"t","name":\#(Self.json(event.description)),"cat":"event",\#(place),\#(args)}"#)
                continue
            }
            output.append(
                #"{"ph":"X","name":\#(Self.json(event.description)),"cat":"value",\#(place),"dur":0,\#(args)}"#)
            // An arrow from the value it came from, when that one is kept.
            if let cause = event.cause.flatMap({ kept[$0] }) {
                output.append(
                    #"{"ph":"s","name":"value","cat":"flow","id":\#(event.id),"pid":\#(cause.lane.pipeline),"tid":\#(cause.lane.subscription),"ts":\#(Self.microseconds(cause.time))}"#
                )
                output.append(#"{"ph":"f","bp":"e","name":"value","cat":"flow","id":\#(event.id),\#(place)}"#)
            }
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
