import FieldGuideCSV

/// The common case of DEREG and RESERVED normalization, straight from field bytes to the bytes
/// of `deregistered.csv` and `reserved.csv`: no `String` per field, no `[String]` row.
///
/// DEREG is the largest file of a download (~290 MB against MASTER's ~190 MB); through the
/// general path it cost more CPU than MASTER's whole ingest. Like `MasterFastPath`, this takes
/// only records `FAAStatusNormalizer` would keep without a single warning, and writes exactly
/// the bytes its row and `CSVWriter` would; for anything else it writes nothing and the caller
/// takes the general path, which finds and words the issues. `StatusFastPathTests` holds the
/// two paths to the same output.
///
/// ```swift
/// if !StatusFastPath.deregistered(record, into: &writer) { /* FAAStatusNormalizer.deregistered */ }
/// if let nNumber = StatusFastPath.reservedNNumber(record) {
///     // duplicate check on `nNumber`, then:
///     StatusFastPath.writeReserved(record, into: &writer)
/// }
/// ```
enum StatusFastPath {
    private typealias Bytes = UnsafeRawBufferPointer
    private typealias M = MasterFastPath
    private static let deregisteredWidths = FAAStatusLayout.deregistered.map(\.width)
    private static let reservedWidths = FAAStatusLayout.reserved.map(\.width)
    private static var none: Bytes { Bytes(start: nil, count: 0) }

    /// Normalizes a DEREG record into `writer` (one CSV line); false, having written nothing,
    /// when the general path must take it.
    static func deregistered(_ record: CSVRecord, into writer: inout CSVWriter) -> Bool {
        record.withUnsafeFields { f in
            // Everything is checked before anything is written.
            guard M.isPlain(f, widths: deregisteredWidths) else { return false }
            let mark = M.trimmed(f[0]), year = M.trimmed(f[11])
            guard M.isValidMark(mark), year.allSatisfy(M.isDigit),
                  M.known(f[3], FAACodeTables.status), M.known(f[13], FAACodeTables.region),
                  M.known(f[19], FAACodeTables.registrantType),
                  let airworthiness = M.date(f[16]), let cancel = M.date(f[17]),
                  let lastAction = M.date(f[21]), let certificateIssue = M.date(f[22]),
                  let modeS = M.modeS(octal: M.trimmed(f[18]), hex: M.trimmed(f[37])) else { return false }
            withScratch { scratch, cursor in
                writer.writeField(prefixed(mark, scratch: scratch, cursor: &cursor))
                for i in 1...8 { writer.writeField(M.trimmed(f[i])) }
                writer.writeField(M.zip(M.trimmed(f[9]), scratch: scratch, cursor: &cursor))
                writer.writeField(M.trimmed(f[10]))
                writer.writeField(M.decimal(year, scratch: scratch, cursor: &cursor))
                for i in 12...15 { writer.writeField(M.trimmed(f[i])) }
                writer.writeField(M.format(airworthiness, scratch: scratch, cursor: &cursor))
                writer.writeField(M.format(cancel, scratch: scratch, cursor: &cursor))
                writer.writeField(modeS.map { M.hex6($0, scratch: scratch, cursor: &cursor) } ?? none)
                for i in 19...20 { writer.writeField(M.trimmed(f[i])) }
                writer.writeField(M.format(lastAction, scratch: scratch, cursor: &cursor))
                writer.writeField(M.format(certificateIssue, scratch: scratch, cursor: &cursor))
                for i in 23...26 { writer.writeField(M.trimmed(f[i])) }
                writer.writeField(M.zip(M.trimmed(f[27]), scratch: scratch, cursor: &cursor))
                for i in 28...29 { writer.writeField(M.trimmed(f[i])) }
                writer.writeField(joined(f, 30...34, scratch: scratch, cursor: &cursor))
                for i in 35...36 { writer.writeField(M.trimmed(f[i])) }
                writer.endRecord()
            }
            return true
        }
    }

    /// The `N`-prefixed N-number of a RESERVED record the fast path takes, else nil (the
    /// caller checks it is the first row for its N-number, then calls `writeReserved`).
    static func reservedNNumber(_ record: CSVRecord) -> String? {
        record.withUnsafeFields { f in
            guard M.isPlain(f, widths: reservedWidths) else { return nil }
            let mark = M.trimmed(f[0]), change = M.trimmed(f[10])
            guard M.isValidMark(mark), change.isEmpty || M.isValidMark(change),
                  M.known(f[8], FAACodeTables.reservationType),
                  M.date(f[7]) != nil, M.date(f[9]) != nil, M.date(f[11]) != nil else { return nil }
            return "N" + String(decoding: mark, as: UTF8.self)
        }
    }

    /// Writes the `reserved.csv` line of a record `reservedNNumber(_:)` took.
    static func writeReserved(_ record: CSVRecord, into writer: inout CSVWriter) {
        record.withUnsafeFields { f in
            withScratch { scratch, cursor in
                writer.writeField(prefixed(M.trimmed(f[0]), scratch: scratch, cursor: &cursor))
                for i in 1...5 { writer.writeField(M.trimmed(f[i])) }
                writer.writeField(M.zip(M.trimmed(f[6]), scratch: scratch, cursor: &cursor))
                writer.writeField(M.format(M.date(f[7])!, scratch: scratch, cursor: &cursor))
                writer.writeField(M.trimmed(f[8]))
                writer.writeField(M.format(M.date(f[9])!, scratch: scratch, cursor: &cursor))
                let change = M.trimmed(f[10])
                writer.writeField(change.isEmpty ? none : prefixed(change, scratch: scratch, cursor: &cursor))
                writer.writeField(M.format(M.date(f[11])!, scratch: scratch, cursor: &cursor))
                writer.endRecord()
            }
        }
    }

    /// A scratch buffer for the fields assembled from pieces (a row's fit in 512 bytes: the
    /// widest, the other names, is at most 254).
    private static func withScratch(_ body: (UnsafeMutableRawBufferPointer, inout Int) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { buffer in
            var cursor = 0
            body(UnsafeMutableRawBufferPointer(buffer), &cursor)
        }
    }

    /// `N` + `mark`, in the scratch buffer.
    private static func prefixed(_ mark: Bytes, scratch: UnsafeMutableRawBufferPointer, cursor: inout Int) -> Bytes {
        let start = cursor
        scratch[cursor] = UInt8(ascii: "N")
        (scratch.baseAddress! + cursor + 1).copyMemory(from: mark.baseAddress!, byteCount: mark.count)
        cursor += 1 + mark.count
        return Bytes(rebasing: scratch[start..<cursor])
    }

    /// The non-blank trimmed fields of `range` joined with `|`, in the scratch buffer.
    private static func joined(_ f: UnsafeCSVFields, _ range: ClosedRange<Int>, scratch: UnsafeMutableRawBufferPointer,
                               cursor: inout Int) -> Bytes {
        let start = cursor
        for i in range {
            let name = M.trimmed(f[i])
            if name.isEmpty { continue }
            if cursor > start { scratch[cursor] = UInt8(ascii: "|"); cursor += 1 }
            (scratch.baseAddress! + cursor).copyMemory(from: name.baseAddress!, byteCount: name.count)
            cursor += name.count
        }
        return Bytes(rebasing: scratch[start..<cursor])
    }
}
