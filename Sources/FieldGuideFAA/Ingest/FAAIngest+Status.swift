import FieldGuideCore
import FieldGuideDiagnostics

/// DEREG and RESERVED: read on a thread of their own while MASTER is, through the same reader
/// as ACFTREF and ENGINE (`readFile`: header checked, BOM, CRLF, trailing comma, padding,
/// Latin-1 with a warning, the 64 KiB record bound), their rows normalized by
/// `FAAStatusNormalizer` into `deregistered.csv` and `reserved.csv`, their rejects and warnings
/// into the same rejects report, their rows into the same reject-share check.
///
/// Both are optional: a download without one writes no hand-off file for it, and removes the
/// one an earlier run left once its own outputs are committed (a run that fails leaves it).
extension FAAIngest {
    /// What the status thread read: the files' rejects and entries (complete up to an error),
    /// the outputs not yet committed, or the error.
    struct StatusRead {
        var rejects: RejectSpool
        var entries: [StageReport.Source] = []
        var outputs: [CSVFileSink] = []
        var error: (any Error)?
        /// Hand-off files of the status sources this download lacks.
        var absent: [String] = []
    }

    /// Reads DEREG then RESERVED, whichever the download has.
    func readStatusFiles(_ sources: FAASources, outputDirectory: String) -> StatusRead {
        var read = StatusRead(rejects: RejectSpool(directory: outputDirectory, name: NormalizedFAA.rejectsFile, header: false))
        do {
            if let dereg = sources.deregistered {
                let out = try CSVFileSink(path: outputDirectory + "/" + NormalizedFAAStatus.deregisteredFile,
                                          header: NormalizedFAAStatus.deregisteredHeader)
                read.entries.append(try readFile(dereg, kind: .deregistered, rejects: read.rejects) { record, file in
                    // Byte-level fast path for rows kept without a warning; the general path words the rest.
                    if try out.write({ StatusFastPath.deregistered(record, into: &$0) }) { return .kept([]) }
                    return try Self.write(FAAStatusNormalizer.deregistered(record, file: file), to: out)
                })
                read.outputs.append(out)
            } else {
                read.absent.append(NormalizedFAAStatus.deregisteredFile)
            }
            if let reserved = sources.reserved {
                let out = try CSVFileSink(path: outputDirectory + "/" + NormalizedFAAStatus.reservedFile,
                                          header: NormalizedFAAStatus.reservedHeader)
                // Packed 8-byte keys, as ACFTREF's and ENGINE's codes: a `[String: Int]` spent
                // most of each row's two lookups in its seeded hasher, on the stage's last thread.
                var first = FAAJoinKeys(expectedCount: 1 << 16)
                read.entries.append(try readFile(reserved, kind: .reserved, rejects: read.rejects) { record, file in
                    /// One reservation per N-number: a second row for one is refused.
                    func claim(_ nNumber: String) -> RowOutcome? {
                        guard let line = first.claim(nNumber, line: record.line) else { return nil }
                        return .rejected([RowIssue(.rejected, file: file, line: record.line, field: "N-NUMBER", value: nNumber,
                                                   reason: "duplicate N-number; first at line \(line)")])
                    }
                    // Byte-level fast path for rows kept without a warning; the general path words the rest.
                    if let nNumber = StatusFastPath.reservedNNumber(record) {
                        if let duplicate = claim(nNumber) { return duplicate }
                        try out.write { StatusFastPath.writeReserved(record, into: &$0) }
                        return .kept([])
                    }
                    let outcome = FAAStatusNormalizer.reserved(record, file: file)
                    if case let .kept(row, _) = outcome, let duplicate = claim(row[0]) { return duplicate }
                    return try Self.write(outcome, to: out)
                })
                read.outputs.append(out)
            } else {
                read.absent.append(NormalizedFAAStatus.reservedFile)
            }
        } catch {
            read.error = error
        }
        return read
    }

    /// Writes a kept row; the row's fate for `readFile`.
    private static func write(_ outcome: FAANormalizer.Outcome<[String]>, to out: CSVFileSink) throws -> RowOutcome {
        switch outcome {
        case let .kept(row, warnings):
            try out.write(row)
            return .kept(warnings)
        case let .rejected(issues):
            return .rejected(issues)
        }
    }
}

extension FAAIngest.Log {
    /// Takes the status files' rejects and entries after those read so far, and the hand-off
    /// files of absent sources as stale (removed when the run commits, never before: a run that
    /// fails keeps an earlier run's files whole); returns the outputs, or throws the status
    /// thread's error.
    mutating func add(_ read: FAAIngest.StatusRead) throws -> [CSVFileSink] {
        try rejects.append(contentsOf: read.rejects)
        sources += read.entries
        if let error = read.error { throw error }
        stale += read.absent
        return read.outputs
    }
}
