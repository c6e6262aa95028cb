import FieldGuideCore
import FieldGuide
import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideBirds
import FieldGuideDiagnostics
import FieldGuideEmit
import Foundation
import Testing
import TestSupport

/// The artifact as a file: determinism, the manifest, and refusing bad files.
@Suite struct BirdsArtifactFileTests {
    @Test func sameInputsGiveTheSameBytes() throws {
        let a = try TestPaths.temporaryDirectory("birds-a"), b = try TestPaths.temporaryDirectory("birds-b")
        defer { try? FileManager.default.removeItem(at: a); try? FileManager.default.removeItem(at: b) }
        let first = try FixtureBirds.build(into: a), second = try FixtureBirds.build(into: b)
        #expect(try Data(contentsOf: URL(fileURLWithPath: first.artifactPath)) == Data(contentsOf: URL(fileURLWithPath: second.artifactPath)))
        #expect(first.entry.sha256 == second.entry.sha256)
        #expect(try Data(contentsOf: a.appendingPathComponent("manifest.json")) == Data(contentsOf: b.appendingPathComponent("manifest.json")))
        #expect(first.manifest.built == nil)
    }

    @Test func manifestKeepsOtherArtifacts() throws {
        let directory = try TestPaths.temporaryDirectory("birds-manifest")
        defer { try? FileManager.default.removeItem(at: directory) }
        let other = Manifest.Artifact(file: "aircraft.fgb", kind: "ACFT", bytes: 1, sha256: "00", sections: [], sources: [], counts: [:])
        let previous = Manifest(format: .init(major: Int(ArtifactFormat.majorVersion), minor: Int(ArtifactFormat.minorVersion)), tool: .init(name: "fieldguide", version: "0"), built: nil, artifacts: [other])
        try JSONEncoder().encode(previous).write(to: directory.appendingPathComponent("manifest.json"))
        let result = try FixtureBirds.build(into: directory)
        let manifest = try Manifest.decode(from: Data(contentsOf: directory.appendingPathComponent("manifest.json")))
        #expect(manifest.artifacts.map(\.file) == ["aircraft.fgb", "birds.fgb"])
        #expect(manifest.artifact(named: "birds.fgb")?.kind == "BIRD")
        #expect(manifest.artifact(named: "birds.fgb")?.sha256 == result.entry.sha256)
        #expect(manifest.artifact(named: "birds.fgb")?.sources.map(\.file).contains("barchart-fenland.txt") == true)
        #expect(result.entry.counts["species"] == 8)
    }

    @Test("every query taking a month, week or period answers one out of range (nothing, or nil), never traps")
    func outOfRangeTimes() throws {
        let directory = try TestPaths.temporaryDirectory("birds-times")
        defer { try? FileManager.default.removeItem(at: directory) }
        let birds = try BirdsBundle(path: FixtureBirds.build(into: directory).artifactPath)
        for n in [Int.min, -1, 0, 54, 99, Int.max] {   // out of every range: month, week and period
            _ = birds.observedSpecies(inRegion: "Fenland", month: n, week: n)
            _ = birds.occurrence(inRegion: "Fenland", month: n)
            _ = birds.occurrence(inRegion: "Fenland", week: n)
            _ = birds.occurrence(inRegion: "Fenland", period: n)
            _ = birds.rarity(of: "Mallard", region: "Fenland", period: n)
            _ = birds.species(inRegion: "Woodland", month: n)
            _ = birds.species(inRegion: "Woodland", week: n)
            _ = birds.presentSpecies(inRegion: "Woodland", month: n)
            _ = birds.presentSpecies(inRegion: "Woodland", week: n)
            #expect(birds.frequency(of: "Mallard", region: "Fenland", period: n) == nil, "\(n)")
            _ = try? birds.species(near: (52.2, 0.12), radiusKm: 5, week: n)
        }
    }

    @Test func fixtureArtifactAnswersEveryQuery() throws {
        let directory = try TestPaths.temporaryDirectory("birds-fixture")
        defer { try? FileManager.default.removeItem(at: directory) }
        let birds = try BirdsBundle(path: FixtureBirds.build(into: directory).artifactPath)
        #expect(birds.speciesCount == 8)
        // input/birds: Eurasian Bullfinch lists Woodland, Oct–Mar; Tawny Owl Woodland, all months;
        // Great Spotted Woodpecker Woodland and Urban.
        #expect(birds.species(inRegion: "woodland", month: 7).present.names == ["Great Spotted Woodpecker", "Tawny Owl"])
        #expect(birds.species(inRegion: "Woodland", month: 12).present.names == ["Eurasian Bullfinch", "Great Spotted Woodpecker", "Tawny Owl"])
        #expect(birds.species(named: "Héron Cendré").first?.commonName == "Gray Heron")
        #expect(birds.species(named: "gimpel").first?.form == "de")
        #expect(birds.frequency(of: "Bohemian Waxwing", region: "Fenland", period: 48) == 0.0009132)
        #expect(birds.frequency(of: "Mallard", region: "Fenland", period: 2) == 0.75)
        #expect(birds.species(named: "woodpecker sp.").first?.taxon.category == "spuh")
        #expect(birds.seasons(of: "bohwax")?.prebreedingMigration == .init(startMonth: 3, startDay: 8, endMonth: 5, endDay: 17))
        // North Reservoir (52.2051, 0.1218): Mallard 90 in weeks 1–…, from 1 km away.
        let near = try birds.species(near: (52.2, 0.12), radiusKm: 5, week: 1)
        #expect(near.first?.bird.commonName == "Mallard")
        #expect(near.first?.probability == 90)
    }

    @Test func corruptArtifactIsATypedError() throws {
        let directory = try TestPaths.temporaryDirectory("birds-corrupt")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try FixtureBirds.build(into: directory)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: result.artifactPath))
        let species = try #require(result.entry.sections.first { $0.tag == "SPEC" })
        bytes[Int(species.offset) + 5] ^= 0xFF
        let corrupt = directory.appendingPathComponent("corrupt.fgb")
        try bytes.write(to: corrupt)
        #expect { _ = try BirdsBundle(path: corrupt.path) } throws: { ($0 as? FieldGuideError)?.kind == .corrupt }
        let truncated = directory.appendingPathComponent("truncated.fgb")
        try bytes.prefix(bytes.count - 16).write(to: truncated)
        #expect { _ = try BirdsBundle(path: truncated.path) } throws: { ($0 as? FieldGuideError)?.kind == .truncated }
        #expect { _ = try BirdsBundle(path: directory.appendingPathComponent("absent.fgb").path) } throws: {
            ($0 as? FieldGuideError)?.kind == .unreadable
        }
    }

    @Test func wrongArtifactKindIsRefused() throws {
        let directory = try TestPaths.temporaryDirectory("birds-kind")
        defer { try? FileManager.default.removeItem(at: directory) }
        var builder = ArtifactBuilder(kind: AircraftSchema.kind)
        builder.addSection(AircraftSchema.Section.strings, rows: 1, bytes: StringPoolBuilder().finish().bytes)
        let path = directory.appendingPathComponent("aircraft.fgb").path
        try builder.write(to: path)
        #expect { _ = try BirdsBundle(path: path) } throws: { error in
            guard let error = error as? FieldGuideError, case .wrongKind(_, "BIRD", "ACFT") = error.underlying else { return false }
            return error.kind == .notAnArtifact
        }
        // A BIRD artifact missing its sections is corrupt, not a crash.
        var empty = ArtifactBuilder(kind: BirdsSchema.kind)
        empty.addSection(BirdsSchema.Section.strings, rows: 1, bytes: StringPoolBuilder().finish().bytes)
        try empty.write(to: path)
        #expect { _ = try BirdsBundle(path: path) } throws: { ($0 as? FieldGuideError)?.kind == .corrupt }
    }

    @Test func emitRefusesAFailedOrTamperedHandOff() throws {
        let directory = try TestPaths.temporaryDirectory("birds-handoff")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect { _ = try BirdsEmit.run(.init(handOff: directory.path), outputDirectory: directory.path) } throws: {
            ($0 as? LocatedError)?.kind == .badHandOff
        }
        _ = try FixtureBirds.build(into: directory)
        let species = directory.appendingPathComponent("stage/species.csv")
        try (String(contentsOf: species, encoding: .utf8) + "x\n").write(to: species, atomically: true, encoding: .utf8)
        let before = try Data(contentsOf: directory.appendingPathComponent("birds.fgb"))
        #expect { _ = try BirdsEmit.run(.init(handOff: directory.appendingPathComponent("stage").path), outputDirectory: directory.path) } throws: {
            ($0 as? LocatedError)?.kind == .badHandOff
        }
        #expect(try Data(contentsOf: directory.appendingPathComponent("birds.fgb")) == before)
    }

    @Test func malformedSourcesAreRejectedWithTheirLine() throws {
        let directory = try TestPaths.temporaryDirectory("birds-sources")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chart = directory.appendingPathComponent("barchart-x.txt")
        try "Sample Size:\t1.0\t2.0\t\nSnow Bunting\t0.1\t\n".write(to: chart, atomically: true, encoding: .utf8)
        #expect { _ = try EBirdBarChart.read(chart.path, region: "X") } throws: { ($0 as? LocatedError)?.line == 1 }
        let labels = directory.appendingPathComponent("Labels_de.txt")
        try "Passer domesticus_Haussperling\nno separator\n".write(to: labels, atomically: true, encoding: .utf8)
        #expect { _ = try LocalizedLabels.read(labels.path) } throws: { ($0 as? LocatedError)?.line == 2 }
        #expect(LocalizedLabels.language(ofFile: "BirdNET_GLOBAL_6K_V2.4_Labels_ja.txt") == "ja")
        #expect(LocalizedLabels.language(ofFile: "BirdNET_GLOBAL_6K_V2.4_Labels.txt") == "en")
        #expect(EBirdBarChart.regionName(fromFile: "/x/barchart-svalbard.txt") == "Svalbard")
        #expect(EBirdBarChart.regionName(fromFile: "/x/barchart-US-NY-061.txt") == "US-NY-061")   // aggregate-ebd's names keep the code
    }
}

/// The `ingest-birds`, `emit-birds` and `fieldguide` executables over the input/ fixtures.
@Suite struct BirdExecutableTests {
    @Test func emitBirdsAndFieldguideSubcommands() throws {
        let directory = try TestPaths.temporaryDirectory("birds-exec")
        defer { try? FileManager.default.removeItem(at: directory) }
        let help = try TestPaths.run("emit-birds", ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--observations") && !help.stdout.contains("--barchart"))
        #expect(try TestPaths.run("ingest-birds", ["--help"]).stdout.contains("--barchart"))
        #expect(try TestPaths.run("emit-birds", []).status == 2)
        #expect(try TestPaths.run("emit-birds", [directory.path, "--output", directory.path]).status == 1)

        let input = "input/birds", stage = directory.appendingPathComponent("stage").path
        let ingest = try TestPaths.run("ingest-birds", [input, "--output", stage,
                                                        "--barchart", "\(input)/ebird/barchart-fenland.txt", "--seasons", "\(input)/ebird/ebirdst_runs_example.csv",
                                                        "--labels", "\(input)/names/BirdNET_Labels.txt", "\(input)/names/BirdNET_Labels_de.txt",
                                                        "--taxonomy", "\(input)/taxonomy/taxonomy.csv"])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(ingest.stderr.contains("read 1 bar chart (6 rows, 2 non-species, 1 unresolved), 3 seasons, 2 labels files"))
        let emit = try TestPaths.run("emit-birds", [stage, "--output", directory.path])
        #expect(emit.status == 0, "\(emit.stderr)")
        #expect(emit.stderr.contains("read 8 species"))
        let bundle = ["--bundle", directory.appendingPathComponent("birds.fgb").path]

        // input/birds: Eurasian Tree Sparrow (Passeridae_Fringillidae, size 1, Farmland/Urban, all
        // months) 30+20 = 50; Bohemian Waxwing (Urban, Nov–Mar) in January 30+20 = 50; Eurasian
        // Bullfinch (Woodland, Oct–Mar) 30+20−30 = 20.
        let identify = try TestPaths.run("fieldguide", ["identify", "--shape", "Passeridae_Fringillidae", "--size", "1", "--location", "Urban",
                                                        "--date", "2026-01-15", "--format", "json"] + bundle)
        #expect(identify.status == 0, "\(identify.stderr)")
        struct Entry: Decodable { struct Bird: Decodable { let commonName: String }; let bird: Bird; let confidence: Double }
        let entries = try JSONDecoder().decode([Entry].self, from: Data(identify.stdout.utf8))
        #expect(entries.map(\.bird.commonName) == ["Bohemian Waxwing", "Eurasian Tree Sparrow", "Eurasian Bullfinch"])
        #expect(entries.map(\.confidence) == [0.5, 0.5, 0.2])

        let species = try TestPaths.run("fieldguide", ["species", "--region", "Urban", "--month", "7"] + bundle)
        #expect(species.stdout.hasPrefix("3 present in Urban, month 7"))
        #expect(try TestPaths.run("fieldguide", ["species", "--named", "stockente"] + bundle).stdout.contains("Mallard"))
        #expect(try TestPaths.run("fieldguide", ["species", "--near", "52.2,0.12", "--radius", "5", "--week", "1"] + bundle).stdout.contains("90%  Mallard"))
        #expect(try TestPaths.run("fieldguide", ["frequency", "Mallard", "--region", "Fenland", "--period", "2"] + bundle).stdout.contains("0.7500000"))
        let watchlist = try TestPaths.run("fieldguide", ["watchlist", "--rules", #"[{"type":"shape","shapeId":"Strigidae"}]"#] + bundle)
        #expect(watchlist.stdout.contains("Tawny Owl"))
        #expect(watchlist.stdout.hasPrefix("1 bird\n"), "\(watchlist.stdout)")
        let invalid = try TestPaths.run("fieldguide", ["watchlist", "--rules", #"[{"type":"location","lat":52,"lon":0,"radiusKm":501}]"#] + bundle)
        #expect(invalid.status == 2)
        #expect(invalid.stderr.contains("rules[0].radiusKm"))
        #expect(try TestPaths.run("fieldguide", ["species", "--region", "Urban", "--month", "1", "--bundle", "input/birds/bird_database.json"]).status == 1)
    }
}
