import FieldGuideCSV
import FieldGuideCore
import FieldGuideDiagnostics

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a run has read so far: counts, rejects (listed up to a bound per reason, all counted),
/// each source's rows. A failed run reports what it had.
struct EBDTally {
    var counts = BarChartCounts(dedup: .taxonBlocks)
    var rejects = RejectsReport()
    /// Findings per reason (`rejected.date`, `warning.noRegion`): all of them, listed or not.
    var reasons: [String: Int] = [:]
    var incompleteRows = 0
    var unapprovedRows = 0
    var sources: [StageReport.Source] = []
    let listedPerReason: Int

    init(dedup: BarChartCounts.Dedup, listedPerReason: Int) {
        counts = BarChartCounts(dedup: dedup)
        self.listedPerReason = listedPerReason
    }

    /// Counts a finding under `reason`; lists it while the reason has fewer than the bound.
    mutating func add(_ issue: RowIssue, reason: String) {
        let key = (issue.severity == .rejected ? "rejected." : "warning.") + reason
        let seen = reasons[key, default: 0]
        reasons[key] = seen + 1
        if seen < listedPerReason { rejects.append(issue) }
    }
}

/// Reads EBD and sampling-event files into an `EBDTally`, row by row, by the rules both
/// engines keep (see `EBDAggregation` for them in order).
///
/// Each file streams through libcsv on a second thread (`CSVPipeline`, tab separated, `"` is
/// data: the EBD is not quoted CSV) while this one counts, and is hashed as it streams. A line
/// longer than `maxLineBytes` stops the file before libcsv buffers it.
struct EBDReader {
    let level: EBDRegionLevel
    let maxLineBytes: Int

    /// Streams one file into `tally` and appends its source entry.
    func read(_ path: String, kind: EBDFileKind, into tally: inout EBDTally) throws {
        var columns: EBDColumns?
        var rows = StageReport.Rows()
        let maxLine = maxLineBytes
        // The line guard words the refusal; the parser's record bound follows `--max-line-bytes` too.
        var dialect = CSVDialect.tabSeparated
        dialect.maxRecordBytes = maxLine
        let digest = try CSVPipeline.run(dialect: dialect, file: path, produce: { feed in
            var digest = StreamingDigest()
            var guardLines = LineLengthGuard(limit: maxLine, file: path)
            try CSVReader.stream(fileAt: path) { chunk in
                try guardLines.check(chunk)
                digest.update(chunk)
                try feed(chunk)
            }
            return (digest.finalize(), digest.bytes)
        }) { record in
            guard let known = columns else {
                columns = try EBDColumns(header: record, kind: kind, level: level, file: path)
                return
            }
            rows.read += 1
            try row(record, columns: known, file: path, rows: &rows, tally: &tally)
        }
        guard columns != nil else {
            throw LocatedError(.empty, file: path, message: "expected the eBird \(kind.rawValue) header, found an empty file")
        }
        tally.sources.append(StageReport.Source(file: path, bytes: digest.1, sha256: digest.0, rows: rows))
    }

    /// One data row: rejected, skipped, or counted (a checklist, and a detection when approved).
    private func row(_ record: CSVRecord, columns: EBDColumns, file: String, rows: inout StageReport.Rows, tally: inout EBDTally) throws {
        func reject(_ field: String, _ value: String, _ reason: String, _ key: String) {
            rows.rejected += 1
            tally.add(RowIssue(.rejected, file: file, line: record.line, field: field, value: value, reason: reason), reason: key)
        }
        guard record.count == columns.fieldCount else {
            return reject("record", "\(record.count) fields", "expected \(columns.fieldCount) fields (the header's), found \(record.count)", "fields")
        }
        do {
            try record.withUnsafeFields { f throws in
                guard EBDFields.isOne(f[columns.complete]) else { tally.incompleteRows += 1; return }
                guard let period = EBDFields.period(ofDate: f[columns.date]) else {
                    return reject("OBSERVATION DATE", record[columns.date], "expected a calendar date YYYY-MM-DD", "date")
                }
                guard let checklist = checklistKey(f, columns) else {
                    let group = record[columns.group]
                    return group.isEmpty || EBDFields.checklistNumber(f[columns.group], letter: UInt8(ascii: "G")) != nil
                        ? reject("SAMPLING EVENT IDENTIFIER", record[columns.samplingEvent], "expected S and 1–11 digits", "checklist")
                        : reject("GROUP IDENTIFIER", group, "expected empty, or G and 1–11 digits", "checklist")
                }
                let approved = columns.kind == .observations && EBDFields.isOne(f[columns.approved])
                let order = approved ? EBDFields.taxonomicOrder(f[columns.taxonomicOrder]) : 0
                guard let order else {
                    return reject("TAXONOMIC ORDER", record[columns.taxonomicOrder], "expected 1–9 digits", "taxon")
                }
                if approved && !EBDFields.isCommonName(f[columns.commonName]) {
                    return reject("COMMON NAME", record[columns.commonName], "expected a name (UTF-8 text)", "taxon")
                }
                let code = f[columns.region]
                if code.isEmpty {
                    rows.warnings += 1
                    return tally.add(RowIssue(.warning, file: file, line: record.line, field: columns.regionColumn, value: "",
                                              reason: "no region at this level: the row is not counted"), reason: "noRegion")
                }
                guard EBDFields.isRegionCode(code) else {
                    return reject(columns.regionColumn, record[columns.region], "expected an eBird region code (letters, digits and -, up to 16)", "region")
                }
                let region = try tally.counts.region(code)
                let unit = try tally.counts.checklist(number: checklist.number, isGroup: checklist.isGroup, region: region, period: period)
                rows.kept += 1
                if approved {
                    let taxon = try tally.counts.taxon(f[columns.commonName], order: order)
                    try tally.counts.detection(unit: unit, region: region, period: period, taxon: taxon)
                } else if columns.kind == .observations {
                    tally.unapprovedRows += 1
                }
            }
        } catch var error as LocatedError {
            error.file = file
            error.line = record.line
            throw error
        }
    }

    /// The checklist a row counts under: its GROUP IDENTIFIER when it has one, else its
    /// SAMPLING EVENT IDENTIFIER (both must be well formed). Nil when one is not.
    private func checklistKey(_ f: UnsafeCSVFields, _ columns: EBDColumns) -> (number: UInt64, isGroup: Bool)? {
        guard let event = EBDFields.checklistNumber(f[columns.samplingEvent], letter: UInt8(ascii: "S")) else { return nil }
        let group = f[columns.group]
        if group.isEmpty { return (event, false) }
        return EBDFields.checklistNumber(group, letter: UInt8(ascii: "G")).map { ($0, true) }
    }
}

/// Refuses a line longer than the limit before its bytes reach libcsv (which would buffer it
/// whole): the documented bound on an EBD line.
struct LineLengthGuard {
    let limit: Int
    let file: String
    private var current = 0
    private var line = 1

    init(limit: Int, file: String) {
        self.limit = limit
        self.file = file
    }

    mutating func check(_ chunk: UnsafeRawBufferPointer) throws(LocatedError) {
        guard var base = chunk.baseAddress else { return }
        var remaining = chunk.count
        while remaining > 0 {
            guard let newline = memchr(base, 0x0A, remaining) else {
                current += remaining
                break
            }
            current += UnsafeRawPointer(newline) - base
            guard current <= limit else { break }
            let step = UnsafeRawPointer(newline) - base + 1
            base += step
            remaining -= step
            current = 0
            line += 1
        }
        if current > limit {
            throw LocatedError(.tooLarge, file: file, line: line,
                               message: "a line longer than \(limit) bytes (the most an EBD line may have): not an EBD file, or a broken one")
        }
    }
}
