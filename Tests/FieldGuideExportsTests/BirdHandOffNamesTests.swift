@testable import FieldGuideExports
import FieldGuide
import FieldGuideBirds
import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuideEmit
import Foundation
import Testing
import TestSupport

/// Bird names resolved against the birds hand-off give what the birds artifact emitted from
/// that hand-off gives: the nightly resolves exports before it emits birds.fgb, once.
@Suite("Bird names through the birds hand-off")
struct BirdHandOffNamesTests {
    /// Every name of the hand-off, names nothing knows, and the scientific-name fallback, each
    /// without a place and at every hotspot in a few weeks.
    func queries(_ stage: String, hotspots: [(Double, Double)]) throws -> [BirdNameQuery] {
        var names: [String] = ["Downy/Hairy Woodpecker", "Eurasian Wren", "Coot", "Mallard x American Black Duck (hybrid)", "gull sp.", " ", "zzz", "Zzz Sparrow", "Zzz Crow"]
        try NormalizedBirds.read(NormalizedBirds.NameColumn.self, in: stage) { row in names.append(row[.name]) }
        var queries = names.map { BirdNameQuery(name: $0) } + [BirdNameQuery(name: "Grey Heron", scientificName: "Ardea cinerea")]
        for (latitude, longitude) in hotspots {
            for date in ["2025-01-08", "2025-04-20", "2025-11-30", "not a date"] {
                let position = Coordinate(latitude: latitude + 0.01, longitude: longitude - 0.01)
                queries += names.enumerated().filter { $0.offset % 7 == 0 || $0.offset < 7 }.map {
                    BirdNameQuery(name: $0.element, position: position, date: date)
                }
            }
        }
        return queries
    }

    func compare(handOff directory: URL, hotspots: [(Double, Double)]) throws {
        let stage = directory.appendingPathComponent("stage").path
        let emitted = try BirdsEmit.run(.init(handOff: stage), outputDirectory: directory.path, environment: [:])
        let bundle = BirdsBundleNames(bundle: try BirdsBundle(path: emitted.artifactPath), source: "birds.fgb")
        let handOff = try BirdHandOffNames(handOff: stage)
        var kinds: Set<String> = []
        for query in try queries(stage, hotspots: hotspots) {
            let expected = bundle.resolve(query)
            #expect(handOff.resolve(query) == expected, "\(query)")
            switch expected {
            case .resolved: kinds.insert("resolved")
            case .ambiguous: kinds.insert("ambiguous")
            case .unknown(let suggestions): kinds.insert(suggestions.isEmpty ? "unknown" : "suggested")
            }
        }
        #expect(kinds.isSuperset(of: ["resolved", "unknown", "suggested"]))
        #expect(handOff.description.hasSuffix("(\(bundle.bundle.speciesCount) species)"))
    }

    @Test("input/birds: every name, unknown names and suggestions, ranked near the hotspots, as birds.fgb answers")
    func fixture() throws {
        try compare(handOff: try fixtureBirdsHandOff(), hotspots: [(52.2051, 0.1218), (52.2, 0.12)])
    }

    @Test("the real SkyTrails data with five languages: the same answers as birds.fgb, ambiguous names included")
    func real() throws {
        guard let skytrails = TestPaths.shared("birds/skytrails"), let taxonomy = TestPaths.shared("birds/taxonomy/eBird_Taxonomy_v2021.csv"),
              let chart = TestPaths.shared("birds/ebird/barchart-svalbard.txt"), let names = TestPaths.shared("birds/names") else { return }
        let out = try TestPaths.temporaryDirectory("exports-real-handoff")
        defer { try? FileManager.default.removeItem(at: out) }
        var ingest = BirdIngest(taxonomyPath: taxonomy.path)
        ingest.barCharts = [chart.path]
        ingest.labels = try FileManager.default.contentsOfDirectory(atPath: names.path).sorted().map { names.appendingPathComponent($0).path }
        _ = try ingest.run(paths: ["bird_database.json", "home_data.json"].map { skytrails.appendingPathComponent($0).path },
                           outputDirectory: out.appendingPathComponent("stage").path)
        try compare(handOff: out, hotspots: [(18.5204, 73.8567), (18.52, 73.85), (28.61, 77.20)])
    }

    @Test("the hand-off is opened through HandOff: a file changed after ingest, or one the report does not list, is refused")
    func checked() throws {
        let directory = try fixtureBirdsHandOff()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stage = directory.appendingPathComponent("stage").path
        let reportPath = stage + "/" + NormalizedBirds.reportFile
        let original = try StageReport.read(from: reportPath)
        var report = original
        report.outputs.removeAll { $0.file == NormalizedBirds.NameColumn.file }
        try report.write(to: reportPath)
        let unlisted = #expect(throws: LocatedError.self) { try BirdHandOffNames(handOff: stage) }
        #expect(unlisted?.kind == .badHandOff && unlisted?.message.hasPrefix("expected names.csv among the outputs of ingest-birds") == true)
        try original.write(to: reportPath)
        try "folded_name,name,form,taxon\n".write(toFile: stage + "/names.csv", atomically: true, encoding: .utf8)
        let changed = #expect(throws: LocatedError.self) { try BirdHandOffNames(handOff: stage) }
        #expect(changed?.kind == .badHandOff && changed?.file == stage + "/names.csv")
    }

    @Test("names alone are read: the hand-off's bar charts and seasons, not checked here, are not read either")
    func namesAlone() throws {
        // input/birds with its bar chart and Status & Trends runs, so the hand-off has both tables.
        let directory = try TestPaths.temporaryDirectory("exports-names-alone")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = TestPaths.input.appendingPathComponent("birds")
        var ingest = BirdIngest(taxonomyPath: input.appendingPathComponent("taxonomy/taxonomy.csv").path)
        ingest.labels = [input.appendingPathComponent("names/BirdNET_Labels.txt").path]
        ingest.barCharts = [input.appendingPathComponent("ebird/barchart-fenland.txt").path]
        ingest.seasons = input.appendingPathComponent("ebird/ebirdst_runs_example.csv").path
        let stage = directory.appendingPathComponent("stage").path
        _ = try ingest.run(paths: [input.path], outputDirectory: stage)
        let before = try BirdHandOffNames(handOff: stage)
        let all = try LinkedTaxa.read(from: stage)
        #expect(!all.chartRows.isEmpty && !all.seasons.isEmpty && !all.names.isEmpty)
        let names = try LinkedTaxa.read(from: stage, reading: [.names])
        #expect(names.names.count == all.names.count && names.taxa.count == all.taxa.count)
        #expect(names.chartRows.isEmpty && names.seasons.isEmpty)
        // Tables a names index never reads may be anything: it answers as before.
        for file in [NormalizedBirds.BarChartColumn.file, NormalizedBirds.SeasonColumn.file] {
            try "not,the,header\n\"broken".write(toFile: stage + "/" + file, atomically: true, encoding: .utf8)
        }
        let after = try BirdHandOffNames(handOff: stage)
        for query in try queries(stage, hotspots: [(52.2051, 0.1218)]) { #expect(after.resolve(query) == before.resolve(query), "\(query)") }
        #expect(throws: LocatedError.self) { try LinkedTaxa.read(from: stage) }
    }

    @Test("ingest-exports --birds takes the hand-off directory as well as birds.fgb: the same observations")
    func executable() throws {
        let directory = try fixtureBirdsHandOff()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stage = directory.appendingPathComponent("stage").path
        let artifact = try BirdsEmit.run(.init(handOff: stage), outputDirectory: directory.path, environment: [:]).artifactPath
        let viaHandOff = directory.appendingPathComponent("via-handoff").path, viaArtifact = directory.appendingPathComponent("via-artifact").path
        let first = try TestPaths.run("ingest-exports", ["input/exports", "--output", viaHandOff, "--birds", stage])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("names index \(stage) (8 species)"))
        let second = try TestPaths.run("ingest-exports", ["input/exports", "--output", viaArtifact, "--birds", artifact])
        #expect(second.status == 0, "\(second.stderr)")
        let observations = try String(contentsOfFile: viaHandOff + "/observations.csv", encoding: .utf8)
        #expect(observations == (try String(contentsOfFile: viaArtifact + "/observations.csv", encoding: .utf8)))
        #expect(observations.split(separator: "\n").first { $0.contains("Grey Heron") }?.contains("graher1") == true)
        // A directory that is not a successful hand-off is refused as I/O, like an unreadable artifact.
        let none = try TestPaths.run("ingest-exports", ["input/exports", "--output", viaHandOff, "--birds", directory.path])
        #expect(none.status == 2)
        #expect(none.stderr.contains("birds-ingest.json"))
    }
}
