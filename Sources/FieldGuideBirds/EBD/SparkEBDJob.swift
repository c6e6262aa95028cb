import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// Why the Spark engine did not give bar charts, in the job's own words.
public enum SparkJobError: Error, CustomStringConvertible, Equatable {
    /// `spark-submit` could not be started (not found, not executable).
    case cannotStart(String)
    /// The job ended without a summary (no Java, a Spark or Python error): its exit status
    /// and the last lines it printed.
    case failed(status: Int32, message: String)
    /// The job read the input and refused it (a wrong header, a broken file).
    case rejected(String)

    public var description: String {
        switch self {
        case .cannotStart(let reason): return reason
        case .failed(let status, let message): return "the Spark job failed (spark-submit exited \(status)): \(message)"
        case .rejected(let message): return message
        }
    }
}

/// Runs the aggregation as the PySpark job `pipelines/spark/ebd_barcharts.py` through
/// `spark-submit`, then commits its bar charts and writes the same rejects report and stage
/// report as the embedded engine (`EBDOutcome`).
///
/// The job writes into a staging directory inside the output (`.spark-staging`); its log goes
/// to `spark-submit.log` beside the outputs. A job that fails leaves earlier bar charts as
/// they were and a `failed` report whose failure is the job's own message.
///
/// ```swift
/// let job = SparkEBDJob(submit: ".build/spark-venv/bin/spark-submit", job: "pipelines/spark/ebd_barcharts.py")
/// let report = try job.run(inputs: ["ebd.txt"], options: .init(level: .state), outputDirectory: "out")
/// ```
public struct SparkEBDJob: Sendable {
    public static let summaryFile = "ebd-spark-summary.json"
    public static let logFile = "spark-submit.log"

    public var submit: String
    public var job: String
    /// `--master`: `local[*]` runs Spark in this process's machine.
    public var master: String
    /// Extra environment (PYSPARK_PYTHON for a virtual environment's Python).
    public var environment: [String: String]

    public init(submit: String, job: String, master: String = "local[*]", environment: [String: String] = [:]) {
        self.submit = submit
        self.job = job
        self.master = master
        self.environment = environment
    }

    /// The job's summary (`ebd-spark-summary.json`).
    struct Summary: Decodable {
        struct Source: Decodable { var file: String; var bytes: Int; var rows: StageReport.Rows }
        var status: String
        var failure: String?
        var sources: [Source]?
        var counts: [String: Int]?
        var rejects: [RowIssue]?
        var charts: [String]?
    }

    /// Submits the job and commits what it wrote; see the type's summary.
    public func run(inputs: [String], options: EBDAggregation.Options, outputDirectory: String) throws -> StageReport {
        try AtomicFile.prepareDirectory(outputDirectory)
        let staging = outputDirectory + "/.spark-staging"
        try? FileManager.default.removeItem(atPath: staging)
        defer { try? FileManager.default.removeItem(atPath: staging) }
        // Local mode: a few shuffle partitions, not the cluster default of 200 tiny tasks.
        let local = master.hasPrefix("local") ? ["--conf", "spark.sql.shuffle.partitions=8"] : []
        var arguments = ["--master", master, "--conf", "spark.ui.showConsoleProgress=false"] + local + [job,
                         "--level", options.level.rawValue, "--output", staging,
                         "--listed-per-reason", String(options.listedPerReason), "--max-line-bytes", String(options.maxLineBytes)]
        for sampling in options.samplingEvents { arguments += ["--sampling", sampling] }
        arguments += inputs
        let status = try launch(arguments, log: outputDirectory + "/" + Self.logFile)
        guard let data = FileManager.default.contents(atPath: staging + "/" + Self.summaryFile),
              let summary = try? JSONDecoder().decode(Summary.self, from: data) else {
            let error = SparkJobError.failed(status: status, message: Self.lastWords(ofLog: outputDirectory + "/" + Self.logFile))
            try EBDOutcome(sources: [], rejects: RejectsReport(), counts: [:]).fail(.failed, message: error.description, outputDirectory: outputDirectory)
            throw error
        }
        guard summary.status == "ok", let charts = summary.charts else {
            let message = summary.failure ?? "the Spark job said \(summary.status)"
            let outcome = EBDOutcome(sources: [], rejects: RejectsReport(), counts: [:])
            try outcome.fail(summary.status == "rejected" ? .rejected : .failed, message: message, outputDirectory: outputDirectory)
            throw summary.status == "rejected" ? SparkJobError.rejected(message) : SparkJobError.failed(status: status, message: message)
        }
        return try commit(summary, charts: charts, staging: staging, options: options, outputDirectory: outputDirectory)
    }

    /// Checks the reject shares, copies the charts into place atomically, writes the reports.
    private func commit(_ summary: Summary, charts: [String], staging: String, options: EBDAggregation.Options,
                        outputDirectory: String) throws -> StageReport {
        var rejects = RejectsReport()
        for issue in summary.rejects ?? [] { rejects.append(issue) }
        var sources: [StageReport.Source] = []
        for source in summary.sources ?? [] {
            // A local file is hashed here; one Spark read elsewhere (hdfs://, s3a://) is not.
            let digest = source.file.contains("://") ? "" : try FileDigest.sha256(ofFileAt: source.file).digest
            sources.append(StageReport.Source(file: source.file, bytes: source.bytes, sha256: digest, rows: source.rows))
        }
        var outcome = EBDOutcome(sources: sources, rejects: rejects, counts: summary.counts ?? [:])
        outcome.counts["countedOnSpark"] = 1
        do { try EBDOutcome.checkRejectShares(sources, max: options.maxRejectShare) } catch {
            try outcome.fail(error, outputDirectory: outputDirectory)
        }
        var written: [StageReport.Output] = []
        let set = OutputSet()
        for name in charts {
            guard name.hasPrefix("barchart-"), !name.contains("/"),
                  let bytes = FileManager.default.contents(atPath: staging + "/" + name) else {
                throw SparkJobError.failed(status: 0, message: "the job listed \(name) but did not write it")
            }
            written.append(try EBDOutcome.write(Array(bytes), named: name, in: outputDirectory, into: set))
        }
        return try outcome.commit(outputs: written, set: set, to: outputDirectory)
    }

    /// Runs spark-submit with its output in `log`; its exit status.
    private func launch(_ arguments: [String], log: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: submit)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        guard FileManager.default.createFile(atPath: log, contents: nil), let handle = FileHandle(forWritingAtPath: log) else {
            throw LocatedError(.unwritable, file: log, message: "cannot write the Spark log")
        }
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw SparkJobError.cannotStart("cannot start \(submit): \(SystemReason.of(error)) (give --spark-submit, or run make ebd ENGINE=spark, which installs pyspark into .build/spark-venv)")
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The job's own words: the last lines of its log that are not Spark's routine logging
    /// (a Python exception's last line, `JAVA_HOME is not set`, the job's `error:` line).
    static func lastWords(ofLog path: String, lines count: Int = 3) -> String {
        let text = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let routine = [" INFO ", " WARN ", "WARNING:", "Setting default log level", "To adjust logging level", "\tat ", "log4j"]
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { line in !line.isEmpty && !routine.contains { line.contains($0) } && !line.hasPrefix("at ") }
        if let error = lines.last(where: { $0.hasPrefix("ebd_barcharts: error:") }) { return String(error.dropFirst("ebd_barcharts: error: ".count)) }
        let exception = lines.last { $0.range(of: #"^[A-Za-z_.]*(Error|Exception)\b"#, options: .regularExpression) != nil }
        if let exception { return exception }
        return lines.suffix(count).joined(separator: " / ").nilIfEmpty ?? "no output (see \(path))"
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
