@testable import FieldGuideExports
import FieldGuide
import FieldGuideCore
import FieldGuideCSV
@testable import FieldGuideFAA
import FieldGuideEmit
import Foundation
import Testing
import TestSupport

/// An aircraft artifact built from input/faa (N250JT, N4477 …).
func fixtureBundle() throws -> AircraftBundle {
    let out = try TestPaths.temporaryDirectory("exports-faa").path
    _ = try FAAIngest().run(sources: try FAASources.locate(FAAFixtures.inputDirectory), outputDirectory: out + "/stage")
    return try AircraftBundle(path: try AircraftEmit.run(handOff: out + "/stage", outputDirectory: out, environment: [:]).artifactPath)
}

/// A stand-in names index: the future issue-4 index implements the same protocol.
struct StubNames: BirdNameResolving {
    var description: String { "stub names index" }
    func resolve(_ query: BirdNameQuery) -> BirdNameMatch {
        let heron = BirdNameCandidate(speciesCode: "graher1", commonName: "Grey Heron", scientificName: "Ardea cinerea")
        switch query.name.lowercased() {
        case "grey heron", "ardea cinerea": return .resolved(heron)
        case "great crested grebe":
            return .ambiguous([BirdNameCandidate(speciesCode: "grcgre1", commonName: "Great Crested Grebe", scientificName: "Podiceps cristatus", score: 0.9),
                               BirdNameCandidate(speciesCode: "x", commonName: "Other", scientificName: "Y z", score: 0.1)])
        default: return .unknown(suggestions: query.position == nil ? [] : [heron])
        }
    }
}

@Suite("input/exports fixtures and the ingest", .serialized)
struct FixtureExportsTests {
    @Test("every fixture in input/exports imports cleanly, each format and record kind present")
    func inputImportsCleanly() throws {
        let out = try TestPaths.temporaryDirectory("exports-in").path
        let report = try ExportsIngest().run(paths: [ExportFixtures.input], outputDirectory: out)
        #expect(report.report.status == .ok && report.failedFiles == 0)
        #expect(report.report.findings == .init(errors: 0, warnings: 0))
        #expect(report.report.outputs.map(\.file) == [ExportsIngest.rejectsFile, ExportsIngest.resolutionFile, ExportsIngest.observationsFile])
        #expect(try StageReport.read(from: out + "/" + ExportsIngest.reportFile) == report.report)
        #expect(Set(report.files.compactMap(\.format)) == [.xmp, .gpx, .plist, .ebird, .capture])
        let csv = try String(contentsOfFile: out + "/" + ExportsIngest.observationsFile, encoding: .utf8)
        for record in ["sidecar", "waypoint", "track point", "birdcall recording", "dex observation", "aircraft capture", "checklist row"] {
            #expect(csv.contains("," + record + ","), "no \(record) in observations.csv")
        }
        #expect(try String(contentsOfFile: out + "/" + ExportsIngest.rejectsFile, encoding: .utf8) == RejectsReport.header.joined(separator: ",") + "\n")
    }

    @Test("XMP element form: Birds| hierarchy gives one bird per keyword, zone kept, line of each keyword")
    func xmpElementForm() throws {
        let result = try readExport(ExportFixtures.input + "/xmp/IMG_0412.CR2.xmp")
        #expect(result.observations.map(\.subject) == ["Grey Heron", "Great Crested Grebe"])
        #expect(result.observations.allSatisfy { $0.kind == .bird && $0.rating == 4 && $0.title == "Heron at the reed bed" })
        let heron = result.observations[0]
        #expect(heron.line == 28 && result.observations[1].line == 29)
        #expect(heron.time?.utc == "2024-05-18T04:41:57Z")   // DateTimeOriginal wins over CreateDate
        #expect(heron.position!.latitude.close(to: 59 + 54.123456 / 60) && heron.position!.longitude.close(to: 10 + 44.654321 / 60))
        #expect(heron.keywords.contains("Places|Østensjøvannet"))
    }

    @Test("XMP attribute form, per-namespace descriptions, another prefix for the Lightroom namespace")
    func xmpAttributeForm() throws {
        let result = try readExport(ExportFixtures.input + "/xmp/DSC_2207.NEF.xmp")
        #expect(result.observations.map(\.subject) == ["N250JT", "C25A"])
        let o = result.observations[0]
        #expect(o.kind == .aircraft && o.rating == 3 && o.title == "Departure from runway 15")
        #expect(o.position == Coordinate(latitude: 61.1741, longitude: -149.9961))   // decimal + W ref
        #expect(o.time?.local == "2024-08-02T14:05:33" && o.time?.zone == ObservationTime.noZone)  // empty DateTimeOriginal skipped
    }

    @Test("a capture's registration that has no US N-number form is said to be none, not looked up (N0123, NZZ)")
    func registrationForm() throws {
        let out = try TestPaths.temporaryDirectory("exports-form").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let csv = try ExportFixtures.write("icao,manufacturer,model,registration,latitude,longitude,capture_date,capture_time\n"
                                           + "C172,Cessna,172S,N0123,,,2024-08-02,14:05:33\nC172,Cessna,172S,NZZ,,,2024-08-02,14:06:00\n"
                                           + "C172,Cessna,172S,N99999,,,2024-08-02,14:07:00\n", name: "captures-form.csv")
        _ = try ExportsIngest(options: .init(aircraft: try fixtureBundle())).run(paths: [csv], outputDirectory: out)
        let resolution = try JSON.decode(ResolutionReport.self, fromFileAt: out + "/" + ExportsIngest.resolutionFile)
        func reason(_ text: String) -> String? { resolution.subjects.first { $0.kind == .aircraftRegistration && $0.text == text }?.resolution.reason }
        #expect(reason("N0123") == "not a US N-number (the FAA registry holds only those)")
        #expect(reason("NZZ") == "not a US N-number (the FAA registry holds only those)")
        #expect(reason("N99999") == "not in the FAA registry")
    }

    @Test("aircraft resolve through the artifact and the ICAO table; the app's enrichment fields are filled")
    func aircraftResolution() throws {
        let bundle = try fixtureBundle()
        let types = try ICAOTypeTable(path: ExportFixtures.icaoTypes)
        let out = try TestPaths.temporaryDirectory("exports-air").path
        _ = try ExportsIngest(options: .init(aircraft: bundle, icaoTypes: types))
            .run(paths: [ExportFixtures.input + "/plist/aircraft-captures.plist", ExportFixtures.input + "/captures"], outputDirectory: out)
        let resolution = try JSON.decode(ResolutionReport.self, fromFileAt: out + "/" + ExportsIngest.resolutionFile)
        func entry(_ kind: SubjectKind, _ text: String) -> SubjectEntry? { resolution.subjects.first { $0.kind == kind && $0.text == text } }
        let jet = try #require(entry(.aircraftRegistration, "N250JT"))
        #expect(jet.resolution.status == .resolved && jet.resolution.name == "BLUEHERON AIRCRAFT CO BH-900 JET" && jet.observations == 2)
        #expect(entry(.aircraftRegistration, "N99999")?.resolution.status == .unknown)
        #expect(entry(.aircraftRegistration, "G-EZAB")?.resolution.reason?.contains("not a US N-number") == true)
        #expect(entry(.aircraftType, "A319")?.resolution.icaoType?.description == "L2J")
        let enrichment = try #require(resolution.aircraft.first { $0.registration == "N250JT" })
        #expect(enrichment == bundle.enrichment(registration: "N250JT"))
        #expect(enrichment.weightClass != nil && enrichment.airworthinessClassification != nil)
        #expect(resolution.counts == ["resolved": 6, "ambiguous": 0, "unknown": 2, "unresolved": 0])
        // N99999 is not in the registry; its C172 type resolves: the observation is resolved by
        // type, and the registration's own status says unknown.
        var rows: [[String]] = []
        try CSVReader.read(fileAt: out + "/" + ExportsIngest.observationsFile) { rows.append($0.fields) }
        let header = try #require(rows.first)
        func column(_ name: String, _ row: [String]) -> String { row[header.firstIndex(of: name)!] }
        let cessna = try #require(rows.first { $0.count == header.count && column("registration", $0) == "N99999" })
        #expect(column("resolution", cessna) == "resolved" && column("registration_status", cessna) == "unknown")
        #expect(column("resolution_reason", cessna).hasPrefix("registration unknown"))
        let jetRow = try #require(rows.first { $0.count == header.count && column("registration", $0) == "N250JT" })
        #expect(column("registration_status", jetRow) == "resolved")
    }

    @Test("an aircraft keyword that is both a registration and a type designator is ambiguous")
    func ambiguousKeyword() throws {
        let path = try ExportFixtures.write("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:lr="http://ns.adobe.com/lightroom/1.0/">
            <lr:hierarchicalSubject><rdf:Bag><rdf:li>Aircraft|250JT</rdf:li><rdf:li>Aircraft|ZZZZ</rdf:li></rdf:Bag></lr:hierarchicalSubject>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """, name: "both.xmp")
        // 250JT is no designator the reader accepts (five characters): built in memory to force the ambiguity.
        let types = ICAOTypeTable(entries: [.init(designator: "250JT", name: "TEST TYPE", description: "L2J", wakeClass: "L")])
        let resolver = SubjectResolver(aircraft: try fixtureBundle(), icaoTypes: types, birdNames: nil)
        var observations = try readExport(path).observations
        for i in observations.indices { resolver.resolve(&observations[i]) }
        #expect(observations[0].resolution?.status == .ambiguous && observations[0].resolution?.candidates.count == 2)
        #expect(observations[1].resolution?.status == .unknown)
    }

    @Test("bird names: unresolved without a names index; through BirdNameResolving when one is given")
    func birdNames() throws {
        let out = try TestPaths.temporaryDirectory("exports-birds").path
        let path = ExportFixtures.input + "/xmp/IMG_0412.CR2.xmp"
        _ = try ExportsIngest().run(paths: [path], outputDirectory: out)
        var resolution = try JSON.decode(ResolutionReport.self, fromFileAt: out + "/" + ExportsIngest.resolutionFile)
        #expect(resolution.birdNames == "no names index loaded")
        #expect(resolution.subjects.map(\.text) == ["Great Crested Grebe", "Grey Heron"])
        #expect(resolution.subjects.allSatisfy { $0.resolution.status == .unresolved && $0.resolution.reason == "no names index loaded" })

        _ = try ExportsIngest(options: .init(birdNames: StubNames())).run(paths: [path, ExportFixtures.input + "/plist"], outputDirectory: out)
        resolution = try JSON.decode(ResolutionReport.self, fromFileAt: out + "/" + ExportsIngest.resolutionFile)
        #expect(resolution.birdNames == "stub names index")
        let byText = Dictionary(uniqueKeysWithValues: resolution.subjects.filter { $0.kind == .birdName }.map { ($0.text, $0) })
        #expect(byText["Grey Heron"]?.resolution.id == "graher1")
        #expect(byText["Great Crested Grebe"]?.resolution.status == .ambiguous && byText["Great Crested Grebe"]?.observations == 2)
        #expect(byText["Great Crested Grebe"]?.resolution.candidates.first == "grcgre1 Great Crested Grebe (Podiceps cristatus)")
        #expect(byText["Eurasian Wren"]?.resolution.status == .unknown && byText["Eurasian Wren"]?.first.hasSuffix("birdcall-recordings.plist:5") == true)
        #expect(resolution.counts["resolved"] == 1 && resolution.counts["ambiguous"] == 1)
    }

    @Test("outputs are byte-identical for identical inputs")
    func deterministic() throws {
        let a = try TestPaths.temporaryDirectory("exports-a").path, b = try TestPaths.temporaryDirectory("exports-b").path
        let options = ExportsIngest.Options(icaoTypes: try ICAOTypeTable(path: ExportFixtures.icaoTypes), icaoTypesSource: "icao-types.json")
        _ = try ExportsIngest(options: options).run(paths: [ExportFixtures.input], outputDirectory: a)
        _ = try ExportsIngest(options: options).run(paths: [ExportFixtures.input], outputDirectory: b)
        for name in [ExportsIngest.observationsFile, ExportsIngest.resolutionFile, ExportsIngest.rejectsFile, ExportsIngest.reportFile] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: a + "/" + name)) == Data(contentsOf: URL(fileURLWithPath: b + "/" + name)), "\(name) differs")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: a).allSatisfy { !$0.hasPrefix(".") })   // no spool left
    }

    @Test("the failure says what became of the other files: the other, the others, none")
    func failedFilesWording() {
        #expect(ExportsIngestResult.failedFilesText(1, of: 1) == "the only file could not be read")
        #expect(ExportsIngestResult.failedFilesText(2, of: 2) == "none of the 2 files could be read")
        #expect(ExportsIngestResult.failedFilesText(1, of: 2) == "1 of 2 files could not be read; the other was imported")
        #expect(ExportsIngestResult.failedFilesText(2, of: 3) == "2 of 3 files could not be read; the other was imported")
        #expect(ExportsIngestResult.failedFilesText(1, of: 1_204) == "1 of 1,204 files could not be read; the others were imported")
    }

    @Test("a file that fails part-way contributes nothing; the other files still import")
    func failedFileIsolated() throws {
        let dir = try TestPaths.temporaryDirectory("exports-mixed")
        try FileManager.default.copyItem(atPath: ExportFixtures.input + "/gpx/lake-walk.gpx", toPath: dir.appendingPathComponent("a-good.gpx").path)
        // A complete waypoint, then the file breaks: the waypoint must not be kept.
        try """
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
            <wpt lat="1" lon="2"><name>kept?</name></wpt>
            <wpt lat="3" lon="4"><name>broken</wpt>
            </gpx>
            """.write(to: dir.appendingPathComponent("b-broken.gpx"), atomically: true, encoding: .utf8)
        let out = try TestPaths.temporaryDirectory("exports-mixed-out").path
        let report = try ExportsIngest().run(paths: [dir.path], outputDirectory: out)
        #expect(report.report.status == .rejected && report.failedFiles == 1)
        #expect(report.report.failure == "1 of 2 files could not be read; the other was imported")
        let broken = try #require(report.files.first { $0.file.hasSuffix("b-broken.gpx") })
        #expect(broken.error?.line == 3 && broken.error?.column != nil && broken.error?.kind == .malformed)
        #expect(broken.error?.description.hasPrefix(dir.path + "/b-broken.gpx:3:") == true)
        let csv = try String(contentsOfFile: out + "/" + ExportsIngest.observationsFile, encoding: .utf8)
        #expect(!csv.contains("kept?") && csv.contains("Heron hide"))
        #expect(report.report.counts["observations"] == 5)
        let rejects = try String(contentsOfFile: out + "/" + ExportsIngest.rejectsFile, encoding: .utf8)
        #expect(rejects.contains("b-broken.gpx,3,(file),malformed,column"))
    }

    @Test("rows with bad values are rejected with their line, field and reason; the rest are kept")
    func rowRejects() throws {
        let result = try readExport(ExportFixtures.broken("bad-rows-ebird.csv"))
        #expect(result.observations.map(\.subject) == ["Mute Swan"])
        let rejected = result.issues.map { "\($0.line) \($0.field)" }
        #expect(rejected == ["3 Latitude", "4 Count", "5 Date/Time", "6 Longitude"])
        #expect(result.issues[0].reason == "latitude out of range −90…90" && result.issues[0].value == "93.0938")
        let xmp = try readExport(ExportFixtures.broken("bad-gps.xmp"))
        #expect(xmp.observations.isEmpty && xmp.issues.first?.field == "exif:GPSLatitude" && xmp.issues.first?.line == 3)
    }
}
