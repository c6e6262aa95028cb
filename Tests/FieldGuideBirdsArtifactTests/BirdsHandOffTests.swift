import FieldGuideCSV
import FieldGuide
import FieldGuideBirds
import FieldGuideCore
import FieldGuideDiagnostics
import FieldGuideEmit
import Foundation
import Testing
import TestSupport

/// emit-birds builds from the hand-off alone: the reference files are read and linked at
/// ingest, and what the hand-off carries builds the bytes linking in memory gives.
@Suite struct BirdsHandOffTests {
    /// The artifact's bytes from the hand-off in `stage`, and from the same seed tables with
    /// the reference files linked in memory.
    func bothWays(stage: String, taxonomy: String, barCharts: [String], seasons: String, labels: [String]) throws -> (handOff: [UInt8], memory: [UInt8]) {
        let (report, input) = try BirdHandOff.read(stage)
        var linked = input
        var readings: [TextReading] = []   // none in these files: `#expect`ed below
        linked.taxa = LinkedTaxa.link(
            birds: input.species.map { .init(id: $0.birdID, speciesCode: $0.speciesCode, commonName: $0.commonName, scientificName: $0.scientificName, family: $0.family) },
            taxonomy: try Taxonomy.read(fileAt: taxonomy), barCharts: try barCharts.map { try EBirdBarChart.read($0, region: EBirdBarChart.regionName(fromFile: $0)) },
            seasons: try SpeciesSeasonRow.read(seasons, readings: &readings), labels: try labels.map { try LocalizedLabels.read($0) })
        #expect(linked.taxa.counts == report.linkCounts)
        #expect(readings.isEmpty)
        return (try BirdsArtifactBuilder(input).build().artifact.serialize(), try BirdsArtifactBuilder(linked).build().artifact.serialize())
    }

    @Test("input/birds: the hand-off's taxa, names, bar charts and seasons build the bytes linking in memory gives")
    func fixtureRoundTrip() throws {
        let directory = try TestPaths.temporaryDirectory("birds-roundtrip")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stage = try FixtureBirds.stage(into: directory)
        let ingest = FixtureBirds.ingest
        let bytes = try bothWays(stage: stage, taxonomy: FixtureBirds.input.appendingPathComponent("taxonomy/taxonomy.csv").path,
                                 barCharts: ingest.barCharts, seasons: ingest.seasons!, labels: ingest.labels)
        #expect(bytes.handOff == bytes.memory)
    }

    @Test("the real data: 3,000 taxa, 48 frequencies a chart row and five languages survive the hand-off exactly")
    func realRoundTrip() throws {
        guard let real = RealBirds.built, let taxonomy = TestPaths.shared("birds/taxonomy/eBird_Taxonomy_v2021.csv"),
              let chart = TestPaths.shared("birds/ebird/barchart-svalbard.txt"), let seasons = TestPaths.shared("birds/ebird/ebirdst_runs_2023.csv"),
              let names = TestPaths.shared("birds/names") else { return }
        let labels = try FileManager.default.contentsOfDirectory(atPath: names.path).sorted().map { names.appendingPathComponent($0).path }
        let bytes = try bothWays(stage: real.directory.appendingPathComponent("stage").path, taxonomy: taxonomy.path, barCharts: [chart.path],
                                 seasons: seasons.path, labels: labels)
        #expect(bytes.handOff == bytes.memory)
        #expect(real.emit.entry.counts["taxa"] == 3_037)
        #expect(real.emit.entry.sources.map(\.file).suffix(3) == ["BirdNET_GLOBAL_6K_V2.4_Labels_es.txt", "BirdNET_GLOBAL_6K_V2.4_Labels_fr.txt",
                                                                  "BirdNET_GLOBAL_6K_V2.4_Labels_ja.txt"])
    }

    @Test("emit-birds needs only the hand-off: the reference files may be gone by then")
    func referencesGone() throws {
        let directory = try TestPaths.temporaryDirectory("birds-refs-gone")
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("sources")
        try FileManager.default.copyItem(at: FixtureBirds.input, to: copy)
        var ingest = BirdIngest()
        ingest.barCharts = ["Fens=" + copy.appendingPathComponent("ebird/barchart-fenland.txt").path]
        ingest.labels = [copy.appendingPathComponent("names/BirdNET_Labels_de.txt").path]
        _ = try ingest.run(paths: [copy.path], outputDirectory: directory.appendingPathComponent("stage").path)
        try FileManager.default.removeItem(at: copy)
        let result = try BirdsEmit.run(.init(handOff: directory.appendingPathComponent("stage").path), outputDirectory: directory.path, environment: [:])
        let birds = try BirdsBundle(path: result.artifactPath)
        #expect(birds.frequency(of: "Mallard", region: "Fens", period: 2) == 0.75)
        #expect(birds.species(named: "Stockente").first?.commonName == "Mallard")
        #expect(result.entry.sources.contains { $0.file == "barchart-fenland.txt" && $0.rows.read == 7 })
    }

    @Test("a report that does not list a file emit-birds reads is a bad hand-off (one written before the taxa were linked at ingest)")
    func unlistedFile() throws {
        let directory = try TestPaths.temporaryDirectory("birds-unlisted")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stage = try FixtureBirds.stage(into: directory)
        let reportPath = stage + "/" + NormalizedBirds.reportFile
        var report = try StageReport.read(from: reportPath)
        #expect(report.counts["links.barChartUnresolved"] == 1)
        report.outputs.removeAll { $0.file == NormalizedBirds.TaxonColumn.file }
        try report.write(to: reportPath)
        #expect { _ = try BirdsEmit.run(.init(handOff: stage), outputDirectory: directory.path) } throws: { error in
            guard let error = error as? LocatedError else { return false }
            return error.kind == .badHandOff && error.file == reportPath && error.message.hasPrefix("expected taxa.csv among the outputs of ingest-birds")
        }
    }

    @Test("a linked file changed after ingest is a bad hand-off")
    func tamperedNames() throws {
        let directory = try TestPaths.temporaryDirectory("birds-tampered")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stage = try FixtureBirds.stage(into: directory)
        let names = stage + "/names.csv"
        try (String(contentsOfFile: names, encoding: .utf8) + "X,x,common,0\n").write(toFile: names, atomically: true, encoding: .utf8)
        #expect { _ = try BirdsEmit.run(.init(handOff: stage), outputDirectory: directory.path) } throws: { error in
            guard let error = error as? LocatedError else { return false }
            return error.kind == .badHandOff && error.file.hasSuffix("names.csv")
        }
    }
}
