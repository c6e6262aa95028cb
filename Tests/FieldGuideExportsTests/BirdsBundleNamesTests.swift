@testable import FieldGuideExports
import FieldGuide
import FieldGuideBirds
import FieldGuideEmit
import Foundation
import Testing
import TestSupport

/// The birds hand-off of input/birds (8 seed birds, its taxonomy, en/de/fr labels) in a fresh
/// directory's `stage/`; returns that directory.
func fixtureBirdsHandOff() throws -> URL {
    let out = try TestPaths.temporaryDirectory("exports-birds")
    let input = TestPaths.input.appendingPathComponent("birds")
    var ingest = BirdIngest(taxonomyPath: input.appendingPathComponent("taxonomy/taxonomy.csv").path)
    ingest.labels = ["BirdNET_Labels.txt", "BirdNET_Labels_de.txt", "BirdNET_Labels_fr.txt"].map { input.appendingPathComponent("names/\($0)").path }
    _ = try ingest.run(paths: [input.path], outputDirectory: out.appendingPathComponent("stage").path)
    return out
}

/// The birds artifact built from input/birds (8 seed birds, en/de/fr labels).
func fixtureBirds() throws -> BirdsBundle {
    let out = try fixtureBirdsHandOff()
    return try BirdsBundle(path: try BirdsEmit.run(.init(handOff: out.appendingPathComponent("stage").path), outputDirectory: out.path,
                                                   environment: [:]).artifactPath)
}

@Suite("Bird names through the birds artifact")
struct BirdsBundleNamesTests {
    @Test("a name any form matches resolves; the scientific name rescues another spelling")
    func resolves() throws {
        let names = BirdsBundleNames(bundle: try fixtureBirds(), source: "birds.fgb")
        guard case let .resolved(heron) = names.resolve(BirdNameQuery(name: "Grey Heron", scientificName: "Ardea cinerea")) else {
            Issue.record("Grey Heron did not resolve"); return
        }
        #expect(heron.speciesCode == "graher1" && heron.commonName == "Gray Heron")
        guard case let .resolved(code) = names.resolve(BirdNameQuery(name: "mallar3")) else { Issue.record("code"); return }
        #expect(code.commonName == "Mallard")
    }

    @Test("an unknown name gets suggestions by its head noun, and none when nothing fits")
    func suggestions() throws {
        let names = BirdsBundleNames(bundle: try fixtureBirds(), source: "birds.fgb")
        guard case let .unknown(woodpeckers) = names.resolve(BirdNameQuery(name: "Downy/Hairy Woodpecker")) else {
            Issue.record("expected unknown"); return
        }
        #expect(woodpeckers.map(\.commonName) == ["Great Spotted Woodpecker"])
        guard case let .unknown(hybrid) = names.resolve(BirdNameQuery(name: "Mallard x American Black Duck (hybrid)")) else {
            Issue.record("expected unknown"); return
        }
        #expect(hybrid.map(\.speciesCode) == ["mallar3"])
        guard case let .unknown(none) = names.resolve(BirdNameQuery(name: "Eurasian Wren")) else { Issue.record("expected unknown"); return }
        #expect(none.isEmpty)
    }

    @Test("head nouns: last word, both hybrid parents, the slash's shared noun")
    func headNouns() {
        #expect(BirdsBundleNames.headNouns("Eurasian Wren") == ["WREN"])
        #expect(BirdsBundleNames.headNouns("Common/Arctic Tern") == ["TERN"])
        #expect(BirdsBundleNames.headNouns("Mallard x American Black Duck (hybrid)") == ["MALLARD", "DUCK"])
        #expect(BirdsBundleNames.headNouns("gull sp.") == [])
    }

    @Test("week of a date as the birds artifact counts it")
    func weeks() {
        #expect(BirdsBundleNames.week(ofISODate: "2025-01-07") == 1)
        #expect(BirdsBundleNames.week(ofISODate: "2025-01-08") == 2)
        #expect(BirdsBundleNames.week(ofISODate: "2024-12-31") == 53)
        #expect(BirdsBundleNames.week(ofISODate: "not a date") == nil)
    }

    @Test("ingest-exports with the names index: the eBird Grey Heron row resolves to graher1")
    func ingest() throws {
        let out = try TestPaths.temporaryDirectory("exports-names").path
        var options = ExportsIngest.Options()
        options.birdNames = BirdsBundleNames(bundle: try fixtureBirds(), source: "birds.fgb")
        let report = try ExportsIngest(options: options).run(paths: [TestPaths.input.appendingPathComponent("exports").path], outputDirectory: out)
        #expect(report.failedFiles == 0)
        #expect((report.report.counts["subjects.resolved"] ?? 0) >= 1)
        let observations = try String(contentsOfFile: out + "/observations.csv", encoding: .utf8)
        let heron = observations.split(separator: "\n").first { $0.contains("Grey Heron") }
        #expect(heron?.contains("graher1") == true)
    }
}
