import FieldGuideCore
import FieldGuideDiagnostics

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
/// let rows = try merge.merge(read.parts, file: 0, joins: joins, into: sink, rejects: rejects)
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

    /// The most bytes of kept rows handed to the sink at once (`FAAIngest.Options.mergeStretch`).
    private let stretchSize: Int

    init(files: [String], stretchSize: Int = FAAIngest.Options().mergeStretch) {
        self.files = files
        self.stretchSize = max(1, stretchSize)
    }

    /// The join and Mode S counts of the rows kept so far.
    var counts: [String: Int] {
        ["registrationsWithoutModel": withoutModel, "registrationsWithoutEngine": withoutEngine, "registrationsWithModeS": withModeS]
    }

    /// Merges the parts of the file at index `file`, in order: the kept rows' bytes go to
    /// `sink`, every row's issues to `rejects`. Returns the file's row counts; throws a part's
    /// failure once the rows before it are merged.
    mutating func merge(_ parts: [MasterPart], file: Int, joins: Joins, into sink: CSVFileSink,
                        rejects: RejectSpool) throws -> StageReport.Rows {
        if seen.count == 0 { seen = PackedKeyTable(expectedCount: parts.map(\.rows.count).reduce(0, +)) }
        var rows = StageReport.Rows()
        for part in parts {
            try merge(part, file: file, joins: joins, into: sink, rows: &rows, rejects: rejects)
            if let failure = part.failure { throw failure }
        }
        return rows
    }

    private mutating func merge(_ part: MasterPart, file: Int, joins: Joins, into sink: CSVFileSink,
                                rows: inout StageReport.Rows, rejects: RejectSpool) throws {
        let output = part.takeOutput()
        let longCodes = part.longCodes
        // The part's bytes go out in stretches of kept rows: a duplicate's are skipped.
        var copied = 0, rowStart = 0
        // And its issues in stretches too: a duplicate's warnings are skipped.
        var issues = IssueStretch(part)
        for (index, row) in part.rows.enumerated() {
            rows.read += 1
            let rowIssues = issues.advance(past: index)
            switch fate(of: row, long: longCodes.isEmpty ? nil : longCodes[index], file: file, joins: joins) {
            case .kept:
                rows.kept += 1
                rows.warnings += rowIssues
            case .rejected:
                rows.rejected += 1
            case let .duplicate(first):
                // Its warnings go with its bytes: the duplicate is the one thing reported.
                rows.rejected += 1
                try issues.copy(into: rejects, skippingLast: true)
                try rejects.append(RowIssue(.rejected, file: part.file, line: row.line, field: "N-NUMBER", value: Self.nNumber(row.nNumber),
                                            reason: "duplicate N-number; first at \(files[first.file]):\(first.line)"))
                if rowStart > copied { try sink.write(encoded: output, range: copied..<rowStart) }
                copied = row.end
            }
            rowStart = row.end
            // Handed over a stretch at a time, not a part at a time, so the sink's threads write
            // and hash while this one decides the rows after: a part's whole stretch (60 MB at
            // full size) was hashed after the last row's fate, 0.04 s on one core at the stage's end.
            if rowStart - copied >= stretchSize {
                try sink.write(encoded: output, range: copied..<rowStart)
                copied = rowStart
            }
        }
        if rowStart > copied { try sink.write(encoded: output, range: copied..<rowStart) }
        try issues.copy(into: rejects, skippingLast: false)
    }

    /// A part's issues not yet copied to the rejects report: they go in stretches, as its bytes do.
    private struct IssueStretch {
        let part: MasterPart
        /// The next issue (index into `part.issueEnds`), and where its report row starts.
        private var next = 0, position = 0
        /// The stretch: from `start` to `position`; its rows before the last hold `counts`, the
        /// last row's issues (from `lastStart`) `lastCounts`.
        private var start = 0, counts = RejectSpool.Counts()
        private var lastStart = 0, lastCounts = RejectSpool.Counts()

        init(_ part: MasterPart) { self.part = part }

        /// Adds the issues of row `row` to the stretch; returns how many it has.
        mutating func advance(past row: Int) -> Int {
            counts += lastCounts
            lastCounts = RejectSpool.Counts()
            lastStart = position
            let first = next, ends = part.issueEnds
            while next < ends.count && ends[next].row == row {
                ends[next].count(into: &lastCounts)
                position = ends[next].end
                next += 1
            }
            return next - first
        }

        /// Copies the stretch into `rejects` (without the last row's issues when `skippingLast`:
        /// a duplicate's), and starts the next after it.
        mutating func copy(into rejects: RejectSpool, skippingLast: Bool) throws(LocatedError) {
            if !skippingLast { counts += lastCounts }
            let end = skippingLast ? lastStart : position
            if end > start { try rejects.append(start..<end, of: part.issues, counts: counts) }
            start = position
            counts = RejectSpool.Counts()
            lastCounts = RejectSpool.Counts()
        }
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
