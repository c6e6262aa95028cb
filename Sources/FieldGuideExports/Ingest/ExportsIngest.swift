import FieldGuide
import FieldGuideDiagnostics
import FieldGuideFAA
import FieldGuideCore
import FieldGuideCSV
import Foundation

/// The `ingest-exports` stage: reads metadata exports, resolves their subjects, and writes
/// normalized observations with a resolution report and a rejects report.
///
/// Files are read in path order (directories recursively, hidden files skipped). A file that
/// cannot be read is reported at `file:line:col` and contributes nothing; the others still
/// import. Outputs, all written atomically and byte-identical for identical inputs:
/// `observations.csv`, `exports-resolution.json`, `exports-rejects.csv`, `exports-ingest.json`.
///
/// ```swift
/// let result = try ExportsIngest(options: .init(icaoTypes: try ICAOTypeTable(path: "icao-types.json")))
///     .run(paths: ["input/exports"], outputDirectory: "output/stage/exports")
/// result.failedFiles     // 0
/// result.report.status   // .ok
/// ```
public struct ExportsIngest {
    public struct Options {
        public var aircraft: AircraftBundle?
        public var icaoTypes: ICAOTypeTable?
        public var birdNames: (any BirdNameResolving)?
        /// How the loaded reference data is named in the report (paths as given).
        public var aircraftSource: String?
        public var icaoTypesSource: String?
        /// The share of files (0…1) that may fail to read while the stage still passes: each
        /// failed file is reported and counted, the others imported. 0 (the default) fails the
        /// stage on any unreadable file.
        public var maxFailedShare: Double = 0

        public init(aircraft: AircraftBundle? = nil, icaoTypes: ICAOTypeTable? = nil, birdNames: (any BirdNameResolving)? = nil,
                    aircraftSource: String? = nil, icaoTypesSource: String? = nil) {
            self.aircraft = aircraft
            self.icaoTypes = icaoTypes
            self.birdNames = birdNames
            self.aircraftSource = aircraftSource ?? aircraft?.path
            self.icaoTypesSource = icaoTypesSource
        }
    }

    public static let observationsFile = "observations.csv"
    public static let resolutionFile = "exports-resolution.json"
    public static let rejectsFile = "exports-rejects.csv"
    public static let reportFile = "exports-ingest.json"
    /// The stage that writes these files (its report's `stage`).
    static let producer = "ingest-exports"

    public var options: Options

    public init(options: Options = Options()) { self.options = options }

    /// The export files under `paths`, in order, each with the name reports use.
    public static func discover(_ paths: [String]) throws(LocatedError) -> [(path: String, name: String)] {
        var found: [(path: String, name: String)] = []
        var seen: Set<String> = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw LocatedError(.missingFile, file: path, message: "no such file or directory")
            }
            var files: [(String, String)] = []
            if isDirectory.boolValue {
                // Links followed, the directory's own included; hidden names skipped.
                let base = path.hasSuffix("/") ? String(path.dropLast()) : path
                for relative in try DirectoryWalk.files(under: path)
                where ExportFileReader.extensions.contains((relative as NSString).pathExtension.lowercased()) {
                    files.append((base + "/" + relative, base + "/" + relative))
                }
                files.sort { $0.0 < $1.0 }
            } else {
                // A device or a pipe has no end to hash or read to (`/dev/zero` ran for ever).
                var info = stat()
                guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                    throw LocatedError(.unreadable, file: path, expected: "an export file or a directory of them",
                                       found: "a device, pipe or socket", message: "not a file to read")
                }
                files = [(path, path)]
            }
            for file in files where seen.insert(file.0).inserted { found.append(file) }
        }
        return found
    }

    /// Reads every export, writes the outputs and the stage report (`exports-ingest.json`), and
    /// returns the report with each file as read.
    public func run(paths: [String], outputDirectory: String) throws(LocatedError) -> ExportsIngestResult {
        let inputs = try Self.discover(paths)
        let resolver = SubjectResolver(aircraft: options.aircraft, icaoTypes: options.icaoTypes, birdNames: options.birdNames)
        let spool = try Spool(directory: outputDirectory, name: Self.observationsFile)
        var header = CSVWriter()
        header.write(ObservationCSV.header)
        try spool.append(header.bytes)
        let rejects = RejectSpool(directory: outputDirectory, name: Self.rejectsFile)
        var files: [FileReport] = []
        var totals: [String: Int] = [:]
        var observationStatus: [String: Int] = [:]

        for input in inputs {
            var fileReport = FileReport(file: input.name)
            if let digest = try? FileDigest.sha256(ofFileAt: input.path) { (fileReport.sha256, fileReport.bytes) = (digest.digest, digest.bytes) }
            let mark = spool.size, rejectsMark = rejects.mark()
            // Rows and issues of this file: kept only if the whole file reads.
            var writer = CSVWriter()
            var counts: [ObservationKind: Int] = [:]
            var spoolError: LocatedError?
            let statusBefore = observationStatus
            let entriesBefore = resolver.checkpoint()
            func file(_ issue: RowIssue) {
                guard spoolError == nil else { return }
                do throws(LocatedError) { try rejects.append(issue) } catch { spoolError = error }
            }
            let sink = RecordSink(observe: { observation in
                var observation = observation
                for replaced in observation.replaceControlCharacters() {   // a warning each, the observation kept
                    file(RowIssue(.warning, file: observation.file, line: observation.line, field: replaced.field, value: replaced.value,
                                  reason: FileText.controlReason(replaced.control)))
                }
                resolver.resolve(&observation)
                if let status = observation.resolution?.status { observationStatus[status.rawValue, default: 0] += 1 }
                counts[observation.kind, default: 0] += 1
                ObservationCSV.write(observation, to: &writer)
                if writer.count >= 1 << 20, spoolError == nil {   // `count`: `bytes` copies the buffer (up to 1 MiB a record)
                    do throws(LocatedError) { try spool.append(&writer) } catch { spoolError = error }
                }
            }, issue: file)
            do throws(LocatedError) {
                let summary = try ExportFileReader.read(path: input.path, displayName: input.name, sink: sink)
                if let spoolError { throw spoolError }
                try spool.append(&writer)
                fileReport.format = summary.format
                fileReport.records = summary.records
                fileReport.skipped = summary.skipped
                fileReport.observations = Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) })
                fileReport.rejected = rejects.counts.rejected - rejectsMark.counts.rejected
                fileReport.warnings = rejects.counts.warnings - rejectsMark.counts.warnings
            } catch {
                // The spools failing to take this file's rows (a full disk, a file-size limit) end
                // the run; a file that cannot be read does not.
                if (spoolError != nil && error.kind.isUsageOrIO) || error.kind == .unwritable { throw error }
                try spool.rollBack(to: mark)
                try rejects.rollBack(to: rejectsMark)
                observationStatus = statusBefore
                resolver.restore(entriesBefore)
                fileReport.error = FileError(error)
                try rejects.append(RowIssue(.rejected, file: input.name, line: error.line ?? 0, field: "(file)", value: error.kind.rawValue,
                                        reason: (error.column.map { "column \($0): " } ?? "") + error.message))
            }
            for (kind, n) in fileReport.observations { totals["observations." + kind, default: 0] += n }
            files.append(fileReport)
        }
        totals["files"] = inputs.count
        totals["observations"] = files.reduce(0) { $0 + $1.observations.values.reduce(0, +) }
        let resolution = ResolutionReport(resolver: resolver, options: options, observations: observationStatus)
        var result = ExportsIngestResult(report: StageReport(stage: Self.producer, status: .ok), files: files)
        result.report.counts = totals
        let observations = try spool.prepare(outputDirectory + "/" + Self.observationsFile)
        result.report.outputs = [.init(file: Self.observationsFile, bytes: spool.size, sha256: observations.sha256)]
        try result.finish(observations: observations.writer, resolution: resolution, rejects: rejects,
                          maxFailedShare: options.maxFailedShare, outputDirectory: outputDirectory)
        return result
    }
}

/// What `ExportsIngest.run` gives back: its stage report (`exports-ingest.json`: each file
/// as a source, counts of observations by kind, files by format, skipped records and subjects
/// by resolution status, the outputs' SHA-256) and each file as read (format, skipped records,
/// the error of one that did not read: also in `exports-rejects.csv`).
///
/// ```swift
/// let result = try ExportsIngest().run(paths: ["input/exports"], outputDirectory: "output/stage/exports")
/// result.report.counts["observations.bird"]   // birds observed, over every file
/// result.files.compactMap(\.error)             // the files that did not read
/// ```
public struct ExportsIngestResult: Sendable {
    public var report: StageReport
    public var files: [FileReport]

    /// Files that could not be read (status `rejected` when any).
    public var failedFiles: Int { files.filter { $0.error != nil }.count }

    /// Writes the resolution and rejects reports and the stage report beside `observations`
    /// (written, not yet committed), and commits the four together (`OutputSet`): a run that
    /// cannot write one of them (a full disk) leaves all of an earlier run's as they were.
    mutating func finish(observations: AtomicFileWriter, resolution: ResolutionReport, rejects: RejectSpool, maxFailedShare: Double,
                         outputDirectory: String) throws(LocatedError) {
        let outputs = OutputSet()
        try outputs.add(observations)
        let resolutionPath = outputDirectory + "/" + ExportsIngest.resolutionFile
        let resolutionOut = try outputs.write(try JSON.encode(resolution, for: resolutionPath), to: resolutionPath)
        report.outputs.append(.init(file: ExportsIngest.resolutionFile, bytes: resolutionOut.bytes, sha256: resolutionOut.sha256))
        let written = try rejects.prepare(outputDirectory + "/" + ExportsIngest.rejectsFile)
        try outputs.add(written.writer)
        report.outputs.append(.init(file: ExportsIngest.rejectsFile, bytes: written.bytes, sha256: written.sha256))
        report.sources = files.map {
            StageReport.Source(file: $0.file, bytes: $0.bytes ?? 0, sha256: $0.sha256 ?? "",
                               rows: .init(read: $0.records, kept: $0.observations.values.reduce(0, +), rejected: $0.rejected, warnings: $0.warnings))
        }
        report.findings = .init(errors: rejects.counts.rejected, warnings: rejects.counts.warnings)
        for (status, n) in resolution.counts { report.counts["subjects." + status] = n }
        for file in files {
            if let format = file.format { report.counts["files." + format.rawValue, default: 0] += 1 }
            for (what, n) in file.skipped { report.counts["skipped." + what, default: 0] += n }
        }
        report.counts["failedFiles"] = failedFiles
        if failedFiles > 0, Double(failedFiles) > maxFailedShare * Double(files.count) {
            report.status = .rejected
            report.failure = Self.failedFilesText(failedFiles, of: files.count)
                + (maxFailedShare > 0 ? " (more than the \(formatPercent(maxFailedShare)) allowed)" : "")
        }
        try outputs.write(try report.encoded(), to: outputDirectory + "/" + ExportsIngest.reportFile)
        try outputs.commit()
    }

    /// The failure of a run where `failed` of `total` files could not be read, saying what
    /// became of the others: `1 of 3 files could not be read; the others were imported`,
    /// `the only file could not be read`, `none of the 2 files could be read`.
    static func failedFilesText(_ failed: Int, of total: Int) -> String {
        switch (failed, total - failed) {
        case (1, 0): return "the only file could not be read"
        case (_, 0): return "none of the \(formatCount(total)) files could be read"
        case (_, 1): return "\(formatCount(failed)) of \(formatCount(total)) files could not be read; the other was imported"
        default: return "\(formatCount(failed)) of \(formatCount(total)) files could not be read; the others were imported"
        }
    }
}

/// One input file as read.
public struct FileReport: Sendable, Codable {
    public var file: String
    public var sha256: String?
    public var bytes: Int?
    public var format: ExportFormat?
    public var records = 0
    /// Observations kept, by kind.
    public var observations: [String: Int] = [:]
    public var rejected = 0
    public var warnings = 0
    public var skipped: [String: Int] = [:]
    public var error: FileError?

    init(file: String) { self.file = file }
}

/// A file that could not be read, located: the ``LocatedError`` as the report keeps it.
public struct FileError: Sendable, Codable {
    public var kind: LocatedError.Kind
    /// 0 when the file could not be read at all.
    public var line: Int
    public var column: Int?
    public var message: String
    /// `file:line:col: message`
    public var description: String

    init(_ error: LocatedError) {
        kind = error.kind
        line = error.line ?? 0
        column = error.column
        message = error.message
        description = error.description
    }
}

/// `exports-resolution.json`: every distinct subject with how it resolved, counts by status,
/// and the FAA enrichment of each resolved registration.
public struct ResolutionReport: Sendable, Codable {
    /// The bird names index used, or "no names index loaded".
    public var birdNames: String
    public var aircraftRegistry: String
    public var icaoTypes: String
    /// Distinct subjects by status (every status listed, zeros included).
    public var counts: [String: Int]
    /// Distinct subjects by kind, then status.
    public var countsByKind: [String: [String: Int]]
    /// Bird and aircraft observations by status.
    public var observations: [String: Int]
    /// Every distinct subject, resolved or not: unresolved ones are listed, never dropped.
    public var subjects: [SubjectEntry]
    public var aircraft: [AircraftEnrichment]

    init(resolver: SubjectResolver, options: ExportsIngest.Options, observations: [String: Int]) {
        birdNames = options.birdNames.map { $0.description } ?? SubjectResolver.noNamesIndex
        aircraftRegistry = options.aircraftSource ?? "none"
        icaoTypes = options.icaoTypesSource ?? (options.icaoTypes == nil ? "none" : "loaded")
        subjects = resolver.subjects
        var counts = Dictionary(uniqueKeysWithValues: ResolutionStatus.allCases.map { ($0.rawValue, 0) })
        var byKind: [String: [String: Int]] = [:]
        for subject in subjects {
            counts[subject.resolution.status.rawValue, default: 0] += 1
            byKind[subject.kind.rawValue, default: [:]][subject.resolution.status.rawValue, default: 0] += 1
        }
        self.counts = counts
        countsByKind = byKind
        var observationCounts = Dictionary(uniqueKeysWithValues: ResolutionStatus.allCases.map { ($0.rawValue, 0) })
        observationCounts.merge(observations) { $1 }
        self.observations = observationCounts
        aircraft = resolver.enrichments.keys.sorted().map { resolver.enrichments[$0]! }
    }
}
