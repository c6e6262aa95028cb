import FieldGuideArtifact
import FieldGuideBirds
import FieldGuideDiagnostics

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
