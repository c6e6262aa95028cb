import FieldGuideCSV
@testable import FieldGuideExports
@testable import FieldGuideFAA
import Testing

/// `ObservationCSV.write(_:to:)`: each field under its header, parsed back by the CSV reader.
/// The rows used to be made as `[String]` in header order; written field by field, a field
/// left out or moved would shift every column after it.
@Suite("observations.csv rows")
struct ObservationCSVTests {
    /// `observations` written after the header, parsed back: each row as header → value.
    static func parsed(_ observations: [Observation]) throws -> [[String: String]] {
        var writer = CSVWriter()
        writer.write(ObservationCSV.header)
        for observation in observations { ObservationCSV.write(observation, to: &writer) }
        let parser = try CSVParser(dialect: .rfc4180, file: "observations.csv")
        var rows: [[String]] = []
        try writer.withBytes { bytes in try parser.parse(bytes) { rows.append($0.fields) } }
        try parser.finish { rows.append($0.fields) }
        #expect(rows.first == ObservationCSV.header)
        return rows.dropFirst().map { row in
            #expect(row.count == ObservationCSV.header.count)
            return Dictionary(uniqueKeysWithValues: zip(ObservationCSV.header, row))
        }
    }

    @Test("every field set: each under its own column, quoted where it needs it; none set: 36 empty columns")
    func columns() throws {
        var full = Observation(file: "exports/a, b.xmp", line: 12, format: .xmp, record: .sidecar, kind: .aircraft, subject: "N250JT")
        full.scientificName = "Ardea cinerea"; full.family = "Ardeidae (Herons)"
        full.time = try ObservationTime.iso8601("2024-05-01T06:30:00+02:00")
        full.position = try Coordinate.validated(latitude: -33.8688197, longitude: 151.2092955, field: "GPS")
        full.elevation = 12.5
        full.place = "Fort Meade"; full.placeID = "L558364"; full.region = "US-MD, Anne Arundel"; full.checklistID = "S285938033"
        full.count = .number(3); full.nonSpecies = .spuh; full.rating = -1; full.keywords = ["Birds|Heron", "trip"]
        full.registration = "N250JT"; full.icaoType = "B738"; full.manufacturer = "BOEING"; full.model = "737-8H4"
        full.title = "Gate \"B\""; full.notes = "line one\nline two"; full.audioFile = "heron.m4a"
        full.resolution = ObservationResolution(status: .resolved, reason: "by registration", id: "N250JT", name: "BOEING 737-8H4",
                                                candidates: ["N250JT", "N250J"],
                                                icaoType: ICAOTypeTable.Entry(designator: "B738", name: "BOEING 737-800", description: "L2J", wakeClass: "M"),
                                                registrationStatus: .resolved)
        let bare = Observation(file: "t.gpx", line: 3, format: .gpx, record: .trackPoint, kind: .other, subject: "")
        let rows = try Self.parsed([full, bare])
        let expected: [String: String] = [
            "file": "exports/a, b.xmp", "line": "12", "format": "xmp", "record": "sidecar", "kind": "aircraft", "subject": "N250JT",
            "scientific_name": "Ardea cinerea", "family": "Ardeidae (Herons)",
            "time_utc": full.time!.utc!, "time_local": full.time!.local, "time_zone": full.time!.zone,
            "latitude": "-33.8688197", "longitude": "151.2092955", "elevation_m": "12.5",
            "place": "Fort Meade", "place_id": "L558364", "region": "US-MD, Anne Arundel", "checklist_id": "S285938033",
            "count": "3", "non_species": "spuh", "rating": "-1", "keywords": "Birds|Heron; trip",
            "registration": "N250JT", "icao_type": "B738", "manufacturer": "BOEING", "model": "737-8H4",
            "title": "Gate \"B\"", "notes": "line one\nline two", "audio_file": "heron.m4a",
            "resolution": "resolved", "resolution_reason": "by registration", "resolved_id": "N250JT", "resolved_name": "BOEING 737-8H4",
            "candidates": "N250JT; N250J", "icao_type_name": "BOEING 737-800", "icao_description": "L2J", "wake_class": "M",
            "registration_status": "resolved",
        ]
        #expect(Set(expected.keys) == Set(ObservationCSV.header))
        for column in ObservationCSV.header { #expect(rows[0][column] == expected[column], "\(column)") }
        #expect(!full.time!.utc!.isEmpty && !full.time!.zone.isEmpty)
        let filled = ["file": "t.gpx", "line": "3", "format": "gpx", "record": "track point", "kind": "other"]
        for column in ObservationCSV.header { #expect(rows[1][column] == filled[column, default: ""], "\(column)") }
    }
}
