import ArgumentParser
import FieldGuideBirds
import FieldGuideCore
import StageCLI

struct IngestBirds: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest-birds",
        abstract: "Read bird seed JSON (any schema generation), validate it and write normalized records.",
        discussion: """
        FILE_OR_DIR names one bird database (schema 3.0, 2.1 or 1.2 — older ones are migrated to \
        the current model) and the watchlists, shared watchlists and home data (hotspots, \
        migration sessions) that go with it; directories are searched recursively. --taxonomy \
        (or an eBird/Clements taxonomy CSV among the inputs) links each bird to a species code. \
        Writes species.csv, species-field-marks.csv, shapes.csv, field-mark-variants.csv, \
        watchlists.csv, watchlist-entries.csv, hotspots.csv, hotspot-species.csv, \
        migration-sessions.csv, migration-points.csv and birds-ingest.json into --output.

        Exit status: 0 ok (warnings allowed); 1 errors in the seed files (only birds-ingest.json \
        is written); 2 usage or I/O.
        """)

    @Argument(help: "The bird database and its companion files, or directories holding them.")
    var paths: [String]

    @Option(name: .shortAndLong, help: "Directory for the normalized files and the report.")
    var output: String

    @Option(help: "eBird/Clements taxonomy CSV to link birds to.")
    var taxonomy: String?

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give the bird database (a file or a directory)") }
    }

    func run() throws {
        let log = StageLog(stage: "ingest-birds")
        let report = try BirdIngest(taxonomyPath: taxonomy).run(paths: paths, outputDirectory: output)
        for file in report.files {
            let counts = file.counts.keys.sorted().map { "\(formatCount(file.counts[$0]!)) \($0)" }.joined(separator: ", ")
            log.info("\(file.file): \(file.kind.rawValue)\(file.generation.map { " \($0.rawValue)" } ?? ""): \(counts)")
        }
        for finding in report.findings { log.info(finding.description) }
        guard report.status == "ok" else {
            throw StageFailure(.dataRejected, "\(report.failure ?? "failed"); wrote only \(output)/birds-ingest.json")
        }
        if let generation = report.generation {
            log.info("read schema generation \(generation.rawValue)\(generation == .current ? "" : ", migrated to \(SchemaGeneration.current.rawValue)")")
        }
        log.info("wrote \(report.outputs.keys.sorted().joined(separator: ", ")), birds-ingest.json to \(output)")
    }
}

IngestBirds.runStage(name: "ingest-birds")
