import FieldGuide
import FieldGuideBirds
import FieldGuideEmit
import Foundation
import TestSupport

/// A birds artifact built once per test run from the real SkyTrails seed files, the 2021
/// taxonomy, the Svalbard bar chart, the Status & Trends runs and the five BirdNET label lists
/// (nil, with a visible note, when ../shared/data is absent).
enum RealBirds {
    static let built: (bundle: BirdsBundle, directory: URL, emit: BirdsEmit.Result)? = {
        guard let skytrails = TestPaths.shared("birds/skytrails/bird_database.json"),
              let taxonomy = TestPaths.shared("birds/taxonomy/eBird_Taxonomy_v2021.csv"),
              let barChart = TestPaths.shared("birds/ebird/barchart-svalbard.txt"),
              let seasons = TestPaths.shared("birds/ebird/ebirdst_runs_2023.csv"),
              let names = TestPaths.shared("birds/names") else { return nil }
        do {
            let directory = try TestPaths.temporaryDirectory("birds-artifact")
            let seeds = skytrails.deletingLastPathComponent()
            var ingest = BirdIngest(taxonomyPath: taxonomy.path)
            ingest.barCharts = [barChart.path]
            ingest.seasons = seasons.path
            ingest.labels = try FileManager.default.contentsOfDirectory(atPath: names.path).sorted().map { names.appendingPathComponent($0).path }
            _ = try ingest.run(
                paths: ["bird_database.json", "home_data.json", "watchlists.json", "sharedWatchlists.json"].map { seeds.appendingPathComponent($0).path },
                outputDirectory: directory.appendingPathComponent("stage").path)
            let sources = BirdsEmit.Sources(handOff: directory.appendingPathComponent("stage").path)
            let emit = try BirdsEmit.run(sources, outputDirectory: directory.path, environment: [:])
            return (try BirdsBundle(path: emit.artifactPath), directory, emit)
        } catch {
            print("error: building the real birds artifact failed: \(error)")
            return nil
        }
    }()
}

/// The birds artifact of the project's own input/birds fixtures (invented records).
enum FixtureBirds {
    static let input = TestPaths.input.appendingPathComponent("birds")

    /// The ingest of input/birds with its reference files: the Fenland bar chart, the seasons
    /// and the en/de/fr labels (the taxonomy is found among the inputs).
    static var ingest: BirdIngest {
        var ingest = BirdIngest()
        ingest.barCharts = [input.appendingPathComponent("ebird/barchart-fenland.txt").path]
        ingest.seasons = input.appendingPathComponent("ebird/ebirdst_runs_example.csv").path
        ingest.labels = ["BirdNET_Labels.txt", "BirdNET_Labels_de.txt", "BirdNET_Labels_fr.txt"].map { input.appendingPathComponent("names/\($0)").path }
        return ingest
    }

    /// Ingests input/birds into `directory/stage`; returns the hand-off directory.
    static func stage(into directory: URL) throws -> String {
        let stage = directory.appendingPathComponent("stage").path
        _ = try ingest.run(paths: [input.path], outputDirectory: stage)
        return stage
    }

    /// Ingests input/birds into `directory/stage` and emits into `directory`.
    static func build(into directory: URL) throws -> BirdsEmit.Result {
        try BirdsEmit.run(.init(handOff: stage(into: directory)), outputDirectory: directory.path, environment: [:])
    }
}

extension Array where Element == BirdRecord {
    var names: [String] { map(\.commonName) }
}

/// `6a1f0000-0000-0000-0000-0000000000NN`: the SkyTrails variant ids are numbered like this.
func variantID(_ n: Int) -> String {
    let hex = String(n, radix: 16)
    return "6a1f0000-0000-0000-0000-" + String(repeating: "0", count: 12 - hex.count) + hex
}
