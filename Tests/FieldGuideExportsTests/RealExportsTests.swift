@testable import FieldGuideExports
import FieldGuideCore
import FieldGuideFAA
import Foundation
import Testing
import TestSupport

/// The real files in ../shared/data: each reads with the values a reader of the file expects.
@Suite("Real exports written by other software")
struct RealExportsTests {
    @Test("darktable sidecar: attribute form, DDD,MM.mmmmH GPS, empty DateTimeOriginal absent, hierarchical keywords")
    func darktable() throws {
        guard let url = TestPaths.shared("exports/xmp/photoprism_darktable_aurora.jpg.xmp") else { return }
        let result = try readExport(url.path)
        #expect(result.summary?.format == .xmp)
        let o = try #require(result.observations.only)
        #expect(o.position!.latitude.close(to: 87.354866))          // 87,21.291962N
        #expect(o.position!.longitude.close(to: -179.992447))       // 179,59.546814W
        #expect(o.time == nil)                                      // exif:DateTimeOriginal=""
        #expect(o.rating == 1)
        #expect(o.title == "XMP Test - Aurora" && o.subject == "XMP Test - Aurora" && o.kind == .other)
        #expect(o.keywords.prefix(3) == ["Aurora", "Iceland", "Nature"])
        #expect(o.keywords.contains("darktable|format|jpg") && o.keywords.contains("darktable|exported"))
        #expect(o.keywords.count == 11)   // 9 dc:subject + 2 hierarchical not already listed
        #expect(result.issues.isEmpty)
    }

    @Test("Apple Photos sidecar: decimal GPS with refs, rdf:Seq UTF-8 keywords, photoshop:DateCreated with zone")
    func applePhotos() throws {
        guard let url = TestPaths.shared("exports/xmp/photoprism_apple-test-2_applephotos.xmp") else { return }
        let o = try #require(try readExport(url.path).observations.only)
        #expect(o.position!.latitude.close(to: 52.5250816) && o.position!.longitude.close(to: 13.3693672))
        #expect(o.time?.utc == "2021-03-24T12:07:29Z")
        #expect(o.time?.zone == "+01:00" && o.time?.local == "2021-03-24T13:07:29")
        #expect(o.keywords == ["Krokus", "Blume", "Schöne Wiese"])
        #expect(o.title == "Botanischer Garten" && o.notes == "Tulpen am See")
    }

    @Test("Lightroom via ExifTool: one rdf:Description per namespace, single quotes, local time without zone")
    func lightroomExifTool() throws {
        guard let url = TestPaths.shared("exports/xmp/photoprism_ladybug_lightroom6_via_exiftool.xmp") else { return }
        let o = try #require(try readExport(url.path).observations.only)
        #expect(o.keywords == ["Ladybug"] && o.title == "Ladybug" && o.rating == 1)
        #expect(o.time?.local == "2011-07-10T19:34:28" && o.time?.zone == ObservationTime.noZone && o.time?.utc == nil)
        #expect(o.position!.latitude.close(to: 51 + 15.2911 / 60) && o.position!.longitude.close(to: 7 + 23.3681 / 60))
    }

    @Test("Adobe XMP Core 5.6: element form, DateTimeOriginal before photoshop:DateCreated, rating 4")
    func photoshop() throws {
        guard let url = TestPaths.shared("exports/xmp/photoprism_photoshop_xmpcore56.xmp") else { return }
        let o = try #require(try readExport(url.path).observations.only)
        #expect(o.time?.local == "2020-01-01T17:28:23" && o.time?.zone == ObservationTime.noZone)
        #expect(o.rating == 4 && o.keywords == ["desk", "coffee", "computer"])
        #expect(o.position!.latitude.close(to: 52.45969) && o.position!.longitude.close(to: 13 + 19.3099 / 60))
        #expect(o.title == "Night Shift / Berlin / 2020")
    }

    @Test("Garmin BaseCamp GPX 1.1 (BOM, CRLF): waypoints with times, track points without, route points skipped")
    func garmin() throws {
        guard let url = TestPaths.shared("exports/gpx/gpsbabel_basecamp_garmin_desktop.gpx") else { return }
        let text = try String(contentsOf: url, encoding: .utf8)
        let result = try readExport(url.path)
        let waypoints = result.observations.filter { $0.record == .waypoint }
        #expect(waypoints.count == text.components(separatedBy: "<wpt ").count - 1)
        #expect(waypoints.map(\.subject) == ["Hwy 119", "Hwy 72"])
        #expect(waypoints[0].time?.utc == "2013-03-09T20:45:12Z" && waypoints[0].line == 11)
        #expect(waypoints[0].position == Coordinate(latitude: 39.97386971488595, longitude: -105.46585036441684))
        let track = result.observations.filter { $0.record == .trackPoint }
        #expect(track.count == text.components(separatedBy: "<trkpt ").count - 1)
        #expect(track.allSatisfy { $0.time == nil && $0.subject == "Hwy 119 to Hwy 72" })
        #expect(result.summary?.skipped["route points"] == text.components(separatedBy: "<rtept ").count - 1)
    }

    @Test("Groundspeak GPX 1.0: one geocache waypoint, 7-digit fraction with offset, extension names ignored")
    func groundspeak() throws {
        guard let url = TestPaths.shared("exports/gpx/gpsbabel_GC7FA4_groundspeak_gpx10.gpx") else { return }
        let o = try #require(try readExport(url.path).observations.only)
        #expect(o.subject == "GC7FA4")   // not groundspeak:name
        #expect(o.time?.utc == "2002-08-15T07:00:00.0000000Z" && o.time?.zone == "-07:00")
        #expect(o.position!.latitude.close(to: 46.1333333333333) && o.position!.longitude == -73)
        #expect(o.notes?.hasPrefix("Points géodésiques du Québec by Sverdrup2") == true)
    }

    @Test("ExifTool plist with every value type: each value read; no app records, so no observations")
    func everyValueType() throws {
        guard let url = TestPaths.shared("exports/plist/exiftool_PLIST-xml.plist") else { return }
        var values: [PropertyListValue] = []
        try PropertyListReader.values(path: url.path) { value, _ in values.append(value) }
        let root = try #require(values.only)
        #expect(root.keys == ["TestArray", "TestBoolean", "TestData", "TestDate", "TestDict", "TestInteger", "TestReal", "TestString", "TestUnicode"])
        #expect(root["TestArray"] == .array([.string("one"), .string("two"), .string("three")]))
        #expect(root["TestBoolean"] == .boolean(true))
        #expect(root["TestData"] == .data(Array("<dummy data>".utf8)))
        #expect(root["TestDate"] == .date("2013-02-22T12:49:10Z"))
        #expect(root["TestDict"]?["Author"] == .string("Phil") && root["TestDict"]?["When"] == .date("2000-01-02T08:04:05Z"))
        #expect(root["TestInteger"] == .integer(256) && root["TestReal"] == .real(1.4))
        #expect(root["TestUnicode"]?.string == "ExîfTöøl PLIST tést")
        let result = try readExport(url.path)
        #expect(result.observations.isEmpty && result.issues.isEmpty)
        #expect(result.summary?.skipped["plist values that are not app records"] == 1)
        // As ingest-exports says it: one value, in the singular.
        let out = try TestPaths.temporaryDirectory("real-plist-log").path
        let run = try TestPaths.run("ingest-exports", [url.path, "--output", out])
        #expect(run.status == 0 && run.stderr.contains("; skipped 1 plist value that is not an app record\n"), "\(run.stderr)")
    }

    @Test("a count of skipped things agrees with it: 1 route point, 2 route points, an unknown kind as counted")
    func skippedWording() {
        #expect(ExportFileSummary.skippedText(1, ExportFileSummary.routePoints) == "1 route point")
        #expect(ExportFileSummary.skippedText(2, ExportFileSummary.routePoints) == "2 route points")
        #expect(ExportFileSummary.skippedText(1_500, ExportFileSummary.nonRecordValues) == "1,500 plist values that are not app records")
        #expect(ExportFileSummary.skippedText(1, ExportFileSummary.nonRecordValues) == "1 plist value that is not an app record")
        #expect(ExportFileSummary.skippedText(1, "things") == "1 things")
    }

    @Test("Day One journal entry: an other observation with its date and text")
    func dayOne() throws {
        guard let url = TestPaths.shared("exports/plist/jrnl_dayone_mac18_4BB1F469.doentry") else { return }
        let o = try #require(try readExport(url.path).observations.only)
        #expect(o.kind == .other && o.record == .journalEntry)
        #expect(o.time?.utc == "2013-01-17T18:37:00Z")
        #expect(o.notes == "This is a DayOne entry without Timezone." && o.subject == o.notes)
    }

    @Test("eBird 2016 export: MM-DD-YYYY, Species Comments, X counts, short rows, a domestic spuh")
    func eBird2016() throws {
        guard let url = TestPaths.shared("birds/ebird/MyEBirdData-2016-format.csv") else { return }
        let result = try readExport(url.path)
        #expect(result.summary?.format == .ebird)
        #expect(result.observations.count == 1_270 && result.issues.isEmpty)
        let first = result.observations[0]
        #expect(first.subject == "Domestic goose sp. (Domestic type)" && first.nonSpecies == .domestic && first.count == .number(3))
        let cackling = result.observations[1]
        #expect(cackling.line == 3 && cackling.subject == "Cackling Goose" && cackling.scientificName == "Branta hutchinsii")
        #expect(cackling.time?.local == "2016-02-20T09:15" && cackling.time?.zone == ObservationTime.noZone)
        #expect(cackling.position == Coordinate(latitude: 42.9890944, longitude: -82.3260123))
        #expect(cackling.place == "Sarnia - Hiawatha Horse Park" && cackling.region == "CA-ON, Lambton")
        #expect(cackling.notes?.hasPrefix("Obviously smaller than the adjacent Canada Geese") == true)
        let x = try #require(result.observations.first { $0.line == 19 })
        #expect(x.subject == "Canada Goose" && x.count == .present && x.time?.local == "2016-05-27T10:15")
        let dateOnly = result.observations.filter { $0.subject == "Mute Swan" && $0.time?.local == "2012-08-18" }
        #expect(!dateOnly.isEmpty)
        let junco = try #require(result.observations.first { $0.subject == "Dark-eyed Junco (Slate-colored)" })
        #expect(junco.nonSpecies == nil)
        #expect(result.observations.contains { $0.subject == "Downy/Hairy Woodpecker" && $0.nonSpecies == .slash })
        #expect(result.observations.contains { $0.subject == "gull sp." && $0.nonSpecies == .spuh })
    }

    @Test("eBird current export: Location ID, ISO dates, 12-hour local times, X with empty time, 19–23 fields")
    func eBird2025() throws {
        guard let url = TestPaths.shared("birds/ebird/MyEBirdData-2025-format.csv") else { return }
        let result = try readExport(url.path)
        #expect(result.observations.count == 998 && result.issues.isEmpty)
        let first = result.observations[0]
        #expect(first.subject == "Canada Goose" && first.count == .number(120) && first.line == 2)
        #expect(first.time?.local == "2025-11-24T09:07" && first.placeID == "L558364")
        #expect(first.place == "Loch Raven Reservoir--Primary Dam" && first.region == "US-MD, Baltimore")
        #expect(first.position == Coordinate(latitude: 39.43142, longitude: -76.5434647) && first.checklistID == "S285938033")
        let gadwall = try #require(result.observations.first { $0.line == 41 })
        #expect(gadwall.subject == "Gadwall" && gadwall.count == .present && gadwall.time?.local == "2023-11-08")
        let crow = try #require(result.observations.first { $0.line == 567 })
        #expect(crow.subject == "American/Fish Crow" && crow.nonSpecies == .slash && crow.count == .number(50))
        #expect(result.observations.first { $0.line == 102 }?.nonSpecies == .spuh)   // duck sp.
        #expect(result.observations.contains { $0.time?.local.hasSuffix("T13:36") == true })   // 01:36 PM
    }

    @Test("aircraft capture export: 2,000 captures, first row, ICAO types resolved or listed unknown")
    func captures() throws {
        guard let url = TestPaths.shared("aircraft/airplane-id/AirplaneID-TestData.csv"),
              let types = TestPaths.shared("aircraft/icao-types.json") else { return }
        let result = try readExport(url.path)
        #expect(result.summary?.format == .capture && result.observations.count == 2_000 && result.issues.isEmpty)
        let first = result.observations[0]
        #expect(first.registration == "N1196M" && first.icaoType == "C172" && first.subject == "N1196M" && first.kind == .aircraft)
        #expect(first.position == Coordinate(latitude: 40.677468, longitude: -73.777617))
        #expect(first.time?.local == "2025-01-29T19:09:38" && first.time?.zone == ObservationTime.noZone && first.place == "KJFK")
        #expect(first.manufacturer == "Cessna" && first.model == "172S")

        let table = try ICAOTypeTable(path: types.path)
        #expect(table.count == 2_788)
        let out = try TestPaths.temporaryDirectory("captures").path
        let report = try ExportsIngest(options: .init(icaoTypes: table)).run(paths: [url.path], outputDirectory: out)
        #expect(report.failedFiles == 0)
        let resolution = try JSON.decode(ResolutionReport.self, fromFileAt: out + "/" + ExportsIngest.resolutionFile)
        let typeSubjects = resolution.subjects.filter { $0.kind == .aircraftType }
        let unknown = typeSubjects.filter { $0.resolution.status == .unknown }.map(\.text)
        #expect(Set(unknown) == Set(result.observations.compactMap(\.icaoType).filter { table[$0] == nil }))
        #expect(unknown.contains("PA28"))
        let c172 = try #require(typeSubjects.first { $0.text == "C172" })
        #expect(c172.resolution.name == "CESSNA 172 Skyhawk" && c172.resolution.icaoType?.description == "L1P" && c172.resolution.icaoType?.wakeClass == "L")
        #expect(c172.observations == result.observations.filter { $0.icaoType == "C172" }.count)
        // Registrations: no artifact given, so every one is listed unresolved, none dropped.
        let registrations = resolution.subjects.filter { $0.kind == .aircraftRegistration }
        #expect(registrations.count == Set(result.observations.compactMap(\.registration)).count)
        #expect(registrations.allSatisfy { $0.resolution.status == .unresolved && $0.resolution.reason == "no aircraft artifact loaded (--aircraft)" })
    }
}

extension Collection {
    /// The single element, or nil when there are none or several.
    var only: Element? { count == 1 ? first : nil }
}
