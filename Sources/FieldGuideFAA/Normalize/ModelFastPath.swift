import FieldGuideCSV

/// The common case of ACFTREF normalization, straight from field bytes to `models.csv` bytes:
/// no `String` per field, no `AircraftModel`, no code-table dictionaries.
///
/// It accepts only records that `FAANormalizer.model` would keep without a single warning, and
/// writes exactly the bytes `NormalizedFAA.fields(_:)` and `CSVWriter` would. For anything else
/// (non-ASCII bytes, an unknown code, a number that is not digits, a shifted column …) `code`
/// returns nil and the caller takes the general path, which finds and words the issues.
/// `ModelFastPathTests` holds the two paths to the same output.
///
/// ```swift
/// if let code = ModelFastPath.code(record) {
///     // duplicate check on `code`, then:
///     ModelFastPath.write(record, into: &writer)
/// } else { /* FAANormalizer.model */ }
/// ```
enum ModelFastPath {
    private typealias Bytes = UnsafeRawBufferPointer
    private typealias M = MasterFastPath
    private static let widths = FAALayout.aircraftReference.map(\.width)
    /// The code tables of columns 3…6 (TYPE-ACFT, TYPE-ENG, AC-CAT, BUILD-CERT-IND).
    private static let codeTables = [FAACodeTables.aircraftType, FAACodeTables.engineType,
                                     FAACodeTables.aircraftCategory, FAACodeTables.builderCertification]

    /// The record's (trimmed) code when the fast path takes it, else nil.
    static func code(_ record: CSVRecord) -> String? {
        record.withUnsafeFields { f in
            guard M.isPlain(f, widths: widths) else { return nil }
            let code = M.trimmed(f[0])
            guard !code.isEmpty else { return nil }
            for (i, table) in codeTables.enumerated() where !M.known(f[3 + i], table) { return nil }
            for i in [7, 8, 10] where !M.trimmed(f[i]).allSatisfy(M.isDigit) { return nil }
            let weight = weightClass(f[9])
            guard weight.isEmpty || FAACodeTables.weightClass.contains(weight) else { return nil }
            return String(decoding: code, as: UTF8.self)
        }
    }

    /// Writes the `models.csv` line of a record `code(_:)` accepted.
    static func write(_ record: CSVRecord, into writer: inout CSVWriter) {
        record.withUnsafeFields { f in
            for i in 0...6 { writer.writeField(M.trimmed(f[i])) }
            writer.writeField(number(f[7]))
            writer.writeField(number(f[8]))
            writer.writeField(weightClass(f[9]))
            let speed = number(f[10])
            // `FAANormalizer.model`: a cruise speed of 0 is no speed.
            writer.writeField(speed.count == 1 && speed[0] == 0x30 ? Bytes(start: nil, count: 0) : speed)
            writer.writeField(M.trimmed(f[11]))
            writer.writeField(M.trimmed(f[12]))
            writer.endRecord()
        }
    }

    /// `FieldReader.integer` written back as `String(n)`: trimmed, leading zeros dropped.
    private static func number(_ field: Bytes) -> Bytes {
        var cursor = 0
        return M.decimal(M.trimmed(field), scratch: UnsafeMutableRawBufferPointer(start: nil, count: 0), cursor: &cursor)
    }

    /// `FAANormalizer.weightClass`: `CLASS 3` → `3` (trimmed again), anything else as it is.
    ///
    /// `CLASS ` is compared as two loads: `elementsEqual` of the field's prefix and the bytes
    /// in an array took about 185 instructions, twice an ACFTREF row (callgrind), and against a
    /// `String.UTF8View` before that about 390.
    private static func weightClass(_ field: Bytes) -> Bytes {
        let value = M.trimmed(field)
        guard value.count >= 6, let base = value.baseAddress,
              base.loadUnaligned(as: UInt32.self) == UInt32(littleEndian: 0x5341_4C43),  // "CLAS"
              base.loadUnaligned(fromByteOffset: 4, as: UInt16.self) == UInt16(littleEndian: 0x2053)  // "S "
        else { return value }
        return M.trimmed(Bytes(rebasing: value[6...]))
    }
}
