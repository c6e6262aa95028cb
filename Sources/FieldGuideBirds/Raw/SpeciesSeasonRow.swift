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
