import ArgumentParser
import FieldGuideCore
import FieldGuideFAA
import StageCLI

struct IngestFAA: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest-faa",
        abstract: "Read the FAA aircraft registry files, normalize and validate every row.",
        discussion: """
        SOURCES is a directory holding ACFTREF.txt, ENGINE.txt and MASTER.txt (or its parts \
        MASTER-1.txt, MASTER-2.txt …), or ReleasableAircraft.zip itself. Writes models.csv, \
        engines.csv, registrations.csv, faa-rejects.csv and faa-ingest.json into --output. With \
        --master-optional a download without MASTER is the reference data alone: no \
        registrations.csv (one left by an earlier run is removed), what emit-aircraft-index needs.

        Exit status: 0 ok; 1 data rejected (wrong header, a record past 64 KiB, a ZIP entry past 512 MiB, \
        rejects over the threshold); 2 usage or I/O. A field that is not UTF-8 is read as Latin-1 with a \
        warning in faa-rejects.csv.
        """)

    @Argument(help: "Directory or ZIP archive with the FAA releasable files.")
    var sources: String

    @OptionGroup var output: StageOutput

    @Option(help: "Fail when a file rejects more than this share of its rows (0 to 1).")
    var maxRejectShare: Double = 0.02

    @Flag(help: "Without MASTER, write the reference data alone (models.csv, engines.csv) instead of failing.")
    var masterOptional = false

    func validate() throws {
        try requirePath(sources, option: "<sources>")
        guard (0...1).contains(maxRejectShare) else {
            throw ValidationError("--max-reject-share must be between 0 and 1, found \(maxRejectShare)")
        }
    }

    func run() throws {
        let log = StageLog(stage: "ingest-faa")
        let located = try FAASources.locate(sources, requireMaster: !masterOptional)
        log.info("reading \(([located.aircraftReference, located.engine] + located.master).map(\.name).joined(separator: ", ")) from \(sources)")
        let report = try FAAIngest(options: .init(maxRejectShare: maxRejectShare)).run(sources: located, outputDirectory: output.directory)
        for source in report.sources {
            log.info("\(source.file): \(formatCount(source.rows.read, "row")) read, \(formatCount(source.rows.kept)) kept, \(formatCount(source.rows.rejected)) rejected, \(formatCount(source.rows.warnings, "warning"))")
        }
        if let latin1 = report.counts[NormalizedFAA.latin1Count] {
            log.info("\(formatCount(latin1)) \(latin1 == 1 ? "field was" : "fields were") not UTF-8 and read as Latin-1 (ISO-8859-1): warnings in \(NormalizedFAA.rejectsFile)")
        }
        if located.master.isEmpty {
            log.info("no MASTER in \(sources): reference data only, no \(NormalizedFAA.registrationsFile)")
        } else {
            log.info("joins: registrations without an ACFTREF model: \(formatCount(report.counts["registrationsWithoutModel"] ?? 0)); without an ENGINE record: \(formatCount(report.counts["registrationsWithoutEngine"] ?? 0))")
        }
        log.info("wrote \(report.outputs.map(\.file).sorted().joined(separator: ", ")), \(NormalizedFAA.rejectsFile), \(NormalizedFAA.reportFile) to \(output.directory)")
    }
}

IngestFAA.runStage(name: "ingest-faa")
