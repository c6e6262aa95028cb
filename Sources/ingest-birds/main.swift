import ArgumentParser
import FieldGuideBirds
import FieldGuideCore
import StageCLI

struct IngestBirds: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest-birds",
        abstract: "Read bird seed JSON (any schema generation) and the eBird and BirdNET reference files, validate them, link them to taxa and write normalized records.",
        discussion: """
        FILE_OR_DIR names one bird database (schema 3.0, 2.1 or 1.2 — older ones are migrated to \
        the current model) and the watchlists, shared watchlists and home data (hotspots, \
        migration sessions) that go with it; directories are searched recursively. --taxonomy \
        (or an eBird/Clements taxonomy CSV among the inputs) links each bird to a species code. \
        Optional reference files: eBird bar charts (--barchart FILE, or REGION=FILE; the region \
        defaults to the file name: barchart-svalbard.txt → Svalbard, barchart-US-NY.txt → US-NY), \
        bar charts aggregate-ebd computed (--computed-barcharts DIR: each replaces a downloaded \
        chart of its region), eBird Status & Trends runs \
        (--seasons CSV) and BirdNET label lists (--labels FILE, language from the _xx suffix). \
        Every source is linked to taxa once, here. Writes species.csv, species-field-marks.csv, \
        shapes.csv, field-mark-variants.csv, watchlists.csv, watchlist-entries.csv, hotspots.csv, \
        hotspot-species.csv, migration-sessions.csv, migration-points.csv, taxa.csv, names.csv, \
        bar-charts.csv, seasons.csv and birds-ingest.json into --output.

        Exit status: 0 ok (warnings allowed); 1 errors in the seed files or a malformed reference \
        file (only birds-ingest.json, status rejected, is written); 2 usage or I/O.
        """)

    @OptionGroup var inputs: SeedInputs

    @OptionGroup var output: StageOutput

    @Option(name: .customLong("barchart"), parsing: .upToNextOption, help: "eBird bar-chart downloads (FILE or REGION=FILE).")
    var barCharts: [String] = []

    @Option(name: .customLong("computed-barcharts"), parsing: .upToNextOption,
            help: "Directories of bar charts aggregate-ebd computed; each replaces a downloaded chart of its region.")
    var computedBarCharts: [String] = []

    @Option(help: "eBird Status & Trends species runs CSV (ebirdst_runs_2023.csv).")
    var seasons: String?

    @Option(parsing: .upToNextOption, help: "BirdNET labels files (Scientific name_Common name per line).")
    var labels: [String] = []

    func validate() throws {
        try requirePaths(barCharts, option: "--barchart")
        try requirePaths(computedBarCharts, option: "--computed-barcharts")
        try requirePath(seasons, option: "--seasons")
        try requirePaths(labels, option: "--labels")
    }

    func run() throws {
        let log = StageLog(stage: "ingest-birds")
        var ingest = BirdIngest(taxonomyPath: inputs.taxonomy)
        ingest.barCharts = barCharts
        ingest.computedBarCharts = computedBarCharts
        ingest.seasons = seasons
        ingest.labels = labels
        let result = try ingest.run(paths: inputs.paths, outputDirectory: output.directory)
        let report = result.report
        for file in result.files {
            let counts = file.counts.keys.sorted().map { SeedFileSummary.countText(file.counts[$0]!, key: $0) }.joined(separator: ", ")
            log.info("\(file.file): \(file.kind.rawValue)\(file.generation.map { " \($0.rawValue)" } ?? "")\(counts.isEmpty ? " (not read)" : ": " + counts)")
        }
        for finding in report.findings.listed ?? [] { log.info(finding.description) }
        guard report.status == .ok else {
            throw StageFailure(.dataRejected, "\(report.failure ?? "failed"); wrote only \(output.directory)/birds-ingest.json")
        }
        // The reference files follow the seed files among the report's sources.
        if let computed = report.linkCounts["barChartsComputed"], computed > 0 {
            log.info("\(formatCount(computed, "bar chart")) computed from the EBD (\(computedBarCharts.joined(separator: ", "))), replacing \(formatCount(report.linkCounts["barChartsReplaced"] ?? 0)) downloaded")
        }
        if report.sources.count > result.files.count {
            let c = report.counts, l = report.linkCounts
            func n(_ count: Int?) -> String { formatCount(count ?? 0) }
            log.info("read \(formatCount(barCharts.count, "bar chart")) (\(n(c["bar-charts"].map { $0 - barCharts.count })) rows, \(n(l["barChartNonSpecies"])) non-species, \(n(l["barChartUnresolved"])) unresolved), \(formatCount(c["seasons"] ?? 0, "season")), \(formatCount(labels.count, "labels file")); linked to \(n(c["taxa"])) taxa with \(n(c["names"])) names")
        }
        if let generation = report.generation.flatMap(SchemaGeneration.init(rawValue:)) {
            log.info("read schema generation \(generation.rawValue)\(generation == .current ? "" : ", migrated to \(SchemaGeneration.current.rawValue)")")
        }
        log.info("wrote \(report.outputs.map(\.file).sorted().joined(separator: ", ")), birds-ingest.json to \(output.directory)")
    }
}

IngestBirds.runStage(name: "ingest-birds")
