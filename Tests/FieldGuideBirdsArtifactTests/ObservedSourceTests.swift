import FieldGuideCore
import FieldGuide
import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideBirds
import FieldGuideCSV
import FieldGuideDiagnostics
import FieldGuideEmit
import Foundation
import Testing
import TestSupport

/// Writes an observations.csv in ingest-exports' layout (only the columns emit-birds reads,
/// plus one it ignores) and returns its path.
func writeObservations(_ rows: [[String]], in directory: URL) throws -> String {
    var writer = CSVWriter()
    writer.write(["file", "kind", "resolution", "resolved_id", "region", "latitude", "longitude", "time_local", "time_utc", "count"])
    for row in rows { writer.write(row) }
    let path = directory.appendingPathComponent("observations.csv").path
    try AtomicFile.write(writer.bytes, to: path)
    return path
}

@Suite("Observed source in the birds artifact")
struct ObservedSourceTests {
    @Test("resolved bird rows become observations; other rows, and species outside the artifact, do not")
    func observed() throws {
        let directory = try TestPaths.temporaryDirectory("observed")
        let observations = try writeObservations([
            ["a.csv", "bird", "resolved", "mallar3", "US-MD", "39.3", "-76.6", "2025-11-24T09:07", "", "12"],
            ["a.csv", "bird", "resolved", "mallar3", "US-MD", "39.31", "-76.61", "2025-11-25", "", "X"],
            ["a.csv", "bird", "resolved", "graher1", "US-MD", "39.3", "-76.6", "", "2025-01-08T10:00:00Z", "2"],
            ["b.gpx", "bird", "resolved", "tawowl1", "", "52.2", "0.1", "2025-03-01T22:00:00", "", ""],
            ["a.csv", "bird", "unknown", "", "US-MD", "39.3", "-76.6", "2025-11-24", "", "1"],
            ["c.csv", "aircraft", "resolved", "N250JT", "", "61.17", "-149.99", "2024-08-02", "", ""],
            ["a.csv", "bird", "resolved", "zzzzzz9", "US-MD", "39.3", "-76.6", "2025-11-24", "", "1"],
        ], in: directory)
        var sources = BirdsEmit.Sources(handOff: try FixtureBirds.stage(into: directory))
        sources.observations = [observations]
        let result = try BirdsEmit.run(sources, outputDirectory: directory.path, environment: [:])
        #expect(result.entry.counts["observations"] == 4)
        #expect(result.entry.counts["observationsWithoutTaxon"] == 1)
        #expect(result.entry.sources.contains { $0.file == "observations.csv" && $0.rows.read == 7 && $0.rows.kept == 5 })

        let birds = try BirdsBundle(path: result.artifactPath)
        #expect(birds.observationCount == 4)
        let all = birds.observedSpecies()
        #expect(all.map(\.commonName) == ["Mallard", "Gray Heron", "Tawny Owl"])
        #expect(all[0].observations == 2 && all[0].totalCount == 12)  // the X row counts as an observation, not a number
        #expect(all[2].totalCount == nil)
        #expect(birds.observedSpecies(inRegion: "us-md", month: 11).map(\.commonName) == ["Mallard"])
        #expect(birds.observedSpecies(inRegion: "US-MD", month: 1).map(\.commonName) == ["Gray Heron"])
        #expect(birds.observedSpecies(week: 2).map(\.commonName) == ["Gray Heron"])  // 8 January is in week 2
        #expect(try birds.observedSpecies(near: (52.21, 0.12), radiusKm: 5).map(\.commonName) == ["Tawny Owl"])
        #expect(try birds.observedSpecies(near: (0, 0), radiusKm: 5).isEmpty)
        #expect(throws: LocatedError.self) { try birds.observedSpecies(near: (52, 0), radiusKm: 600) }
        // Every level of a stored region answers: the country of a state code too.
        #expect(birds.observedSpecies(inRegion: "US", month: 11).map(\.commonName) == ["Mallard"])
        #expect(birds.observedSpecies(inRegion: "US-M", month: 11).isEmpty)
        // The seed presence tables are untouched by observations: a separate source.
        #expect(birds.species(inRegion: "US-MD", month: 11).present.isEmpty)
    }

    @Test("fieldguide observed: --near with spaces, a malformed point (usage, exit 2), a bad radius (exit 2)")
    func command() throws {
        let directory = try TestPaths.temporaryDirectory("observed-cli")
        let observations = try writeObservations([
            ["b.gpx", "bird", "resolved", "tawowl1", "", "52.2", "0.1", "2025-03-01T22:00:00", "", "1"],
        ], in: directory)
        var sources = BirdsEmit.Sources(handOff: try FixtureBirds.stage(into: directory))
        sources.observations = [observations]
        let bundle = ["--bundle", try BirdsEmit.run(sources, outputDirectory: directory.path, environment: [:]).artifactPath]
        let near = try TestPaths.run("fieldguide", ["observed", "--near", "52.21, 0.12", "--radius", "5"] + bundle)
        #expect(near.status == 0)
        #expect(near.stdout.contains("Tawny Owl (tawowl1), 1 counted"))
        let malformed = try TestPaths.run("fieldguide", ["observed", "--near", "52.21"] + bundle)
        #expect(malformed.status == 2)
        #expect(malformed.stderr.contains("expected LAT,LON"))
        #expect(try TestPaths.run("fieldguide", ["observed", "--near", "52,0", "--radius", "900"] + bundle).status == 2)
        for spelled in ["0x34,0", "nan,0", "52,inf"] {   // Double(_:) reads these: 0x34 is 52
            let run = try TestPaths.run("fieldguide", ["observed", "--near", spelled] + bundle)
            #expect(run.status == 2 && run.stderr.contains("--near: expected LAT,LON, found \(spelled)"), "\(run.stderr)")
        }
    }

    @Test("the real eBird export: state, county and country all answer (stored as \"US-MD, Prince George's\")")
    func realExportRegionLevels() throws {
        guard let export = TestPaths.shared("birds/ebird/MyEBirdData-2025-format.csv"),
              let skytrails = TestPaths.shared("birds/skytrails/bird_database.json"),
              let taxonomy = TestPaths.shared("birds/taxonomy/eBird_Taxonomy_v2021.csv"),
              let seasons = TestPaths.shared("birds/ebird/ebirdst_runs_2023.csv") else { return }
        let directory = try TestPaths.temporaryDirectory("observed-real")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stage = directory.appendingPathComponent("birds").path
        let ingest = try TestPaths.run("ingest-birds", [skytrails.path, "--taxonomy", taxonomy.path, "--seasons", seasons.path, "--output", stage])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let exports = directory.appendingPathComponent("exports").path
        let resolved = try TestPaths.run("ingest-exports", [export.path, "--birds", stage, "--output", exports])
        #expect(resolved.status == 0, "\(resolved.stderr)")
        let emit = try TestPaths.run("emit-birds", [stage, "--observations", exports + "/observations.csv", "--output", directory.path])
        #expect(emit.status == 0, "\(emit.stderr)")
        let birds = try BirdsBundle(path: directory.appendingPathComponent("birds.fgb").path)
        let state = birds.observedSpecies(inRegion: "US-MD", month: 11)
        #expect(!state.isEmpty)
        #expect(birds.observedSpecies(inRegion: "US", month: 11).map(\.commonName) == state.map(\.commonName))
        let county = birds.observedSpecies(inRegion: "Prince George's", month: 11)
        #expect(!county.isEmpty && county.count < state.count)   // Baltimore's birds are in the state, not this county
        #expect(birds.observedSpecies(inRegion: "US-MD, Prince George's", month: 11).map(\.commonName) == county.map(\.commonName))
        let run = try TestPaths.run("fieldguide", ["observed", "--region", "US-MD", "--month", "11", "--bundle", directory.appendingPathComponent("birds.fgb").path])
        #expect(run.status == 0 && !run.stdout.isEmpty && !run.stdout.hasPrefix("no "), "\(run.stdout)")
    }

    @Test("region levels: country, state, county and the whole text")
    func regionLevels() {
        #expect(BirdsBundle.regionLevels("US-MD, Prince George's") == ["US", "US-MD", "Prince George's", "US-MD, Prince George's"])
        #expect(BirdsBundle.regionLevels("US-MD") == ["US", "US-MD"])
        #expect(BirdsBundle.regionLevels("Svalbard") == ["Svalbard"])
        #expect(BirdsBundle.regionLevels("").isEmpty)
    }

    @Test("an artifact built without observations answers with none")
    func withoutObservations() throws {
        let directory = try TestPaths.temporaryDirectory("observed-none")
        let birds = try BirdsBundle(path: try FixtureBirds.build(into: directory).artifactPath)
        #expect(birds.observationCount == 0)
        #expect(birds.observedSpecies().isEmpty)
    }

    @Test("an observations file without the expected columns is refused with its line")
    func badHeader() throws {
        let directory = try TestPaths.temporaryDirectory("observed-bad")
        let path = directory.appendingPathComponent("observations.csv").path
        try AtomicFile.write(Array("file,kind\na,bird\n".utf8), to: path)
        let error = #expect(throws: LocatedError.self) { try ObservedBirds.read(path) }
        #expect(error?.line == 1)
        #expect(error?.message.contains("resolved_id") == true)
    }

    @Test("month and week of a date as the tables count them")
    func monthAndWeek() {
        #expect(BirdsSchema.monthAndWeek(ofISODate: "2025-01-08")! == (1, 2))
        #expect(BirdsSchema.monthAndWeek(ofISODate: "2024-03-01")! == (3, 9))  // leap year: day 61
        #expect(BirdsSchema.monthAndWeek(ofISODate: "2025-12-31T23:00")! == (12, 53))
        #expect(BirdsSchema.monthAndWeek(ofISODate: "") == nil)
    }
}
