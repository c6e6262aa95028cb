import FieldGuideCSV
import FieldGuideDiagnostics

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

    /// Reads the Status & Trends runs CSV (through FieldGuideCSV); the values that were not
    /// UTF-8 (read as Latin-1) or held a control character (replaced with U+FFFD) are added to
    /// `readings` for the caller to warn about.
    ///
    /// ```swift
    /// var readings: [TextReading] = []
    /// let rows = try SpeciesSeasonRow.read("ebirdst_runs_2023.csv", readings: &readings)
    /// rows.first { $0.speciesCode == "acafly" }?.breeding?.start   // 531
    /// ```
    public static func read(_ path: String, readings: inout [TextReading]) throws(LocatedError) -> [SpeciesSeasonRow] {
        let table = try CSVTable.read(path, required: ["species_code", "scientific_name", "common_name", "is_resident",
                                                       "breeding_start", "breeding_end", "nonbreeding_start", "nonbreeding_end"])
        readings += table.readings
        var rows: [SpeciesSeasonRow] = []
        var lines: [String: Int] = [:]   // each species code's line
        // Each season's columns found once, not by name in every row (with the names put
        // together and a list of both ends made for the error check, most of this reader's time).
        let seasons = ["breeding", "nonbreeding", "prebreeding_migration", "postbreeding_migration"].map {
            (name: $0, start: table.columns[$0 + "_start"], end: table.columns[$0 + "_end"])
        }
        for row in table.rows {
            func text(_ index: Int?) -> String { index.flatMap { $0 < row.fields.count ? row.fields[$0] : nil } ?? "" }
            func range(_ season: Int) throws(LocatedError) -> (start: Int, end: Int)? {
                let (name, startColumn, endColumn) = seasons[season]
                let start = text(startColumn), end = text(endColumn)
                if start.isEmpty && end.isEmpty { return nil }
                let (s, e) = (monthDay(start), monthDay(end))
                if let s, let e { return (s, e) }
                // The first end that is not a date, and the other end's name for an empty one.
                let (field, text, other) = s == nil ? (name + "_start", start, "end") : (name + "_end", end, "start")
                throw LocatedError(.invalidValue, file: path, line: row.line, field: field,
                                   expected: "a calendar date YYYY-MM-DD" + (text.isEmpty ? " beside \(name)_\(other)'s" : ""),
                                   found: text.isEmpty ? "none" : text, message: "not a season date")
            }
            let code = table.field(row, "species_code")
            guard !code.isEmpty else { throw LocatedError(.invalidValue, file: path, line: row.line, message: "expected a species_code, found none") }
            if let earlier = lines.updateValue(row.line, forKey: code) {
                throw LocatedError(.invalidValue, file: path, line: row.line, field: "species_code", expected: "each species once",
                                   found: "\(code) on line \(earlier) too", message: "a species listed twice")
            }
            let resident = table.field(row, "is_resident")
            guard let isResident = Self.flags[resident.lowercased()] else {
                throw LocatedError(.invalidValue, file: path, line: row.line, field: "is_resident", expected: "True or False",
                                   found: resident.isEmpty ? "none" : resident, message: "not a flag")
            }
            rows.append(SpeciesSeasonRow(
                speciesCode: code, scientificName: table.field(row, "scientific_name"), commonName: table.field(row, "common_name"),
                resident: isResident,
                breeding: try range(0), nonbreeding: try range(1), prebreedingMigration: try range(2), postbreedingMigration: try range(3)))
        }
        return rows
    }

    /// `is_resident` as the runs file writes it (`True`, `False`), and its usual spellings.
    private static let flags = ["true": true, "false": false, "1": true, "0": false, "yes": true, "no": false]

    /// `2023-05-17` → `517`; nil for anything but a calendar date (`2023-02-29` is none).
    ///
    /// Read from the ten bytes in place (digits only: no sign, no space; `EBDFields.calendarDate`,
    /// which reads the EBD's dates): splitting the text and parsing each part was most of this
    /// reader's time.
    static func monthDay(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { EBDFields.calendarDate(UnsafeRawBufferPointer($0)) }.map { $0.month * 100 + $0.day }
    }
}
