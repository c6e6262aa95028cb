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
    /// The names that were not UTF-8 and were read as Latin-1.
    public var latin1Readings: [Latin1Reading] = []

    /// Reads a bar-chart download; a row without 48 non-negative numbers is refused with its line.
    public static func read(_ path: String, region: String) throws(LocatedError) -> EBirdBarChart {
        var chart = EBirdBarChart(region: region, file: path, sampleSizes: [], rows: [])
        var seenSamples = false
        do {
            try CSVReader.read(fileAt: path, dialect: .tabSeparated) { record in
                var fields: [String] = []
                for i in 0..<record.count {
                    let (text, isLatin1) = record.text(i)
                    if isLatin1 { chart.latin1Readings.append(Latin1Reading(file: path, line: record.line, field: i == 0 ? "name" : "period \(i)", value: text)) }
                    fields.append(text.hasSuffix("\r") ? String(text.dropLast()) : text)
                }
                while fields.last?.isEmpty == true { fields.removeLast() }
                guard let first = fields.first, !first.trimmingCharacters(in: .whitespaces).isEmpty else { return }
                if first.hasPrefix("Sample Size") {
                    chart.sampleSizes = try values(fields, path: path, line: record.line)
                    seenSamples = true
                } else if seenSamples {
                    chart.rows.append((first.trimmingCharacters(in: .whitespaces), record.line, try values(fields, path: path, line: record.line)))
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

    private static func values(_ fields: [String], path: String, line: Int) throws(LocatedError) -> [Double] {
        let numbers = fields.dropFirst().map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == BirdsSchema.periodsPerYear, numbers.allSatisfy({ $0 != nil && $0! >= 0 }) else {
            throw LocatedError(.invalidValue, file: path, line: line,
                               message: "expected \(BirdsSchema.periodsPerYear) non-negative numbers after \"\(fields.first ?? "")\", found \(fields.count - 1) fields")
        }
        return numbers.map { $0! }
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
