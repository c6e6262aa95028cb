import FieldGuideBirds
import FuzzSupport
import Foundation

/// The birds ingest's reference files (the eBird taxonomy, a bar chart, the Status & Trends
/// runs, a BirdNET label list): the input stands in for each in turn, beside input/birds'
/// seed database and the others, and the ingest links them as `ingest-birds` does.
let birds = Fuzz.root + "/input/birds"
let input = Fuzz.scratch + "/bird-source.txt"

func ingest(taxonomy: String, barChart: String, seasons: String, labels: String) {
    var ingest = BirdIngest(taxonomyPath: taxonomy)
    ingest.barCharts = [barChart]
    ingest.seasons = seasons
    ingest.labels = [labels]
    _ = try? ingest.run(paths: [birds + "/bird_database.json"], outputDirectory: Fuzz.scratch + "/birds-out")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    FileManager.default.createFile(atPath: input, contents: Data(bytes: start, count: count))
    let taxonomy = birds + "/taxonomy/taxonomy.csv", barChart = birds + "/ebird/barchart-fenland.txt"
    let seasons = birds + "/ebird/ebirdst_runs_example.csv", labels = birds + "/names/BirdNET_Labels_fr.txt"
    ingest(taxonomy: input, barChart: barChart, seasons: seasons, labels: labels)
    ingest(taxonomy: taxonomy, barChart: input, seasons: seasons, labels: labels)
    ingest(taxonomy: taxonomy, barChart: barChart, seasons: input, labels: labels)
    ingest(taxonomy: taxonomy, barChart: barChart, seasons: seasons, labels: input)
    return 0
}
