import ArgumentParser
import FieldGuideCore
import FieldGuideEmit
import StageCLI

struct EmitBirds: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emit-birds",
        abstract: "Index the normalized bird records and write the birds artifact.",
        discussion: """
        HANDOFF is the --output directory of ingest-birds: the seed tables and the taxa, names, \
        bar charts and seasons ingest-birds linked (it reads the taxonomy, bar charts, seasons and \
        labels). --observations adds the resolved bird observations of ingest-exports as the \
        observed source. Writes birds.fgb and merges its entry into manifest.json in --output, \
        each atomically.

        Exit status: 0 ok; 1 hand-off or observations rejected; 2 usage or I/O.
        """)

    @Argument(help: "The directory ingest-birds wrote.")
    var handOff: String

    @OptionGroup var output: StageOutput

    @Option(parsing: .upToNextOption, help: "observations.csv files from ingest-exports: resolved birds become the observed source.")
    var observations: [String] = []

    func validate() throws {
        try requirePath(handOff, option: "<hand-off>")
        try requirePaths(observations, option: "--observations")
    }

    func run() throws {
        let log = StageLog(stage: "emit-birds")
        var sources = BirdsEmit.Sources(handOff: handOff)
        sources.observations = observations
        let result = try BirdsEmit.run(sources, outputDirectory: output.directory)
        let c = result.entry.counts
        func n(_ key: String) -> String { formatCount(c[key] ?? 0) }
        log.info("read \(n("species")) species (\(n("speciesWithoutMonths")) without months, \(n("speciesWithoutLocations")) without locations), \(formatCount(c["hotspots"] ?? 0, "hotspot")) with \(n("hotspotSpecies")) species entries from \(handOff)")
        func n(_ key: String, _ noun: String, plural: String? = nil) -> String { formatCount(c[key] ?? 0, noun, plural: plural) }
        log.info("read \(n("taxa", "taxon", plural: "taxa")), \(n("barChartRows", "bar-chart row")) (\(n("barChartNonSpecies")) non-species, \(n("barChartUnresolved")) unresolved), \(n("seasons", "season")) as linked by ingest-birds")
        if !observations.isEmpty {
            log.info("observed source: \(n("observations")) resolved bird observations (\(n("observationsWithoutTaxon")) of species outside this artifact) from \(formatCount(observations.count, "file"))")
        }
        log.info("indexed \(n("regions", "region")), \(n("regionMonthEntries")) region×month and \(n("regionWeekEntries")) region×week entries, \(n("taxa", "taxon", plural: "taxa")), \(n("names", "name")), \(n("strings", "string"))")
        log.info("wrote \(result.artifactPath) (\(formatCount(result.entry.bytes)) bytes, \(result.entry.sections.count) sections, sha256 \(result.entry.sha256.prefix(12))…), \(BirdsEmit.manifestFile)")
    }
}

EmitBirds.runStage(name: "emit-birds")
