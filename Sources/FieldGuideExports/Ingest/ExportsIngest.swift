import FieldGuide
import FieldGuideDiagnostics
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
/// let report = try ExportsIngest(options: .init(icaoTypes: try ICAOTypeTable(path: "icao-types.json")))
///     .run(paths: ["input/exports"], outputDirectory: "output/stage/exports")
/// report.failedFiles     // 0
/// ```
public struct ExportsIngest {
    public struct Options {
        public var aircraft: AircraftBundle?
        public var icaoTypes: ICAOTypeTable?
        public var birdNames: (any BirdNameResolving)?
        /// How the loaded reference data is named in the report (paths as given).
        public var aircraftSource: String?
        public var icaoTypesSource: String?

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
                guard let enumerator = FileManager.default.enumerator(atPath: path) else {
                    throw LocatedError(.unreadable, file: path, message: "cannot list directory")
                }
                let base = path.hasSuffix("/") ? String(path.dropLast()) : path
                for case let relative as String in enumerator {
                    let components = relative.split(separator: "/")
                    guard !components.contains(where: { $0.hasPrefix(".") }),
                          ExportFileReader.extensions.contains((relative as NSString).pathExtension.lowercased()) else { continue }
                    let full = base + "/" + relative
                    var isDir: ObjCBool = false
                    if FileManager.default.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue { files.append((full, full)) }
                }
                files.sort { $0.0 < $1.0 }
            } else {
                files = [(path, path)]
            }
            for file in files where seen.insert(file.0).inserted { found.append(file) }
        }
        return found
    }

    public func run(paths: [String], outputDirectory: String) throws(LocatedError) -> ExportsIngestReport {
        let inputs = try Self.discover(paths)
        let resolver = SubjectResolver(aircraft: options.aircraft, icaoTypes: options.icaoTypes, birdNames: options.birdNames)
        let spool = try Spool(directory: outputDirectory, name: Self.observationsFile)
        var header = CSVWriter()
        header.write(ObservationCSV.header)
        try spool.append(header.bytes)
        var rejects = RejectsReport()
        var report = ExportsIngestReport()
        var observationStatus: [String: Int] = [:]

        for input in inputs {
            var fileReport = FileReport(file: input.name)
            if let digest = try? FileDigest.sha256(ofFileAt: input.path) { (fileReport.sha256, fileReport.bytes) = (digest.digest, digest.bytes) }
            let mark = spool.size
            // Rows and issues of this file: kept only if the whole file reads.
            var writer = CSVWriter()
            var issues: [RowIssue] = []
            var counts: [ObservationKind: Int] = [:]
            var spoolError: LocatedError?
            let statusBefore = observationStatus
            let entriesBefore = resolver.checkpoint()
            let sink = RecordSink(observe: { observation in
                var observation = observation
                resolver.resolve(&observation)
                if let status = observation.resolution?.status { observationStatus[status.rawValue, default: 0] += 1 }
                counts[observation.kind, default: 0] += 1
                writer.write(ObservationCSV.row(observation))
                if writer.bytes.count >= 1 << 20, spoolError == nil {
                    do throws(LocatedError) { try Self.flush(&writer, into: spool) } catch { spoolError = error }
                }
            }, issue: { issues.append($0) })
            do throws(LocatedError) {
                let summary = try ExportFileReader.read(path: input.path, displayName: input.name, sink: sink)
                if let spoolError { throw spoolError }
                try Self.flush(&writer, into: spool)
                fileReport.format = summary.format
                fileReport.records = summary.records
                fileReport.skipped = summary.skipped
                fileReport.observations = Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) })
                fileReport.rejected = issues.filter { $0.severity == .rejected }.count
                fileReport.warnings = issues.count - fileReport.rejected
                issues.forEach { rejects.append($0) }
            } catch {
                // The spool failing to take this file's rows ends the run; a file that cannot be read does not.
                if spoolError != nil && error.kind.isUsageOrIO { throw error }
                try spool.rollBack(to: mark)
                observationStatus = statusBefore
                resolver.restore(entriesBefore)
                fileReport.error = FileError(error)
                report.failedFiles += 1
                rejects.append(RowIssue(.rejected, file: input.name, line: error.line ?? 0, field: "(file)", value: error.kind.rawValue,
                                        reason: (error.column.map { "column \($0): " } ?? "") + error.message))
            }
            for (kind, n) in fileReport.observations { report.counts["observations." + kind, default: 0] += n }
            report.files.append(fileReport)
        }
        report.counts["files"] = inputs.count
        report.counts["observations"] = report.files.reduce(0) { $0 + $1.observations.values.reduce(0, +) }
        report.counts["rejected"] = rejects.count(.rejected)
        report.counts["warnings"] = rejects.count(.warning)

        let resolution = ResolutionReport(resolver: resolver, options: options, observations: observationStatus)
        report.outputs[Self.observationsFile] = try spool.commit(to: outputDirectory + "/" + Self.observationsFile)
        let resolutionPath = outputDirectory + "/" + Self.resolutionFile
        let resolutionBytes = try JSON.encode(resolution, for: resolutionPath)
        try AtomicFile.write(resolutionBytes, to: resolutionPath)
        report.outputs[Self.resolutionFile] = FileDigest.sha256(resolutionBytes)
        let rejectBytes = rejects.csvBytes()
        try AtomicFile.write(rejectBytes, to: outputDirectory + "/" + Self.rejectsFile)
        report.outputs[Self.rejectsFile] = FileDigest.sha256(rejectBytes)
        report.status = report.failedFiles == 0 ? "ok" : "failed"
        report.resolution = resolution.counts
        try JSON.write(report, to: outputDirectory + "/" + Self.reportFile)
        return report
    }

    static func flush(_ writer: inout CSVWriter, into spool: Spool) throws(LocatedError) {
        var failure: LocatedError?
        writer.drain { bytes in
            do throws(LocatedError) { try spool.append(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}

/// `exports-ingest.json`: what each file gave, run totals, and the SHA-256 of each output.
public struct ExportsIngestReport: Sendable, Codable {
    /// `ok`, or `failed` when any file could not be read.
    public var status = "ok"
    public var failedFiles = 0
    public var files: [FileReport] = []
    public var counts: [String: Int] = [:]
    /// Distinct subjects by resolution status.
    public var resolution: [String: Int] = [:]
    public var outputs: [String: String] = [:]
}

/// One input file in the ingest report.
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
