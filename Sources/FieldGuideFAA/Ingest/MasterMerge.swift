import FieldGuideCore

/// Decides what becomes of every MASTER row, in file order across files and parts: the one
/// place a row's fate is settled.
///
/// A part (`MasterPart`) holds each row as normalized on its thread: the CSV bytes of a row
/// the normalizer kept (by the fast path or the general one, alike), or the issues that
/// rejected it. `fate(of:long:file:joins:)` then decides, exactly as one pass over the files
/// would: a row the normalizer rejected stays rejected, with its issues; a kept row whose
/// N-number came before is a duplicate, rejected and its bytes dropped; any other is kept,
/// with its warnings, and counted against the join keys (orphans) and for its Mode S code.
///
/// ```swift
/// var merge = MasterMerge(files: sources.master.map(\.name))
/// let rows = try merge.merge(read.parts, file: 0, joins: joins, into: sink, rejects: &rejects)
/// merge.counts    // registrationsWithoutModel, registrationsWithoutEngine, registrationsWithModeS
/// ```
struct MasterMerge {
    /// What becomes of a row.
    enum Fate {
        case kept
        /// Rejected by the normalizer: its issues say why.
        case rejected
        /// Kept by the normalizer, but its N-number was first at `first` (a file index and line).
        case duplicate(first: (file: Int, line: Int))
    }

    /// The join keys rows are counted against: ACFTREF and ENGINE codes.
    struct Joins {
        var models: FAAJoinKeys
        var engines: FAAJoinKeys
    }

    /// The MASTER files' names, by index (for duplicate messages).
    private let files: [String]
    /// The kept N-numbers so far, with where each was first.
    private var seen = PackedKeyTable<(file: Int, line: Int)>()
    private var withoutModel = 0, withoutEngine = 0, withModeS = 0

    init(files: [String]) { self.files = files }

    /// The join and Mode S counts of the rows kept so far.
    var counts: [String: Int] {
        ["registrationsWithoutModel": withoutModel, "registrationsWithoutEngine": withoutEngine, "registrationsWithModeS": withModeS]
    }

    /// Merges the parts of the file at index `file`, in order: the kept rows' bytes go to
    /// `sink`, every row's issues to `rejects`. Returns the file's row counts; throws a part's
    /// failure once the rows before it are merged.
    mutating func merge(_ parts: [MasterPart], file: Int, joins: Joins, into sink: CSVFileSink,
                        rejects: inout RejectsReport) throws -> StageReport.Rows {
        if seen.count == 0 { seen = PackedKeyTable(expectedCount: parts.map(\.rows.count).reduce(0, +)) }
        var rows = StageReport.Rows()
        for part in parts {
            try merge(part, file: file, joins: joins, into: sink, rows: &rows, rejects: &rejects)
            if let failure = part.failure { throw failure }
        }
        return rows
    }

    private mutating func merge(_ part: MasterPart, file: Int, joins: Joins, into sink: CSVFileSink,
                                rows: inout StageReport.Rows, rejects: inout RejectsReport) throws {
        let output = part.takeOutput()
        let issues = part.issues, longCodes = part.longCodes
        // The part's bytes go out in stretches of kept rows: a duplicate's are skipped.
        var copied = 0, rowStart = 0
        // The row's issues are `issues[firstIssue..<nextIssue]` (they are in row order).
        var nextIssue = 0
        for (index, row) in part.rows.enumerated() {
            rows.read += 1
            let firstIssue = nextIssue
            while nextIssue < issues.count && issues[nextIssue].row == index { nextIssue += 1 }
            switch fate(of: row, long: longCodes.isEmpty ? nil : longCodes[index], file: file, joins: joins) {
            case .kept:
                rows.kept += 1
                rows.warnings += nextIssue - firstIssue
                for i in firstIssue..<nextIssue { rejects.append(issues[i].issue) }
            case .rejected:
                rows.rejected += 1
                for i in firstIssue..<nextIssue { rejects.append(issues[i].issue) }
            case let .duplicate(first):
                // Its warnings go with its bytes: the duplicate is the one thing reported.
                rows.rejected += 1
                rejects.append(RowIssue(.rejected, file: part.file, line: row.line, field: "N-NUMBER", value: Self.nNumber(row.nNumber),
                                        reason: "duplicate N-number; first at \(files[first.file]):\(first.line)"))
                if rowStart > copied { try sink.write(encoded: output, range: copied..<rowStart) }
                copied = row.end
            }
            rowStart = row.end
        }
        if rowStart > copied { try sink.write(encoded: output, range: copied..<rowStart) }
    }

    /// The fate of `row` (with `long`, its entry in the part's `longCodes` if it has one), of
    /// the file at index `file`; a kept row is recorded as seen and counted.
    private mutating func fate(of row: MasterPart.Row, long: (model: String, engine: String)?, file: Int, joins: Joins) -> Fate {
        guard row.flags & MasterPart.Row.kept != 0 else { return .rejected }
        if let first = seen[row.nNumber] { return .duplicate(first: first) }
        seen[row.nNumber] = (file, row.line)
        let orphans = Self.orphans(row, long: long, joins: joins)
        if orphans.withoutModel { withoutModel += 1 }
        if orphans.withoutEngine { withoutEngine += 1 }
        if row.flags & MasterPart.Row.hasModeS != 0 { withModeS += 1 }
        return .kept
    }

    /// Whether a kept row names a model code, and a non-blank engine code, missing from the
    /// reference files.
    private static func orphans(_ row: MasterPart.Row, long: (model: String, engine: String)?,
                                joins: Joins) -> (withoutModel: Bool, withoutEngine: Bool) {
        if let long {
            return (!joins.models.contains(long.model), !long.engine.isEmpty && !joins.engines.contains(long.engine))
        }
        return (!joins.models.contains(packed: row.modelCode), row.engineCode != 0 && !joins.engines.contains(packed: row.engineCode))
    }

    /// The N-number of a packed key, for messages.
    static func nNumber(_ key: UInt64) -> String {
        var bytes: [UInt8] = []
        for shift in stride(from: 56, through: 0, by: -8) {
            let byte = UInt8(truncatingIfNeeded: key >> UInt64(shift))
            if byte != 0 { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
