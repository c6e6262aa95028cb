@testable import FieldGuideExports
import FieldGuideDiagnostics
import Testing

@Suite("Times, coordinates and eBird taxa")
struct ParsingTests {
    @Test("ISO 8601 with offsets converts to UTC across day and year boundaries; partial dates stay partial")
    func isoTimes() throws {
        let t = try ObservationTime.iso8601("2024-01-01T00:30:00+02:00")
        #expect(t.utc == "2023-12-31T22:30:00Z" && t.local == "2024-01-01T00:30:00" && t.zone == "+02:00")
        #expect(try ObservationTime.iso8601("2024-02-28T23:59-05:30").utc == "2024-02-29T05:29Z")
        #expect(try ObservationTime.iso8601("2020-01-01T17:28:25.729626112").local == "2020-01-01T17:28:25.729626112")
        #expect(try ObservationTime.iso8601("2024-05").local == "2024-05")
        #expect(try ObservationTime.iso8601("2024-05-18").utc == nil)
        for bad in ["2024-13-01", "2023-02-29", "2024-05-18T25:00", "18/05/2024", "2024-05-18T10", ""] {
            #expect(throws: LocatedError.self) { try ObservationTime.iso8601(bad) }
        }
    }

    @Test("eBird and capture dates: MM-DD-YYYY or ISO, 12-hour or 24-hour times")
    func localTimes() throws {
        #expect(try ObservationTime.localDate("11-21-2015", time: "04:15 PM").local == "2015-11-21T16:15")
        #expect(try ObservationTime.localDate("2025-11-24", time: "12:05 AM").local == "2025-11-24T00:05")
        #expect(try ObservationTime.localDate("2025-11-24", time: "12:05 PM").local == "2025-11-24T12:05")
        #expect(try ObservationTime.localDate("2025-01-29", time: "19:09:38").local == "2025-01-29T19:09:38")
        #expect(try ObservationTime.localDate("2023-11-08", time: "").original == "2023-11-08")
        #expect(throws: LocatedError.self) { try ObservationTime.localDate("2025-11-24", time: "13:00 PM") }
    }

    @Test("XMP GPS: DDD,MM.mmmmH, DDD,MM,SSH, decimal with ref; wrong hemisphere and range refused")
    func gps() throws {
        #expect(try Coordinate.xmpDegrees("87,21.291962N", axis: .latitude, field: "f").close(to: 87.354866))
        #expect(try Coordinate.xmpDegrees("179,59.546814W", axis: .longitude, field: "f").close(to: -179.992447))
        #expect(try Coordinate.xmpDegrees("10,30,36S", axis: .latitude, field: "f").close(to: -10.51))
        #expect(try Coordinate.xmpDegrees("149.9961", axis: .longitude, ref: "W", field: "f") == -149.9961)
        #expect(throws: LocatedError.self) { try Coordinate.xmpDegrees("10,5.0E", axis: .latitude, field: "f") }
        #expect(throws: LocatedError.self) { try Coordinate.xmpDegrees("91,0.0N", axis: .latitude, field: "f") }
        #expect(throws: LocatedError.self) { try Coordinate.xmpDegrees("10,75.0N", axis: .latitude, field: "f") }
        #expect(throws: LocatedError.self) { try Coordinate.parse(latitude: "10", longitude: "", latitudeField: "a", longitudeField: "b") }
    }

    @Test("non-species eBird taxa by name; subspecies groups stay species")
    func nonSpecies() {
        #expect(NonSpeciesKind(commonName: "gull sp.", scientificName: "Larinae sp.") == .spuh)
        #expect(NonSpeciesKind(commonName: "flycatcher sp. (Tyrannidae sp.)", scientificName: "Tyrannidae sp.") == .spuh)
        #expect(NonSpeciesKind(commonName: "American/Fish Crow", scientificName: "Corvus brachyrhynchos/ossifragus") == .slash)
        #expect(NonSpeciesKind(commonName: "Mallard x American Black Duck (hybrid)", scientificName: "Anas platyrhynchos x rubripes") == .hybrid)
        #expect(NonSpeciesKind(commonName: "Domestic goose sp. (Domestic type)", scientificName: "Anser sp. (Domestic type)") == .domestic)
        #expect(NonSpeciesKind(commonName: "Dark-eyed Junco (Slate-colored)", scientificName: "Junco hyemalis hyemalis/carolinensis") == nil)
        #expect(NonSpeciesKind(commonName: "Rock Pigeon (Feral Pigeon)", scientificName: "Columba livia (Feral Pigeon)") == nil)
        #expect(NonSpeciesKind(commonName: "Sparrowhawk", scientificName: "Accipiter nisus") == nil)
    }
}
