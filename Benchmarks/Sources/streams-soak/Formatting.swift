extension Duration {
    /// The duration in seconds.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in whole nanoseconds.
    var inNanoseconds: Int {
        Int(components.seconds) * 1_000_000_000 + Int(components.attoseconds / 1_000_000_000)
    }
}

/// Number formatting for the report.
enum Formatting {
    /// An integer with thousands separators: 1,234,567.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }

    /// Bytes in mebibytes, one decimal: 12.3 MiB; a dash for nil.
    static func mebibytes(_ bytes: Int?) -> String {
        guard let bytes else { return "—" }
        return decimal(Double(bytes) / Double(MemoryPolicy.mebibyte), places: 1) + " MiB"
    }

    /// A signed difference in mebibytes: +1.2 MiB, -0.4 MiB; +0.0 MiB for less than a twentieth.
    static func signedMebibytes(_ bytes: Int) -> String {
        let rounded = mebibytes(abs(bytes))
        return (bytes < 0 && rounded != "0.0 MiB" ? "-" : "+") + rounded
    }

    /// Nanoseconds in milliseconds, one decimal: 0.3 ms.
    static func milliseconds(nanoseconds: Int) -> String {
        decimal(Double(nanoseconds) / 1e6, places: 1) + " ms"
    }

    /// A number with a fixed number of decimals.
    static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = String(scaled / Int(scale))
        guard places > 0 else { return whole }
        let fraction = String(abs(scaled) % Int(scale))
        let sign = scaled < 0 && scaled / Int(scale) == 0 ? "-" : ""
        return sign + whole + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}
