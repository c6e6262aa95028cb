import ArgumentParser
import FieldGuideBirds
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation
import StageCLI

struct AggregateEBD: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aggregate-ebd",
        abstract: "Compute eBird bar charts (barchart-REGION.txt, 48 periods) from eBird Basic Dataset files.",
        discussion: """
        EBD is one or more eBird Basic Dataset files (tab separated, the EBD header); --sampling \
        adds the sampling-event file, so that checklists without any detection count in the \
        sample sizes too. One bar chart per region at --level (country, state or county code), \
        by eBird's rules: complete checklists only, a shared checklist (GROUP IDENTIFIER) once \
        and a taxon once on it, approved rows only as detections, subspecies and forms under \
        their species (COMMON NAME), spuhs, slashes and hybrids as taxa of their own. Writes \
        barchart-REGION.txt files, ebd-rejects.csv and ebd-aggregate.json into --output.

        --engine embedded (the default) streams the files on this machine, memory bounded by \
        the checklists and the (region, taxon) rows, not by the file size. --engine spark runs \
        pipelines/spark/ebd_barcharts.py through spark-submit (make ebd ENGINE=spark installs \
        pyspark into .build/spark-venv); both write the same bytes.

        Exit status: 0 ok; 1 data rejected (wrong header, rejects over the threshold, a \
        broken file); 2 usage or I/O, or a Spark job that failed.
        """)

    enum Engine: String, ExpressibleByArgument, CaseIterable { case embedded, spark }

    @Argument(help: "EBD files (Spark: any path Spark reads, directories and globs too).")
    var inputs: [String]

    @OptionGroup var output: StageOutput

    @Option(help: "Region level: country, state or county.")
    var level: EBDRegionLevel = .state

    @Option(help: "A sampling-event file (checklists without detections count too); one among the inputs is found by its header.")
    var sampling: [String] = []

    @Option(help: "embedded or spark.")
    var engine: Engine = .embedded

    @Option(help: "Fail when a file rejects more than this share of its rows (0 to 1).")
    var maxRejectShare: Double = 0.02

    @Option(help: "spark-submit to run (default: $SPARK_SUBMIT, .build/spark-venv/bin/spark-submit, then PATH).")
    var sparkSubmit: String?

    @Option(help: "The PySpark job (default: pipelines/spark/ebd_barcharts.py of this checkout).")
    var sparkJob: String?

    @Option(help: "Spark master URL.")
    var sparkMaster: String = "local[*]"

    func validate() throws {
        try requirePaths(inputs, option: "<inputs>")
        try requirePaths(sampling, option: "--sampling")
        guard (0...1).contains(maxRejectShare) else {
            throw ValidationError("--max-reject-share must be between 0 and 1, found \(maxRejectShare)")
        }
    }

    func run() throws {
        let log = StageLog(stage: "aggregate-ebd")
        // A sampling-event file among the inputs (the nightly passes a directory's files) is one.
        let found = inputs.filter { EBDColumns.fileKind(atPath: $0) == .samplingEvents }
        let observations = inputs.filter { !found.contains($0) }
        let options = EBDAggregation.Options(level: level, samplingEvents: sampling + found, maxRejectShare: maxRejectShare)
        let all = observations + options.samplingEvents
        guard !observations.isEmpty else {
            throw StageFailure(.usageOrIO, "no EBD among the inputs: \(found.joined(separator: ", ")) \(found.count == 1 ? "is a sampling-event file" : "are sampling-event files"); give the EBD too")
        }
        log.info("reading \(all.joined(separator: ", ")) at \(level.rawValue) level (\(engine.rawValue) engine)")
        let report: StageReport
        switch engine {
        case .embedded:
            for input in all where !FileManager.default.fileExists(atPath: input) {
                throw LocatedError(.missingFile, file: input, message: "No such file or directory")
            }
            let result = try EBDAggregation(options: options).run(inputs: observations, outputDirectory: output.directory)
            if let taxon = result.notGroupedByTaxon {
                log.info("the rows are not in eBird's order (\(taxon) resumes after another taxon): counted again with a (checklist, taxon) set")
            }
            log.info("checklist tables: \(result.tableBytes < 1 << 20 ? "\(formatCount(result.tableBytes >> 10)) KB" : "\(formatCount(result.tableBytes >> 20)) MB")")
            report = result.report
        case .spark:
            let job = try sparkJobLocated()
            log.info("spark-submit \(job.submit) \(job.job) (--master \(job.master)); its log: \(output.directory)/\(SparkEBDJob.logFile)")
            do { report = try job.run(inputs: observations, options: options, outputDirectory: output.directory) } catch let SparkJobError.rejected(message) {
                throw StageFailure(.dataRejected, message)
            }
        }
        summarize(report, log: log)
    }

    private func summarize(_ report: StageReport, log: StageLog) {
        for source in report.sources {
            log.info("\(source.file): \(formatCount(source.rows.read, "row")) read, \(formatCount(source.rows.kept)) counted, \(formatCount(source.rows.rejected)) rejected, \(formatCount(source.rows.warnings)) without a region")
        }
        let c = report.counts
        func n(_ key: String) -> String { formatCount(c[key] ?? 0) }
        func n(_ key: String, _ noun: String, plural: String? = nil) -> String { formatCount(c[key] ?? 0, noun, plural: plural) }
        log.info("\(n("checklists", "checklist")), \(n("detections", "detection")) of \(n("taxa", "taxon", plural: "taxa")) in \(n("regions", "region")); \(n("incompleteRows")) rows of incomplete checklists skipped, \(n("unapprovedRows")) unapproved rows not counted as detections")
        log.info("wrote \(formatCount(report.outputs.count, "bar chart")), \(EBDAggregation.rejectsFile), \(EBDAggregation.reportFile) to \(output.directory)")
    }

    /// spark-submit and the job, found as `--help` says: beside the build directory this
    /// executable lives in (`.build/spark-venv`, `pipelines/spark` of its checkout).
    private func sparkJobLocated() throws -> SparkEBDJob {
        let environment = ProcessInfo.processInfo.environment
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).absoluteURL
        var ancestors: [URL] = []
        for start in [executable, executable.resolvingSymlinksInPath()] {
            var url = start.deletingLastPathComponent()
            for _ in 0..<4 {
                url.deleteLastPathComponent()
                ancestors.append(url)
            }
        }
        let exists = { (path: String) in FileManager.default.isExecutableFile(atPath: path) }
        let venvs = ancestors.map { $0.appendingPathComponent("spark-venv/bin/spark-submit").path }
        let fromPath = (environment["PATH"] ?? "").split(separator: ":").map { "\($0)/spark-submit" }
        let submit = sparkSubmit ?? environment["SPARK_SUBMIT"] ?? (venvs + fromPath).first(where: exists) ?? ".build/spark-venv/bin/spark-submit"
        let jobs = (ancestors + [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)])
            .map { $0.appendingPathComponent("pipelines/spark/ebd_barcharts.py").path }
        let job = sparkJob ?? jobs.first { FileManager.default.fileExists(atPath: $0) } ?? "pipelines/spark/ebd_barcharts.py"
        guard FileManager.default.fileExists(atPath: job) else {
            throw LocatedError(.missingFile, file: job, message: "the Spark job is not there (give --spark-job)")
        }
        // A virtual environment's spark-submit runs the job with the Python beside it.
        let python = URL(fileURLWithPath: submit).deletingLastPathComponent().appendingPathComponent("python3").path
        let extra = exists(python) && environment["PYSPARK_PYTHON"] == nil ? ["PYSPARK_PYTHON": python] : [:]
        return SparkEBDJob(submit: submit, job: job, master: sparkMaster, environment: extra)
    }
}

extension EBDRegionLevel: ExpressibleByArgument {}

AggregateEBD.runStage(name: "aggregate-ebd")
