import Foundation
import FieldGuideDiagnostics
import FieldGuideCSV
import FieldGuideCore

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
        public init(maxRejectShare: Double = 0.02, parallelThreshold: Int = 8 << 20) {
            self.maxRejectShare = maxRejectShare
            self.parallelThreshold = parallelThreshold
        }
    }

    public let options: Options

    public init(options: Options = Options()) { self.options = options }

    /// Runs the ingest and returns its stage report (`faa-ingest.json`: the sources with their
    /// rows, the join counts, the hand-off files with their SHA-256). On success every output
    /// is replaced atomically; on failure only the rejects report and a report with status
    /// `rejected` (or `failed` for a file that cannot be read) are written, and the error is thrown.
    public func run(sources: FAASources, outputDirectory: String) throws -> StageReport {
        var rejects = RejectsReport()
        var sourceEntries: [Manifest.Source] = []
        var counts: [String: Int] = [:]
        let out = { (name: String) in outputDirectory + "/" + name }

        func fail(_ error: LocatedError) throws -> Never {
            try rejects.write(to: out(NormalizedFAA.rejectsFile))
            try Self.report(error.kind.isUsageOrIO ? .failed : .rejected, failure: error.description, sourceEntries, rejects, counts).write(to: out(NormalizedFAA.reportFile))
            throw error
        }

        do {
            // The reference files on a thread of their own while MASTER is read: its rows are
            // joined against their codes only when the parts merge. Their rejects and entries
            // come first, and so does an error of theirs, as when they were read first.
            let referenceTask = BackgroundTask { [self] in
                var read = ReferenceRead()
                do { read.joins = try readReference(sources, outputDirectory: outputDirectory, into: &read) } catch { read.error = error }
                return UncheckedSendable(value: read)
            }
            // However this block ends, the reference thread is done with the output directory.
            defer { _ = referenceTask.finished() }
            var joins: ReferenceRead.Joins?
            func awaitReference() throws -> ReferenceRead.Joins {
                if let joins { return joins }
                let read = referenceTask.finished().value
                rejects = read.rejects
                sourceEntries = read.entries
                if let error = read.error { throw error }
                joins = read.joins
                return joins!
            }

            let registrationsOut = try CSVFileSink(path: out(NormalizedFAA.registrationsFile), header: NormalizedFAA.registrationHeader)
            // Parts are normalized apart (on two threads for a large file) and merged here in
            // file order: duplicates, counts and issues come out as from a single pass.
            var merge = MasterMerge()
            for (fileIndex, part) in sources.master.enumerated() {
                let read = Result {
                    try MasterReader.read(part, parallelThreshold: options.parallelThreshold) { record in
                        try checkHeader(record, of: part.name, expected: .master)
                    }
                }
                let (models, engines, _) = try awaitReference()
                let result = try read.get()
                if merge.seen.count == 0 { merge.seen = PackedKeyTable(expectedCount: result.parts.map(\.rows.count).reduce(0, +)) }
                var rows = Manifest.Rows()
                for piece in result.parts {
                    try merge.add(piece, file: fileIndex, of: sources, models: models, engines: engines,
                                  into: registrationsOut, rejects: &rejects, rows: &rows)
                }
                guard result.parts[0].sawHeader else {
                    throw LocatedError(.wrongHeader, file: part.name, line: 1, message: "expected the \(FAAFileKind.master.fileName) header, found an empty file")
                }
                let hash = try result.sourceHash()
                sourceEntries.append(Manifest.Source(file: part.name, bytes: hash.bytes, sha256: hash.sha256, rows: rows))
            }
            counts["registrationsWithoutModel"] = merge.withoutModel
            counts["registrationsWithoutEngine"] = merge.withoutEngine
            counts["registrationsWithModeS"] = merge.withModeS

            for source in sourceEntries where source.rows.read > 0 {
                let share = Double(source.rows.rejected) / Double(source.rows.read)
                if share > options.maxRejectShare {
                    try fail(LocatedError(.tooManyRejects, file: source.file,
                                          message: "\(source.rows.rejected) of \(source.rows.read) rows rejected (\(formatPercent(share, distinctFrom: options.maxRejectShare))), more than the allowed \(formatPercent(options.maxRejectShare)); see \(NormalizedFAA.rejectsFile)"))
                }
            }

            var outputs: [StageReport.Output] = []
            for sink in try awaitReference().outputs + [registrationsOut] {
                outputs.append(try .written(out(sink.name), sha256: try sink.commit()))
            }
            try rejects.write(to: out(NormalizedFAA.rejectsFile))
            let done = Self.report(.ok, sourceEntries, rejects, counts, outputs: outputs)
            try done.write(to: out(NormalizedFAA.reportFile))
            return done
        } catch let error as LocatedError where error.kind != .unwritable {
            // A failed write of an output propagates as it is; an input error is reported too.
            if error.kind == .tooManyRejects { throw error }
            try fail(error)
        }
    }

    /// MASTER parts merged in file order: a duplicate N-number (over every file) is rejected
    /// and its row left out of the output; kept rows are counted against the joins.
    private struct MasterMerge {
        var seen = PackedKeyTable<(file: Int, line: Int)>()
        var withoutModel = 0, withoutEngine = 0, withModeS = 0

        /// Copies `piece`'s kept rows to `registrationsOut` and its issues to `rejects`,
        /// counting its rows into `rows`; a part's own failure is thrown after its rows.
        mutating func add(_ piece: MasterPart, file fileIndex: Int, of sources: FAASources, models: FAAJoinKeys, engines: FAAJoinKeys,
                          into registrationsOut: CSVFileSink, rejects: inout RejectsReport, rows: inout Manifest.Rows) throws {
            let output = piece.output.bytes
            var issues = piece.issues[...]
            let longCodes = piece.longCodes
            var copied = 0, rowStart = 0
            func flush(upTo end: Int) throws {
                if end > copied { try registrationsOut.write(encoded: output, range: copied..<end) }
            }
            for (index, row) in piece.rows.enumerated() {
                rows.read += 1
                var rowIssues: [RowIssue] = []
                while let next = issues.first, next.row == index {
                    rowIssues.append(next.issue)
                    issues.removeFirst()
                }
                if row.flags & MasterPart.Row.kept == 0 {
                    rows.rejected += 1
                    for issue in rowIssues { rejects.append(issue) }
                } else if let first = seen[row.nNumber] {
                    rows.rejected += 1
                    rejects.append(RowIssue(.rejected, file: sources.master[fileIndex].name, line: row.line, field: "N-NUMBER",
                                            value: MasterPart.nNumber(row.nNumber),
                                            reason: "duplicate N-number; first at \(sources.master[first.file].name):\(first.line)"))
                    try flush(upTo: rowStart)
                    copied = row.end
                } else {
                    seen[row.nNumber] = (fileIndex, row.line)
                    let orphans = MasterPart.orphans(row, long: longCodes.isEmpty ? nil : longCodes[index],
                                                     models: models, engines: engines)
                    if orphans.withoutModel { withoutModel += 1 }
                    if orphans.withoutEngine { withoutEngine += 1 }
                    if row.flags & MasterPart.Row.hasModeS != 0 { withModeS += 1 }
                    rows.kept += 1
                    rows.warnings += rowIssues.count
                    for warning in rowIssues { rejects.append(warning) }
                }
                rowStart = row.end
            }
            try flush(upTo: rowStart)
            if let failure = piece.failure { throw failure }
        }
    }

    /// The stage report: the sources read so far, finding counts from the rejects, the join counts.
    private static func report(_ status: StageReport.Status, failure: String? = nil, _ sources: [Manifest.Source], _ rejects: RejectsReport,
                               _ counts: [String: Int], outputs: [StageReport.Output] = []) -> StageReport {
        StageReport(stage: NormalizedFAA.producer, status: status, failure: failure, sources: sources, outputs: outputs,
                    findings: .init(errors: rejects.count(.rejected), warnings: rejects.count(.warning)), counts: counts)
    }

    /// What the reference thread read: the files' rejects and entries (complete up to an
    /// error), and the join keys and outputs, or the error.
    private struct ReferenceRead {
        typealias Joins = (models: FAAJoinKeys, engines: FAAJoinKeys, outputs: [CSVFileSink])
        var rejects = RejectsReport()
        var entries: [Manifest.Source] = []
        var joins: Joins?
        var error: (any Error)?
    }

    /// Reads ACFTREF and ENGINE into `models.csv` and `engines.csv` (not yet committed); returns
    /// their codes as join keys and the two outputs.
    private func readReference(_ sources: FAASources, outputDirectory: String,
                               into read: inout ReferenceRead) throws -> ReferenceRead.Joins {
        let out = { (name: String) in outputDirectory + "/" + name }
        let modelsOut = try CSVFileSink(path: out(NormalizedFAA.modelsFile), header: NormalizedFAA.modelHeader)
        var modelCodes: [String: Int] = [:]
        let modelRows = try readFile(sources.aircraftReference, kind: .aircraftReference, rejects: &read.rejects) { record, file in
            // Byte-level fast path for rows kept without a warning; the general path words the rest.
            if let code = ModelFastPath.code(record) {
                if let duplicate = Self.claim(code, line: record.line, file: file, in: &modelCodes) { return duplicate }
                try modelsOut.write { ModelFastPath.write(record, into: &$0) }
                return .kept([])
            }
            switch FAANormalizer.model(record, file: file) {
            case let .kept(model, warnings):
                if let duplicate = Self.claim(model.code, line: record.line, file: file, in: &modelCodes) { return duplicate }
                try modelsOut.write(NormalizedFAA.fields(model))
                return .kept(warnings)
            case let .rejected(issues): return .rejected(issues)
            }
        }
        read.entries.append(modelRows)

        let enginesOut = try CSVFileSink(path: out(NormalizedFAA.enginesFile), header: NormalizedFAA.engineHeader)
        var engineCodes: [String: Int] = [:]
        let engineRows = try readFile(sources.engine, kind: .engine, rejects: &read.rejects) { record, file in
            switch FAANormalizer.engine(record, file: file) {
            case let .kept(engine, warnings):
                if let duplicate = Self.claim(engine.code, line: record.line, file: file, in: &engineCodes) { return duplicate }
                try enginesOut.write(NormalizedFAA.fields(engine))
                return .kept(warnings)
            case let .rejected(issues): return .rejected(issues)
            }
        }
        read.entries.append(engineRows)

        return (FAAJoinKeys(modelCodes.keys), FAAJoinKeys(engineCodes.keys), [modelsOut, enginesOut])
    }

    /// Takes `code` for the row at `line`, or rejects the row when an earlier one has it.
    private static func claim(_ code: String, line: Int, file: String, in codes: inout [String: Int]) -> RowOutcome? {
        if let first = codes[code] {
            return .rejected([RowIssue(.rejected, file: file, line: line, field: "CODE", value: code,
                                       reason: "duplicate code; first at line \(first)")])
        }
        codes[code] = line
        return nil
    }

    enum RowOutcome { case kept([RowIssue]), rejected([RowIssue]) }

    /// Streams one file: checks its header, hands each data row to `handle`, counts outcomes.
    ///
    /// Reading, hashing and CSV parsing run on a second thread (`CSVPipeline`); `handle` runs
    /// on this one, in file order.
    private func readFile(_ source: FAASourceFile, kind: FAAFileKind, rejects: inout RejectsReport,
                          _ handle: (CSVRecord, String) throws -> RowOutcome) throws -> Manifest.Source {
        let hash = DigestBox()
        var rows = Manifest.Rows()
        var sawHeader = false
        try CSVPipeline.run(dialect: .fixedWidth, file: source.name, produce: hash.hashing { try source.stream($0) }) { record in
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
                for w in warnings { rejects.append(w) }
            case let .rejected(issues):
                rows.rejected += 1
                for issue in issues { rejects.append(issue) }
            }
        }
        guard sawHeader else {
            throw LocatedError(.wrongHeader, file: source.name, line: 1, message: "expected the \(kind.fileName) header, found an empty file")
        }
        return Manifest.Source(file: source.name, bytes: hash.bytes, sha256: hash.digest, rows: rows)
    }

    private func checkHeader(_ record: CSVRecord, of file: String, expected: FAAFileKind) throws {
        let names = record.fields
        if let found = FAALayout.kind(ofHeader: names) {
            guard found == expected else {
                throw LocatedError(.wrongHeader, file: file, line: 1,
                                   message: "expected the \(expected.fileName) header, found the header of \(found.fileName)")
            }
            return
        }
        let columns = FAALayout.columns(expected)
        let trimmed = names.map { $0.trimmingSpaces() }
        for (i, column) in columns.enumerated() {
            let found = i < trimmed.count ? trimmed[i] : "end of line"
            if found != column.name {
                throw LocatedError(.wrongHeader, file: file, line: 1,
                                   message: "expected column \(i + 1) of \(expected.fileName) to be \"\(column.name)\", found \"\(found)\"")
            }
        }
        throw LocatedError(.wrongHeader, file: file, line: 1,
                           message: "expected \(columns.count) columns and a trailing comma, found \(names.count) fields")
    }
}

/// The source digest, handed from the parsing thread once it has read the whole file.
final class DigestBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value = ("", 0)
    func set(digest: String, bytes: Int) { lock.lock(); value = (digest, bytes); lock.unlock() }
    var digest: String { lock.lock(); defer { lock.unlock() }; return value.0 }
    var bytes: Int { lock.lock(); defer { lock.unlock() }; return value.1 }

    /// A `CSVPipeline` producer: `stream` reads the file's chunks, which are hashed on their
    /// way to the parser; the digest lands here once the file is read.
    ///
    /// ```swift
    /// try CSVPipeline.run(dialect: .fixedWidth, file: name, produce: hash.hashing { try source.stream($0) }) { … }
    /// ```
    func hashing(_ stream: @escaping @Sendable (_ chunk: (UnsafeRawBufferPointer) throws -> Void) throws -> Void)
        -> @Sendable (_ feed: (UnsafeRawBufferPointer) throws -> Void) throws -> Void {
        { feed in
            var digest = StreamingDigest()
            try stream { chunk in
                digest.update(chunk)
                try feed(chunk)
            }
            self.set(digest: digest.finalize(), bytes: digest.bytes)
        }
    }
}
