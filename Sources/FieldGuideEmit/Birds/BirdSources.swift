import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideBirds
import FieldGuideCSV
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// A CSV file with a header, read whole; fields looked up by column name.
///
/// ```swift
/// let table = try CSVTable.read("species.csv", required: ["bird_id", "common_name"])
/// table.rows.map { table.field($0, "common_name") }
/// ```
public struct CSVTable: Sendable {
    public var file: String
    public var columns: [String: Int]
    public var rows: [(line: Int, fields: [String])]

    public static func read(_ path: String, required: [String]) throws(LocatedError) -> CSVTable {
        var table = CSVTable(file: path, columns: [:], rows: [])
        do {
            try CSVReader.read(fileAt: path, dialect: .rfc4180) { record in
                if record.index == 0 {
                    for (i, name) in record.fields.enumerated() where table.columns[name] == nil { table.columns[name] = i }
                    let missing = required.filter { table.columns[$0] == nil }
                    guard missing.isEmpty else {
                        throw LocatedError(.wrongHeader, file: path, line: record.line,
                                           message: "expected columns \(missing.joined(separator: ", ")), found \(record.fields.joined(separator: ","))")
                    }
                    return
                }
                if record.count == 1, record[0].isEmpty { return }
                table.rows.append((record.line, record.fields))
            }
        } catch let error as LocatedError {
            throw error
        } catch {
            throw LocatedError(path, failed: error)
        }
        if table.columns.isEmpty { throw LocatedError(.empty, file: path, line: 1, message: "expected a header, found an empty file") }
        return table
    }

    /// Field `column` of `row`, empty when the row is short.
    public func field(_ row: (line: Int, fields: [String]), _ column: String) -> String {
        guard let index = columns[column], index < row.fields.count else { return "" }
        return row.fields[index]
    }
}

/// One eBird bar chart: frequency of each taxon in 48 periods (4 per month) of one region.
///
/// The download has a few header lines, a `Sample Size:` row, then one row per taxon by
/// common name (tab-separated, a trailing tab).
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

    public static func read(_ path: String, region: String) throws(LocatedError) -> EBirdBarChart {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw LocatedError(path, failed: error, doing: "cannot read the bar chart")
        }
        var chart = EBirdBarChart(region: region, file: path, sampleSizes: [], rows: [])
        var seenSamples = false
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for (index, rawLine) in lines.enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            var fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            while fields.last?.isEmpty == true { fields.removeLast() }
            guard let first = fields.first, !first.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            if first.hasPrefix("Sample Size") {
                chart.sampleSizes = try values(fields, path: path, line: index + 1)
                seenSamples = true
            } else if seenSamples {
                chart.rows.append((first.trimmingCharacters(in: .whitespaces), index + 1, try values(fields, path: path, line: index + 1)))
            }
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

    /// The region a file name implies: `barchart-svalbard.txt` → `Svalbard`.
    public static func regionName(fromFile path: String) -> String {
        var stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        for prefix in ["barchart-", "barchart_", "ebird_"] where stem.lowercased().hasPrefix(prefix) { stem.removeFirst(prefix.count) }
        return stem.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }
}

/// One species of `ebirdst_runs_2023.csv`: resident flag and season date ranges.
///
/// ```swift
/// try SpeciesSeasonRow.read("ebirdst_runs_2023.csv").count   // 2,981
/// ```
public struct SpeciesSeasonRow: Sendable, Hashable {
    public var speciesCode: String
    public var scientificName: String
    public var commonName: String
    public var resident: Bool
    /// `month × 100 + day`, nil when the species has no such season.
    public var breeding: (start: Int, end: Int)?
    public var nonbreeding: (start: Int, end: Int)?
    public var prebreedingMigration: (start: Int, end: Int)?
    public var postbreedingMigration: (start: Int, end: Int)?

    public static func == (a: SpeciesSeasonRow, b: SpeciesSeasonRow) -> Bool { a.speciesCode == b.speciesCode }
    public func hash(into hasher: inout Hasher) { hasher.combine(speciesCode) }

    /// Reads the Status & Trends runs CSV (through FieldGuideCSV).
    ///
    /// ```swift
    /// let rows = try SpeciesSeasonRow.read("ebirdst_runs_2023.csv")
    /// rows.first { $0.speciesCode == "acafly" }?.breeding?.start   // 531
    /// ```
    public static func read(_ path: String) throws(LocatedError) -> [SpeciesSeasonRow] {
        let table = try CSVTable.read(path, required: ["species_code", "scientific_name", "common_name", "is_resident",
                                                       "breeding_start", "breeding_end", "nonbreeding_start", "nonbreeding_end"])
        var rows: [SpeciesSeasonRow] = []
        for row in table.rows {
            func range(_ name: String) throws(LocatedError) -> (start: Int, end: Int)? {
                let start = table.field(row, name + "_start"), end = table.field(row, name + "_end")
                if start.isEmpty && end.isEmpty { return nil }
                guard let s = monthDay(start), let e = monthDay(end) else {
                    throw LocatedError(.invalidValue, file: path, line: row.line,
                                       message: "expected dates YYYY-MM-DD in \(name)_start/\(name)_end, found \"\(start)\", \"\(end)\"")
                }
                return (s, e)
            }
            let code = table.field(row, "species_code")
            guard !code.isEmpty else { throw LocatedError(.invalidValue, file: path, line: row.line, message: "expected a species_code, found none") }
            rows.append(SpeciesSeasonRow(
                speciesCode: code, scientificName: table.field(row, "scientific_name"), commonName: table.field(row, "common_name"),
                resident: ["true", "1", "yes"].contains(table.field(row, "is_resident").lowercased()),
                breeding: try range("breeding"), nonbreeding: try range("nonbreeding"),
                prebreedingMigration: try range("prebreeding_migration"), postbreedingMigration: try range("postbreeding_migration")))
        }
        return rows
    }

    /// `2023-05-17` → `517`.
    static func monthDay(_ text: String) -> Int? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month), (1...31).contains(day) else { return nil }
        return month * 100 + day
    }
}

/// A BirdNET labels file: `Scientific name_Common name` per line, in one language.
///
/// ```swift
/// let labels = try LocalizedLabels.read("BirdNET_GLOBAL_6K_V2.4_Labels_de.txt")
/// labels.language                     // "de"
/// labels.names["Passer domesticus"]   // "Haussperling"
/// ```
public struct LocalizedLabels: Sendable {
    public var file: String
    /// From the file name's `_xx` suffix; `en` when there is none.
    public var language: String
    public var names: [String: String]
    public var lines: Int

    public static func read(_ path: String) throws(LocatedError) -> LocalizedLabels {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw LocatedError(path, failed: error, doing: "cannot read the labels file")
        }
        var labels = LocalizedLabels(file: path, language: language(ofFile: path), names: [:], lines: 0)
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            guard let underscore = line.firstIndex(of: "_") else {
                throw LocatedError(.malformed, file: path, line: index + 1, message: "expected \"Scientific name_Common name\", found \"\(line)\"")
            }
            labels.lines += 1
            let scientific = String(line[..<underscore]), common = String(line[line.index(after: underscore)...])
            if labels.names[scientific] == nil { labels.names[scientific] = common }
        }
        return labels
    }

    /// `…_Labels_de.txt` → `de`; `…_Labels.txt` → `en`.
    public static func language(ofFile path: String) -> String {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        guard let underscore = stem.lastIndex(of: "_") else { return "en" }
        let suffix = stem[stem.index(after: underscore)...]
        return (2...3).contains(suffix.count) && suffix.allSatisfy(\.isLetter) ? suffix.lowercased() : "en"
    }
}

/// Resolved bird observations from an `observations.csv` written by `ingest-exports`.
///
/// Rows of kind `bird` whose resolution is `resolved` become observed entries: the species
/// code, the region (eBird state/county, else empty), month and week of the local (else UTC)
/// date, position and count (`X` is absent). Other rows are read and counted, not kept.
///
/// ```swift
/// let (observed, rows) = try ObservedBirds.read("output/stage/exports/observations.csv")
/// ```
public enum ObservedBirds {
    public static let requiredColumns = ["kind", "resolution", "resolved_id", "region", "latitude", "longitude",
                                         "time_local", "time_utc", "count"]

    public static func read(_ path: String) throws(LocatedError) -> (observed: [BirdsBuildInput.Observed], rows: Int) {
        let table = try CSVTable.read(path, required: requiredColumns)
        var observed: [BirdsBuildInput.Observed] = []
        for row in table.rows where table.field(row, "kind") == "bird" && table.field(row, "resolution") == "resolved" {
            let code = table.field(row, "resolved_id")
            guard !code.isEmpty else { continue }
            let local = table.field(row, "time_local"), utc = table.field(row, "time_utc")
            let date = BirdsSchema.monthAndWeek(ofISODate: local.isEmpty ? utc : local)
            observed.append(.init(speciesCode: code, region: table.field(row, "region"), month: date?.month, week: date?.week,
                                  latitude: Double(table.field(row, "latitude")), longitude: Double(table.field(row, "longitude")),
                                  count: Int(table.field(row, "count"))))
        }
        return (observed, table.rows.count)
    }
}
