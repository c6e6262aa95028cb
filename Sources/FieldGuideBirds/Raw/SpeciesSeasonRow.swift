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
    /// UTF-8, read as Latin-1, are added to `latin1` for the caller to warn about.
    ///
    /// ```swift
    /// var latin1: [Latin1Reading] = []
    /// let rows = try SpeciesSeasonRow.read("ebirdst_runs_2023.csv", latin1: &latin1)
    /// rows.first { $0.speciesCode == "acafly" }?.breeding?.start   // 531
    /// ```
    public static func read(_ path: String, latin1: inout [Latin1Reading]) throws(LocatedError) -> [SpeciesSeasonRow] {
        let table = try CSVTable.read(path, required: ["species_code", "scientific_name", "common_name", "is_resident",
                                                       "breeding_start", "breeding_end", "nonbreeding_start", "nonbreeding_end"])
        latin1 += table.latin1Readings
        var rows: [SpeciesSeasonRow] = []
        var lines: [String: Int] = [:]   // each species code's line
        for row in table.rows {
            func range(_ name: String) throws(LocatedError) -> (start: Int, end: Int)? {
                let start = table.field(row, name + "_start"), end = table.field(row, name + "_end")
                if start.isEmpty && end.isEmpty { return nil }
                let (s, e) = (monthDay(start), monthDay(end))
                for (field, text, day) in [(name + "_start", start, s), (name + "_end", end, e)] where day == nil {
                    throw LocatedError(.invalidValue, file: path, line: row.line, field: field,
                                       expected: "a calendar date YYYY-MM-DD" + (text.isEmpty ? " beside \(name)_\(field.hasSuffix("start") ? "end" : "start")'s" : ""),
                                       found: text.isEmpty ? "none" : text, message: "not a season date")
                }
                return (s!, e!)
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
                breeding: try range("breeding"), nonbreeding: try range("nonbreeding"),
                prebreedingMigration: try range("prebreeding_migration"), postbreedingMigration: try range("postbreeding_migration")))
        }
        return rows
    }

    /// `is_resident` as the runs file writes it (`True`, `False`), and its usual spellings.
    private static let flags = ["true": true, "false": false, "1": true, "0": false, "yes": true, "no": false]

    /// `2023-05-17` → `517`; nil for anything but a calendar date (`2023-02-29` is none).
    static func monthDay(_ text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month) else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day) ? month * 100 + day : nil
    }
}
