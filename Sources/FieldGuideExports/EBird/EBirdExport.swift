import FieldGuideCSV
import FieldGuideCore
import FieldGuideDiagnostics

/// eBird "My eBird Data" CSV: one bird observation per row.
///
/// Both headers read: the 2016 one (`MM-DD-YYYY` dates, `Species Comments`) and the current
/// one (`Location ID` after `County`, ISO dates, `Observation Details`, `ML Catalog Numbers`;
/// rows of 19–23 fields, trailing empty columns dropped). Times are local 12-hour clock times
/// with no zone (`09:07 AM`); an empty time leaves a date. `X` counts mean "present, not
/// counted". Rows naming no single species (spuh, slash, hybrid, domestic) are kept and
/// marked (`NonSpeciesKind`).
///
/// ```swift
/// // S285938033,Canada Goose,Branta canadensis,342,120,US-MD,Baltimore,L558364,…,2025-11-24,09:07 AM,…
/// // → bird "Canada Goose", count 120, 2025-11-24T09:07 local, 39.43142,-76.5434647
/// ```
public enum EBirdExport {
    static let required = ["Submission ID", "Common Name", "Scientific Name", "Count", "Latitude", "Longitude", "Date", "Time"]
    /// Every column the reader reads: none may be named twice.
    static let columns = required + ["Location ID", "Location", "State/Province", "County", "Observation Details", "Species Comments"]

    static func reader(_ columns: HeaderMap) -> (CSVRecord, String, RecordSink) -> Void {
        let commentColumn = columns.has("Observation Details") ? "Observation Details" : "Species Comments"
        return { record, file, sink in
            let common = columns.value(record, "Common Name"), scientific = columns.value(record, "Scientific Name")
            var observation = Observation(file: file, line: record.line, format: .ebird, record: .checklistRow, kind: .bird,
                                          subject: common.isEmpty ? scientific : common)
            observation.scientificName = scientific.isEmpty ? nil : scientific
            observation.nonSpecies = NonSpeciesKind(commonName: common, scientificName: scientific)
            observation.checklistID = nonEmpty(columns.value(record, "Submission ID"))
            observation.placeID = nonEmpty(columns.value(record, "Location ID"))
            observation.place = nonEmpty(columns.value(record, "Location"))
            observation.region = nonEmpty([columns.value(record, "State/Province"), columns.value(record, "County")]
                .filter { !$0.isEmpty }.joined(separator: ", "))
            observation.notes = nonEmpty(columns.value(record, commentColumn))
            do throws(LocatedError) {
                guard !observation.subject.isEmpty else { throw LocatedError.badValue(field: "Common Name", value: "", reason: "the row names no species") }
                let count = columns.value(record, "Count")
                guard let parsed = BirdCount(count) else {
                    throw LocatedError.badValue(field: "Count", value: count, reason: "expected a whole number or X (present, not counted)")
                }
                observation.count = parsed
                guard !columns.value(record, "Date").isEmpty else { throw LocatedError.badValue(field: "Date", value: "", reason: "the row has no date") }
                try columns.place(&observation, record, date: "Date", time: "Time", latitude: "Latitude", longitude: "Longitude")
            } catch {
                sink.reject(file: file, line: record.line, error)
                return
            }
            sink.observe(observation)
        }
    }
}

func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }
