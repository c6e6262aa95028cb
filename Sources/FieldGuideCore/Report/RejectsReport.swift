import FieldGuideDiagnostics
import FieldGuideCSV

/// How bad a finding about an input row is.
public enum Severity: String, Sendable, Codable, Comparable {
    /// The row was kept; something in it was odd (an unknown code, a cleared field).
    case warning
    /// The row was not kept.
    case rejected

    public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .rejected }
}

/// One finding about one input row: where it is, which field, what was there, and why.
///
/// ```swift
/// RowIssue(.rejected, file: "MASTER.txt", line: 12, field: "CERT ISSUE DATE",
///          value: "20230231", reason: "expected a calendar date YYYYMMDD")
/// ```
public struct RowIssue: Sendable, Hashable, Codable, CustomStringConvertible {
    public var severity: Severity
    public var file: String
    public var line: Int
    public var field: String
    public var value: String
    public var reason: String

    public init(_ severity: Severity, file: String, line: Int, field: String, value: String, reason: String) {
        self.severity = severity; self.file = file; self.line = line; self.field = field; self.value = value
        self.reason = reason
    }

    public var description: String {
        "\(file):\(line): \(severity.rawValue): \(field) \"\(value)\": \(reason)"
    }

    /// The issue as a rejects report row, in ``RejectsReport/header``'s order.
    public var csvFields: [String] { [severity.rawValue, file, String(line), field, value, reason] }
}

/// A rejects report held in memory: every row it lists and every warning, as CSV. For reports
/// of bounded size (`aggregate-ebd` lists at most `listedPerReason` a reason); one that grows
/// with the input goes through a `RejectSpool`.
///
/// Columns: `severity,file,line,field,value,reason`, in input order.
public struct RejectsReport: Sendable {
    public static let header = ["severity", "file", "line", "field", "value", "reason"]
    public private(set) var issues: [RowIssue] = []

    public init() {}

    public mutating func append(_ issue: RowIssue) { issues.append(issue) }

    /// The report as CSV bytes (through the project's libcsv layer).
    public func csvBytes() -> [UInt8] {
        var writer = CSVWriter()
        writer.write(Self.header)
        for issue in issues {
            writer.write(issue.csvFields)
        }
        return writer.takeBytes()   // handed over: `bytes` copied the whole report
    }
}

/// Formats a count with thousands separators (`316,402`), for logs and reports.
public func formatCount(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = n < 0 ? "-" : ""
    for (i, c) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return out
}

/// Formats a count of things as `formatCount(_:)` does, with the noun that agrees with it:
/// `1 file`, `2 files`, `0 warnings`, `1,204 rows`. `plural` is for nouns that do not take an
/// `s` (`species`, `taxa`, `entries`).
///
/// ```swift
/// formatCount(1, "file")                    // "1 file"
/// formatCount(316_000, "row")               // "316,000 rows"
/// formatCount(1, "taxon", plural: "taxa")   // "1 taxon"
/// ```
public func formatCount(_ n: Int, _ noun: String, plural: String? = nil) -> String {
    formatCount(n) + " " + (n == 1 ? noun : plural ?? noun + "s")
}

/// Formats a share (0…1) as a percentage with as few decimals as tell it apart from
/// `other` (a limit it is compared with): 1 of 99 against 1% reads `1.01%`, not `1%`.
///
/// ```swift
/// formatPercent(1.0 / 99, distinctFrom: 0.01)   // "1.01%"
/// formatPercent(0.051)                          // "5.1%"
/// formatPercent(-0.051, signed: true)           // "−5.1%"
/// ```
public func formatPercent(_ share: Double, distinctFrom other: Double? = nil, signed: Bool = false) -> String {
    func text(_ value: Double, _ decimals: Int) -> String {
        var s = String(format: "%.\(decimals)f", abs(value) * 100)
        if s.contains(".") { while s.hasSuffix("0") { s.removeLast() }; if s.hasSuffix(".") { s.removeLast() } }
        let sign = value < 0 && s != "0" ? "−" : (signed && value > 0 ? "+" : "")
        return sign + s + "%"
    }
    var decimals = 1
    if let other, other != share {
        while decimals < 6, text(share, decimals) == text(other, decimals) { decimals += 1 }
    }
    return text(share, decimals)
}
