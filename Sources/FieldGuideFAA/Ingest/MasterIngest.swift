import FieldGuideDiagnostics
import FieldGuideCSV
import FieldGuideCore
import FieldGuideWorkers

/// The join keys MASTER rows are counted against: ACFTREF and ENGINE codes, each with the line
/// of the row that claimed it first (the reference files' duplicate check). RESERVED's
/// duplicate check keeps its N-numbers' first lines in one too (`readStatusFiles`).
///
/// Why not `[String: Int]` for the duplicate check and a set made from its keys: each ACFTREF
/// row's code was hashed twice with the standard library's seeded hasher and packed once more
/// for the joins, about 1,400 instructions a row (callgrind, `ingest-faa`); a code of at most 8
/// bytes, as all the FAA's are, is packed once and kept in a `PackedKeyTable`.
struct FAAJoinKeys: Sendable {
    private var short: PackedKeyTable<Int>
    private var long: [String: Int] = [:]

    /// No codes yet; `expectedCount` sizes the table (it grows past it).
    init(expectedCount: Int = 16) {
        short = PackedKeyTable(expectedCount: expectedCount)
    }

    /// Takes `code` for the row at `line`, or returns the line of the row that took it first
    /// (and keeps that one).
    mutating func claim(_ code: String, line: Int) -> Int? {
        if code.utf8.count <= 8 {
            let key = Self.pack(code)
            if let first = short[key] { return first }
            short[key] = line
        } else {
            if let first = long[code] { return first }
            long[code] = line
        }
        return nil
    }

    func contains(_ code: String) -> Bool {
        code.utf8.count <= 8 ? contains(packed: Self.pack(code)) : long[code] != nil
    }

    /// A code of at most 8 bytes, packed as `MasterFastPath` packs it.
    func contains(packed code: UInt64) -> Bool { short[code] != nil }

    /// Big-endian packing of up to 8 bytes, zero filled (FAA codes hold no NUL: the reader refuses it).
    static func pack(_ text: String) -> UInt64 {
        var key: UInt64 = 0
        var count = 0
        for byte in text.utf8.prefix(8) { key = key << 8 | UInt64(byte); count += 1 }
        return count == 0 ? 0 : key << (8 * UInt64(8 - count))
    }
}

/// One MASTER file (or one part of it) normalized, but not yet checked across rows: every data
/// row in file order with what the merge needs, the CSV bytes of the rows it kept, their issues
/// (rejects report rows, spooled past 1 MiB: `RejectSpool`), and the error that stopped it, if any.
///
/// Duplicate N-numbers, the joins, the counts and the rejects report are settled by
/// `MasterMerge` when it merges the parts in file order, exactly as if the file had been read
/// in one pass.
final class MasterPart: @unchecked Sendable {
    struct Row {
        static let kept: UInt8 = 1, hasModeS: UInt8 = 8

        /// The packed N-number of a kept row (`N` and at most 5 characters fit).
        var nNumber: UInt64
        var line: Int
        /// One past the row's last byte in `output` (it starts where the previous row ended).
        var end: Int
        var flags: UInt8
        /// The join keys of a kept row, packed (`FAAJoinKeys.pack`; 0 for a blank engine code),
        /// or `longCodes` holds them: the reference files may still be being read, so the joins
        /// are settled at the merge.
        var modelCode: UInt64 = 0
        var engineCode: UInt64 = 0
    }

    /// Where one issue's report row ends in `issues`, the row (index into `rows`) it belongs to,
    /// and its kind: 16 bytes where a `RowIssue` took hundreds.
    struct IssueEnd {
        static let rejected = 1, latin1 = 2
        var row: Int
        /// The end, shifted left 2, with `rejected` and `latin1` in the low bits.
        private var packed: Int

        init(row: Int, end: Int, issue: RowIssue) {
            self.row = row
            packed = end << 2 | (issue.severity == .rejected ? Self.rejected : 0) | (issue.reason == FileText.latin1Reason ? Self.latin1 : 0)
        }

        var end: Int { packed >> 2 }

        /// Adds the issue to `counts`.
        func count(into counts: inout RejectSpool.Counts) {
            if packed & Self.rejected != 0 { counts.rejected += 1 } else { counts.warnings += 1 }
            if packed & Self.latin1 != 0 { counts.latin1 += 1 }
        }
    }

    let file: String
    private(set) var output = CSVWriter()
    private(set) var rows: [Row] = []
    /// Warnings of kept rows and the issues of rejected ones, as report rows in row order (no
    /// header); `issueEnds` says whose each is.
    let issues: RejectSpool
    private(set) var issueEnds: [IssueEnd] = []
    /// The codes of kept rows whose model or engine code is too long to pack, by index into `rows`.
    private(set) var longCodes: [Int: (model: String, engine: String)] = [:]
    var sawHeader = false
    /// What stopped the part early (the rows before it are complete).
    var failure: Error?

    /// A part of `file` whose issues, past 1 MiB, spool to a scratch file in `scratch` (its
    /// errors naming `name`, the report the issues are for).
    /// `expectedBytes` is room for the normalized rows: past it, the output copies itself whole.
    init(file: String, scratch: String, name: String, expectedRows: Int = 0, expectedBytes: Int = 0) {
        self.file = file
        issues = RejectSpool(directory: scratch, name: name, header: false)
        rows.reserveCapacity(expectedRows)
        output.reserveCapacity(expectedBytes)
    }

    /// Records an issue of the row about to be appended.
    private func add(_ issue: RowIssue) throws(LocatedError) {
        try issues.append(issue)
        issueEnds.append(IssueEnd(row: rows.count, end: issues.size, issue: issue))
    }

    /// The normalized rows' bytes, handed over (the merge's: nothing is added to a part after).
    func takeOutput() -> [UInt8] { output.takeBytes() }

    /// Normalizes one data record: the byte-level fast path when it applies, else the general one.
    func add(_ record: CSVRecord) throws(LocatedError) {
        if let row = MasterFastPath.normalize(record, into: &output) {
            rows.append(Row(nNumber: row.nNumber, line: record.line, end: output.count,
                            flags: Row.kept | (row.hasModeS ? Row.hasModeS : 0),
                            modelCode: row.modelCode, engineCode: row.engineCodeIsEmpty ? 0 : row.engineCode))
            return
        }
        switch FAANormalizer.registration(record, file: file) {
        case let .kept(registration, warnings):
            output.write(NormalizedFAA.fields(registration))
            for warning in warnings { try add(warning) }
            let model = registration.modelCode, engine = registration.engineCode
            if model.utf8.count > 8 || engine.utf8.count > 8 { longCodes[rows.count] = (model, engine) }
            rows.append(Row(nNumber: FAAJoinKeys.pack(registration.nNumber), line: record.line, end: output.count,
                            flags: Row.kept | (registration.modeS != nil ? Row.hasModeS : 0),
                            modelCode: FAAJoinKeys.pack(model), engineCode: FAAJoinKeys.pack(engine)))
        case let .rejected(rowIssues):
            for issue in rowIssues { try add(issue) }
            rows.append(Row(nNumber: 0, line: record.line, end: output.count, flags: 0))
        }
    }
}

/// Reads a MASTER file into `MasterPart`s, and its SHA-256.
///
/// A plain file of at least `parallelThreshold` bytes is read in two halves on two threads
/// (`SplitFile.readHalves`: a libcsv parser and a part each, the file hashed meanwhile, the
/// last stretch of the hash still running while the caller merges the parts). MASTER is
/// unquoted, so a line feed always ends a record and the second parser can start at the cut.
/// Anything else (a ZIP entry, a small file) is read in one pass through `CSVPipeline`.
enum MasterReader {
    struct Result {
        var parts: [MasterPart]
        fileprivate var hash: Hash

        /// The file's SHA-256 and size; waits for the hash's last stretch when it is still running.
        func sourceHash() throws -> (sha256: String, bytes: Int) {
            switch hash {
            case let .done(sha256, bytes): return (sha256, bytes)
            case let .running(task):
                let digest = try task.value()
                return (digest.finalize(), digest.bytes)
            case .unread: throw parts.lazy.compactMap(\.failure).first!  // a read stops early only on a failure
            }
        }
    }

    fileprivate enum Hash {
        case done(sha256: String, bytes: Int)
        case running(BackgroundTask<StreamingDigest>)
        /// The read stopped early: the part's failure, which stops the merge before the hash is asked for.
        case unread
    }

    /// Reads `source`; its parts spool their issues past 1 MiB into `scratch`.
    static func read(_ source: FAASourceFile, parallelThreshold: Int, scratch: String,
                     checkHeader: @escaping @Sendable (CSVRecord) throws -> Void) throws -> Result {
        if case let .file(path) = source.location, let file = try SplitFile(path: path, name: source.name, minimumSize: parallelThreshold) {
            return try readHalves(file, scratch: scratch, checkHeader: checkHeader)
        }
        let part = MasterPart(file: source.name, scratch: scratch, name: NormalizedFAA.rejectsFile)
        var hash = Hash.unread
        do {
            let digest = try CSVPipeline.run(dialect: .fixedWidth, file: source.name, produce: hashing { try source.stream($0) }) { record in
                if record.index == 0 {
                    try checkHeader(record)
                    part.sawHeader = true
                } else {
                    try part.add(record)
                }
            }
            hash = .done(sha256: digest.sha256, bytes: digest.bytes)
        } catch {
            part.failure = error
        }
        return Result(parts: [part], hash: hash)
    }

    private static func readHalves(_ file: SplitFile, scratch: String, checkHeader: @escaping @Sendable (CSVRecord) throws -> Void) throws -> Result {
        // MASTER lines are about 600 bytes: reserve for a little more rows than that makes. A
        // normalized row is about a third of its line (the padding goes), so a half's input
        // bytes are room for its output; room never written is no memory.
        let expectedRows = file.size / 1_000
        var read = file.readHalves(dialect: .fixedWidth, hashing: StreamingDigest()) { half in
            let part = MasterPart(file: file.name, scratch: scratch, name: NormalizedFAA.rejectsFile,
                                  expectedRows: expectedRows, expectedBytes: file.size / 2 + (1 << 20))
            do {
                // A closure per half: only the first holds the header, and the second's records
                // go straight to `add` (no test per record).
                if half.isFirst {
                    try half.parse { record in
                        if record.index == 0 {
                            try checkHeader(record)
                            part.sawHeader = true
                        } else {
                            try part.add(record)
                        }
                    }
                } else {
                    try half.parse { try part.add($0) }
                }
            } catch {
                part.failure = error  // the rows before it are complete
            }
            return part
        }
        // A first half that failed started no hash: its error stops the merge before the hash is asked for.
        return Result(parts: try read.takeOutputs(), hash: read.digest.map { .running($0) } ?? .unread)
    }
}
