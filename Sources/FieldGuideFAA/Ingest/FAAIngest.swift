import FieldGuideDiagnostics
import FieldGuideCSV
import FieldGuideCore
import FieldGuideWorkers
import Foundation

/// Reads ACFTREF, ENGINE and MASTER, normalizes and validates every row, joins MASTER to the
/// two reference files, and writes the normalized hand-off plus a rejects report.
///
/// Streaming: MASTER rows go straight to the output; memory holds the reference files' keys.
///
/// ```swift
/// let ingest = FAAIngest(options: .init(maxRejectShare: 0.02))
/// let report = try ingest.run(sources: try FAASources.locate("input/faa"), outputDirectory: "output/stage/faa")
/// ```
public struct FAAIngest: Sendable {
    public struct Options: Sendable {
        /// The stage fails when a file rejects more than this share of its rows (0…1).
        public var maxRejectShare: Double
        /// A MASTER file of at least this many bytes is read in two halves on two threads
        /// (plain files only; ZIP entries stream in one pass).
        public var parallelThreshold: Int
        /// The most bytes of kept MASTER rows the merge hands to the writing and hashing
        /// threads at once: they write and hash a stretch while the merge decides the rows
        /// after it. Any size gives the same outputs.
        public var mergeStretch: Int
        public init(maxRejectShare: Double = 0.02, parallelThreshold: Int = 8 << 20, mergeStretch: Int = 4 << 20) {
            self.maxRejectShare = maxRejectShare
            self.parallelThreshold = parallelThreshold
            self.mergeStretch = mergeStretch
        }
    }

    public let options: Options

    public init(options: Options = Options()) { self.options = options }

    /// Runs the ingest and returns its stage report (`faa-ingest.json`: the sources with their
    /// rows, the join counts, the hand-off files with their SHA-256). On success every output
    /// is replaced atomically; on failure only the rejects report and a report with status
    /// `rejected` (or `failed` for a file that cannot be read) are written, and the error is thrown.
    ///
    /// Read, merge, commit: each MASTER file is read (in parts, on two threads when large)
    /// while the reference files are read on a thread of their own; its parts are merged in
    /// file order (`MasterMerge` settles every row's fate); once every file is in and no file
    /// rejected too many rows, the outputs are committed.
    public func run(sources: FAASources, outputDirectory: String) throws -> StageReport {
        try AtomicFile.prepareDirectory(outputDirectory)
        var log = Log(directory: outputDirectory)
        do {
            // The reference files on a thread of their own while MASTER is read: its rows are
            // joined against their codes only when the parts merge.
            let referenceTask = BackgroundTask { [self] in
                UncheckedSendable(value: readReference(sources, outputDirectory: outputDirectory))
            }
            // DEREG and RESERVED (optional) on a thread of their own too (`FAAIngest+Status`).
            let statusTask = BackgroundTask { [self] in
                UncheckedSendable(value: readStatusFiles(sources, outputDirectory: outputDirectory))
            }
            // However this block ends, the reference thread is done with the output directory.
            defer { _ = referenceTask.finished() }
            defer { _ = statusTask.finished() }
            var reference: ReferenceRead.Output?
            /// The reference files' rejects and entries come first, and so does an error of
            /// theirs, as when they were read first.
            func awaitReference() throws -> ReferenceRead.Output {
                if reference == nil { reference = try log.start(with: referenceTask.finished().value) }
                return reference!
            }

            // Reference data alone (no MASTER): no registrations.csv, and none left from an earlier run.
            if sources.master.isEmpty {
                let reference = try awaitReference()
                let status = try log.add(statusTask.finished().value)
                try checkRejectShares(log.sources)
                log.stale.append(NormalizedFAA.registrationsFile)
                return try commit(reference.outputs + status, log: log, to: outputDirectory)
            }
            let registrations = try CSVFileSink(path: outputDirectory + "/" + NormalizedFAA.registrationsFile, header: NormalizedFAA.registrationHeader)
            var merge = MasterMerge(files: sources.master.map(\.name), stretchSize: options.mergeStretch)
            for (index, source) in sources.master.enumerated() {
                // Read the file's parts (the reference files may still be being read)…
                let read = Result {
                    try MasterReader.read(source, parallelThreshold: options.parallelThreshold, scratch: outputDirectory) { record in
                        try checkHeader(record, of: source.name, expected: .master)
                    }
                }
                // …then merge them in file order against the reference files' codes.
                let joins = try awaitReference().joins
                let result = try read.get()
                let rows = try merge.merge(result.parts, file: index, joins: joins, into: registrations, rejects: log.rejects)
                guard result.parts[0].sawHeader else {
                    throw LocatedError(.wrongHeader, file: source.name, line: 1, message: "expected the \(FAAFileKind.master.fileName) header, found an empty file")
                }
                let hash = try result.sourceHash()
                log.sources.append(StageReport.Source(file: source.name, bytes: hash.bytes, sha256: hash.sha256, rows: rows))
            }
            // A MASTER with a header and no row (a broken download or extraction) would build an
            // empty registry over a good one, with exit 0.
            if log.sources.suffix(sources.master.count).allSatisfy({ $0.rows.read == 0 }) {
                let names = sources.master.map(\.name)
                throw LocatedError(.empty, file: names[0], line: 2, expected: "registrations after the header",
                                   found: names.count == 1 ? "none" : "none in \(names.joined(separator: ", "))",
                                   message: "MASTER holds no registration: the registry would be empty")
            }
            log.counts = merge.counts
            let status = try log.add(statusTask.finished().value)
            try checkRejectShares(log.sources)
            // Every file is in and none rejected too much: commit.
            return try commit(try awaitReference().outputs + [registrations] + status, log: log, to: outputDirectory)
        } catch let error as LocatedError where error.kind != .unwritable {
            // A failed write of an output propagates as it is; an input error is reported too.
            try fail(error, log: log, outputDirectory: outputDirectory)
        }
    }

    /// Removes a file an earlier run left that this run's report does not list.
    static func removeStale(_ path: String) throws(LocatedError) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        do { try FileManager.default.removeItem(atPath: path) } catch { throw LocatedError(path, failed: error, .unwritable, doing: "cannot remove the stale file") }
    }

    /// What a run found so far: what a failed run reports too.
    struct Log {
        /// The rejects report: the reference files' rows first, then MASTER's, then the status files'.
        let rejects: RejectSpool
        var sources: [StageReport.Source] = []
        var counts: [String: Int] = [:]
        /// Hand-off files an earlier run left that this run does not write (a source the
        /// download lacks): removed once the run's outputs are committed.
        var stale: [String] = []

        init(directory: String) { rejects = RejectSpool(directory: directory, name: NormalizedFAA.rejectsFile) }

        /// Starts with the reference files' rejects and entries; returns their joins, or
        /// throws their error.
        /// The stage report: the sources read so far, finding counts from the rejects, the join counts.
        /// `fieldsReadAsLatin1` counts the fields that were not UTF-8 (each a warning in the rejects report).
        func report(_ status: StageReport.Status, failure: String? = nil, outputs: [StageReport.Output] = []) -> StageReport {
            var counts = counts
            let found = rejects.counts
            if found.latin1 > 0 { counts[NormalizedFAA.latin1Count] = found.latin1 }
            return StageReport(stage: NormalizedFAA.producer, status: status, failure: failure, sources: sources, outputs: outputs,
                               findings: .init(errors: found.rejected, warnings: found.warnings), counts: counts)
        }

        fileprivate mutating func start(with read: ReferenceRead) throws -> ReferenceRead.Output {
            try rejects.append(contentsOf: read.rejects)
            sources = read.entries
            if let error = read.error { throw error }
            return read.output!
        }
    }

    /// Fails the stage when a file rejected more than the allowed share of its rows.
    private func checkRejectShares(_ sources: [StageReport.Source]) throws {
        for source in sources where source.rows.read > 0 {
            let share = Double(source.rows.rejected) / Double(source.rows.read)
            if share > options.maxRejectShare {
                throw LocatedError(.tooManyRejects, file: source.file,
                               message: "\(source.rows.rejected) of \(source.rows.read) rows rejected (\(formatPercent(share, distinctFrom: options.maxRejectShare))), more than the allowed \(formatPercent(options.maxRejectShare)); see \(NormalizedFAA.rejectsFile)")
            }
        }
    }

    /// Commits the outputs, the rejects report and the report together (`OutputSet`: all on
    /// disk before any is renamed into place), then removes the stale outputs.
    private func commit(_ sinks: [CSVFileSink], log: Log, to outputDirectory: String) throws -> StageReport {
        let outputs = OutputSet()
        var written: [StageReport.Output] = []
        for sink in sinks {
            let (sha256, file) = try sink.prepare()
            try outputs.add(file)
            written.append(StageReport.Output(file: sink.name, bytes: file.size, sha256: sha256))
        }
        try outputs.add(try log.rejects.prepare(outputDirectory + "/" + NormalizedFAA.rejectsFile).writer)
        let report = log.report(.ok, outputs: written)
        try outputs.write(try report.encoded(), to: outputDirectory + "/" + NormalizedFAA.reportFile)
        try outputs.commit()
        for name in log.stale { try Self.removeStale(outputDirectory + "/" + name) }
        return report
    }

    /// Writes the rejects report and a `rejected` report (`failed` for a file that cannot be
    /// read), then throws `error`.
    private func fail(_ error: LocatedError, log: Log, outputDirectory: String) throws -> Never {
        let outputs = OutputSet()   // the two reports go into place together, as a good run's outputs do
        try outputs.add(try log.rejects.prepare(outputDirectory + "/" + NormalizedFAA.rejectsFile).writer)
        try outputs.write(try log.report(error.kind.isUsageOrIO ? .failed : .rejected, failure: error.description).encoded(),
                          to: outputDirectory + "/" + NormalizedFAA.reportFile)
        try outputs.commit()
        throw error
    }

    /// What the reference thread read: the files' rejects and entries (complete up to an
    /// error), and the join keys and outputs, or the error.
    fileprivate struct ReferenceRead {
        typealias Output = (joins: MasterMerge.Joins, outputs: [CSVFileSink])
        var rejects: RejectSpool
        var entries: [StageReport.Source] = []
        var output: Output?
        var error: (any Error)?
    }

    /// Reads ACFTREF and ENGINE (`readReference(_:outputDirectory:into:)`), on the reference thread.
    private func readReference(_ sources: FAASources, outputDirectory: String) -> ReferenceRead {
        var read = ReferenceRead(rejects: RejectSpool(directory: outputDirectory, name: NormalizedFAA.rejectsFile, header: false))
        do { read.output = try readReference(sources, outputDirectory: outputDirectory, into: &read) } catch { read.error = error }
        return read
    }

    /// Reads ACFTREF and ENGINE into `models.csv` and `engines.csv` (not yet committed); returns
    /// their codes as join keys and the two outputs.
    private func readReference(_ sources: FAASources, outputDirectory: String,
                               into read: inout ReferenceRead) throws -> ReferenceRead.Output {
        let out = { (name: String) in outputDirectory + "/" + name }
        let modelsOut = try CSVFileSink(path: out(NormalizedFAA.modelsFile), header: NormalizedFAA.modelHeader)
        var modelCodes = FAAJoinKeys(expectedCount: 1 << 17)  // ACFTREF holds about 94,000 models
        let modelRows = try readFile(sources.aircraftReference, kind: .aircraftReference, rejects: read.rejects) { record, file in
            // Byte-level fast path for rows kept without a warning; the general path words the rest.
            if let code = ModelFastPath.code(record) {
                if let duplicate = Self.claim(code, line: record.line, file: file, in: &modelCodes) { return duplicate }
                try modelsOut.write { ModelFastPath.write(record, into: &$0) }
                return .kept([])
            }
            return try Self.keepFirst(FAANormalizer.model(record, file: file), code: \.code, line: record.line, file: file, codes: &modelCodes) {
                try modelsOut.write(NormalizedFAA.fields($0))
            }
        }
        read.entries.append(modelRows)

        let enginesOut = try CSVFileSink(path: out(NormalizedFAA.enginesFile), header: NormalizedFAA.engineHeader)
        var engineCodes = FAAJoinKeys(expectedCount: 1 << 13)  // and ENGINE about 4,800 engines
        let engineRows = try readFile(sources.engine, kind: .engine, rejects: read.rejects) { record, file in
            try Self.keepFirst(FAANormalizer.engine(record, file: file), code: \.code, line: record.line, file: file, codes: &engineCodes) {
                try enginesOut.write(NormalizedFAA.fields($0))
            }
        }
        read.entries.append(engineRows)

        return (MasterMerge.Joins(models: modelCodes, engines: engineCodes), [modelsOut, enginesOut])
    }

    /// A normalized reference row's fate: rejected as the normalizer found it, rejected when an
    /// earlier row has its code, else written (`write`) and kept with its warnings.
    private static func keepFirst<Record>(_ outcome: FAANormalizer.Outcome<Record>, code: (Record) -> String, line: Int, file: String,
                                          codes: inout FAAJoinKeys, write: (Record) throws -> Void) rethrows -> RowOutcome {
        switch outcome {
        case let .kept(value, warnings):
            if let duplicate = claim(code(value), line: line, file: file, in: &codes) { return duplicate }
            try write(value)
            return .kept(warnings)
        case let .rejected(issues): return .rejected(issues)
        }
    }

    /// Takes `code` for the row at `line`, or rejects the row when an earlier one has it.
    private static func claim(_ code: String, line: Int, file: String, in codes: inout FAAJoinKeys) -> RowOutcome? {
        guard let first = codes.claim(code, line: line) else { return nil }
        return .rejected([RowIssue(.rejected, file: file, line: line, field: "CODE", value: code,
                                   reason: "duplicate code; first at line \(first)")])
    }

    enum RowOutcome { case kept([RowIssue]), rejected([RowIssue]) }

    /// Streams one file: checks its header, hands each data row to `handle`, counts outcomes.
    ///
    /// Reading, hashing and CSV parsing run on a second thread (`CSVPipeline`); `handle` runs
    /// on this one, in file order.
    func readFile(_ source: FAASourceFile, kind: FAAFileKind, rejects: RejectSpool,
                          _ handle: (CSVRecord, String) throws -> RowOutcome) throws -> StageReport.Source {
        var rows = StageReport.Rows()
        var sawHeader = false
        let hash = try CSVPipeline.run(dialect: .fixedWidth, file: source.name, produce: hashing { try source.stream($0) }) { record in
            if record.index == 0 {
                try checkHeader(record, of: source.name, expected: kind)
                sawHeader = true
                return
            }
            rows.read += 1
            switch try handle(record, source.name) {
            case let .kept(warnings):
                rows.kept += 1
                rows.warnings += warnings.count
                for w in warnings { try rejects.append(w) }
            case let .rejected(issues):
                rows.rejected += 1
                for issue in issues { try rejects.append(issue) }
            }
        }
        guard sawHeader else {
            throw LocatedError(.wrongHeader, file: source.name, line: 1, message: "expected the \(kind.fileName) header, found an empty file")
        }
        return StageReport.Source(file: source.name, bytes: hash.bytes, sha256: hash.sha256, rows: rows)
    }

    func checkHeader(_ record: CSVRecord, of file: String, expected: FAAFileKind) throws {
        let names = record.fields
        if let found = FAALayout.kind(ofHeader: names) {
            guard found == expected else {
                throw LocatedError(.wrongHeader, file: file, line: 1, message: "expected the \(expected.fileName) header, found the header of \(found.fileName)")
            }
            return
        }
        let columns = FAALayout.columns(expected)
        let trimmed = names.map { $0.trimmingSpaces() }
        for (i, column) in columns.enumerated() {
            let found = i < trimmed.count ? trimmed[i] : "end of line"
            if found != column.name {
                throw LocatedError(.wrongHeader, file: file, line: 1, message: "expected column \(i + 1) of \(expected.fileName) to be \"\(column.name)\", found \"\(found)\"")
            }
        }
        throw LocatedError(.wrongHeader, file: file, line: 1, message: "expected \(columns.count) columns and a trailing comma, found \(names.count) fields")
    }
}

/// A `CSVPipeline` producer: the chunks `stream` reads are hashed on their way to the parser,
/// and their SHA-256 and size returned once the file is read.
///
/// ```swift
/// let hash = try CSVPipeline.run(dialect: .fixedWidth, file: name, produce: hashing { try source.stream($0) }) { … }
/// ```
func hashing(_ stream: @escaping @Sendable (_ chunk: (UnsafeRawBufferPointer) throws -> Void) throws -> Void)
    -> @Sendable (_ feed: (UnsafeRawBufferPointer) throws -> Void) throws -> (sha256: String, bytes: Int) {
    { feed in
        var digest = StreamingDigest()
        try stream { chunk in
            digest.update(chunk)
            try feed(chunk)
        }
        return (digest.finalize(), digest.bytes)
    }
}
