import FieldGuideCSV
import FieldGuideArtifact
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// One eBird bar chart: frequency of each taxon in 48 periods (4 per month) of one region.
///
/// The download has a few header lines, a `Sample Size:` row, then one row per taxon by
/// common name (tab-separated, a trailing tab). Read by `ingest-birds` (`--barchart`), through
/// FieldGuideCSV (tab-separated, unquoted: streamed, each line within the CSV record bound); a
/// name that is not UTF-8 is read as Latin-1 and listed in `latin1Readings`.
///
/// ```swift
/// let chart = try EBirdBarChart.read("barchart-svalbard.txt", region: "Svalbard")
/// chart.rows.first?.name   // "Bar-headed Goose"
/// ```
public struct EBirdBarChart: Sendable {
    public var region: String
    public var file: String
    public var sampleSizes: [Double]
    public var rows: [(name: String, line: Int, frequencies: [Double])]
    /// The values that were not UTF-8 and were read as Latin-1, or held a control character
    /// (replaced with U+FFFD).
    public var readings: [TextReading] = []

    /// Reads a bar-chart download; a row without 48 frequencies from 0 to 1 (sample sizes: 0
    /// or more), or a taxon listed twice, is refused with its line.
    public static func read(_ path: String, region: String) throws(LocatedError) -> EBirdBarChart {
        var chart = EBirdBarChart(region: region, file: path, sampleSizes: [], rows: [])
        var seenSamples = false
        var lines: [String: Int] = [:]   // each taxon's line
        do {
            try CSVReader.read(fileAt: path, dialect: .tabSeparated) { record in
                var fields: [String] = []
                for i in 0..<record.count {
                    let text = record.text(i, file: path, field: i == 0 ? "name" : "period \(i)", into: &chart.readings)
                    fields.append(text.hasSuffix("\r") ? String(text.dropLast()) : text)
                }
                while fields.last?.isEmpty == true { fields.removeLast() }
                guard let first = fields.first, !first.trimmingCharacters(in: .whitespaces).isEmpty else { return }
                if first.hasPrefix("Sample Size") {
                    chart.sampleSizes = try values(fields, path: path, line: record.line, upTo: nil)
                    seenSamples = true
                } else if seenSamples {
                    let name = first.trimmingCharacters(in: .whitespaces)
                    if let earlier = lines.updateValue(record.line, forKey: name) {
                        throw LocatedError(.invalidValue, file: path, line: record.line, field: "name", expected: "each taxon once",
                                           found: "\"\(name)\" on line \(earlier) too", message: "a taxon listed twice")
                    }
                    chart.rows.append((name, record.line, try values(fields, path: path, line: record.line, upTo: 1)))
                }
            }
        } catch let error as LocatedError {
            throw error
        } catch {
            throw LocatedError(path, failed: error, doing: "cannot read the bar chart")
        }
        guard seenSamples else {
            throw LocatedError(.wrongKind, file: path, message: "expected an eBird bar chart with a \"Sample Size:\" row, found none")
        }
        return chart
    }

    /// The 48 numbers after a row's name: each finite, from 0 to `upTo` (a frequency is a share
    /// of checklists, at most 1; a sample size has no upper bound). Refused at the first that
    /// is not, naming its period.
    private static func values(_ fields: [String], path: String, line: Int, upTo limit: Double?) throws(LocatedError) -> [Double] {
        let name = fields.first ?? ""
        guard fields.count - 1 == BirdsSchema.periodsPerYear else {
            throw LocatedError(.invalidValue, file: path, line: line, expected: "\(BirdsSchema.periodsPerYear) periods after \"\(name)\"",
                               found: "\(fields.count - 1)", message: "a row of the wrong length")
        }
        return try fields.dropFirst().enumerated().map { (index, field) throws(LocatedError) -> Double in
            // Foundation's trim bridges every value to `NSString` (9,600 instructions a value,
            // most of reading a chart); an ASCII value's white space is only spaces and tabs.
            let text = field.utf8.allSatisfy({ $0 < 0x80 }) ? field.trimmingSpaces : field.trimmingCharacters(in: .whitespaces)
            if text.isNumeral, let value = Double(text), value.isFinite, value >= 0, value <= limit ?? .infinity { return value }
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            throw LocatedError(.invalidValue, file: path, line: line, field: "\(name.hasSuffix(":") ? String(name.dropLast()) : name) period \(index + 1) (\(months[index / 4]) \(index % 4 + 1))",
                               expected: limit.map { "a frequency from 0 to \(Int($0))" } ?? "a sample size of 0 or more", found: text,
                               message: limit == nil ? "not a sample size" : "not a frequency")
        }
    }

    /// The region a file name implies: `barchart-svalbard.txt` → `Svalbard`; an eBird region
    /// code stays as it is (`barchart-US-NY.txt` → `US-NY`, as `aggregate-ebd` names its files).
    public static func regionName(fromFile path: String) -> String {
        var stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        for prefix in ["barchart-", "barchart_", "ebird_"] where stem.lowercased().hasPrefix(prefix) { stem.removeFirst(prefix.count) }
        if stem.range(of: #"^[A-Z]{2}(-[A-Z0-9]{1,4}){0,2}$"#, options: .regularExpression) != nil { return stem }
        return stem.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    /// A `--barchart` argument: `FILE`, or `REGION=FILE` when no file has the whole argument as its name.
    ///
    /// ```swift
    /// EBirdBarChart.argument("Fenland=chart.txt")   // ("chart.txt", "Fenland")
    /// EBirdBarChart.argument("barchart-svalbard.txt").region   // "Svalbard"
    /// ```
    static func argument(_ argument: String) -> (path: String, region: String) {
        if let equals = argument.firstIndex(of: "="), !FileManager.default.fileExists(atPath: argument) {
            return (String(argument[argument.index(after: equals)...]), String(argument[..<equals]))
        }
        return (argument, regionName(fromFile: argument))
    }
}
