import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideCSV
import FieldGuideDiagnostics
import FieldGuideFAA
import FieldGuideWorkers

/// The status sections of the aircraft artifact (`AircraftStatusSchema`): DEREG's and
/// RESERVED's rows from `deregistered.csv` and `reserved.csv`, with a string pool of their own.
///
/// Built apart from the registrations (on a thread of their own in `AircraftEmit`), so they
/// never change the other sections' bytes. A hand-off without one of the files (an older
/// ingest, a download without DEREG or RESERVED) gives no section for it. Deterministic: rows
/// are sorted by N-number (string ids compare as their strings), DEREG's then by cancel date,
/// newest first, then file order.
///
/// With a `redaction`, DEREG rows of a withheld registrant type lose their owner name,
/// co-owner names and street lines, their ZIP cut to five digits, as MASTER's do; RESERVED
/// names no registrant type, so every reserving party's name and street lines are left out.
///
/// ```swift
/// let status = try AircraftStatusSections(handOff: checked, redaction: .none)
/// status.add(to: &artifact)
/// ```
struct AircraftStatusSections: Sendable {
    private typealias S = AircraftStatusSchema
    private typealias D = NormalizedFAAStatus.DeregisteredField
    private typealias R = NormalizedFAAStatus.ReservedField

    /// The hand-off files read here, hashed while parsed (`HandOff`'s `streamed`).
    static let files: Set<String> = [NormalizedFAAStatus.deregisteredFile, NormalizedFAAStatus.reservedFile]

    private(set) var sections: [(tag: FourCC, rows: Int, bytes: [UInt8])] = []
    private(set) var counts: [String: Int] = [:]

    init(handOff: HandOff, redaction: OwnerRedaction) throws {
        // RESERVED is read on a thread of its own while DEREG is read here, each into a pool of
        // its own, merged after (the merged pool is the one a single pool of both gives). With
        // DEREG, this stage's thread was the last `emit-aircraft` waited for. Each table and
        // pool is pre-sized from the rows the ingest kept, so neither regrows: a row of DEREG
        // brings about 2.6 distinct strings and 26 bytes of text, one of RESERVED (a name and
        // a street a reservation) 3.6 and 40 (measured on full-size files).
        let deregRows = handOff.expectedRows(fromSources: "DEREG", in: NormalizedFAAStatus.deregisteredFile, minimumRowBytes: D.allCases.count)
        let reservedRows = handOff.expectedRows(fromSources: "RESERVED", in: NormalizedFAAStatus.reservedFile, minimumRowBytes: R.allCases.count)
        let reservedPart = BackgroundTask { () throws -> (table: RowTableBuilder<S.ReservedColumn>, pool: (bytes: [UInt8], remap: [UInt32]))? in
            var pool = StringPoolBuilder(expectedStrings: reservedRows * 4, expectedBytes: reservedRows * 45)
            let table: RowTableBuilder<S.ReservedColumn>? = try Self.table(NormalizedFAAStatus.reservedFile, in: handOff, expectedRows: reservedRows,
                                                                         read: NormalizedFAAStatus.readReservedRecords) { record, table in
                try Self.addReserved(record, to: &table, pool: &pool, redaction: redaction)
            }
            return table.map { ($0, pool.finishReleasingTables()) }
        }
        var pool = StringPoolBuilder(expectedStrings: deregRows * 3, expectedBytes: deregRows * 30)
        var dereg: RowTableBuilder<S.DeregisteredColumn>?
        do {
            dereg = try Self.table(NormalizedFAAStatus.deregisteredFile, in: handOff, expectedRows: deregRows,
                                   read: NormalizedFAAStatus.readDeregisteredRecords) { record, table in
                try Self.addDeregistered(record, to: &table, pool: &pool, redaction: redaction)
            }
        } catch {
            _ = reservedPart.wait()  // DEREG's error comes first, as when the files were read one after the other
            throw error
        }
        let deregPool = dereg.map { _ in pool.finishReleasingTables() }
        var reserved = try reservedPart.take()
        let pools = [deregPool, reserved?.pool].compactMap { $0 }
        guard !pools.isEmpty else { return }
        reserved?.pool = ([], [])
        let (poolBytes, remaps) = StringPoolBuilder.merge(pools)
        let stringCount = poolBytes.withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self).littleEndian) }
        sections.append((AircraftSchema.Section.statusStrings, stringCount, poolBytes))
        // Each table is taken out of its optional before it is changed: a copy left behind
        // shared its values, and the first write copied them all (DEREG's 33 MB at full size).
        if var table = dereg {
            dereg = nil
            table.remapStrings(remaps[0])
            // N-number, then cancel date newest first (an absent date last), then file order: stable.
            var keys = (0..<table.count).map { UInt64(table[$0, .nNumber]) << 32 | UInt64(UInt32.max - table[$0, .cancelDate]) }
            sections += Self.sorted(table, sortKeys: &keys, tags: (AircraftSchema.Section.deregistered, AircraftSchema.Section.deregisteredKeys), pool: poolBytes)
            counts["deregistered"] = table.count
        }
        if var table = reserved?.table {
            reserved = nil
            table.remapStrings(remaps[remaps.count - 1])
            var keys = (0..<table.count).map { UInt64(table[$0, .nNumber]) << 32 }
            sections += Self.sorted(table, sortKeys: &keys, tags: (AircraftSchema.Section.reserved, AircraftSchema.Section.reservedKeys), pool: poolBytes)
            counts["reserved"] = table.count
        }
    }

    /// The rows of hand-off file `name` (nil when the report lists none), each added by `add`
    /// to a table reserved for `expectedRows`; the file's SHA-256, taken while it was parsed,
    /// checked against the report's.
    private static func table<Column: RowColumn>(_ name: String, in handOff: HandOff, expectedRows: Int,
                                                 read: (String, (CSVRecord) throws -> Void) throws -> String,
                                                 add: @escaping (CSVRecord, inout RowTableBuilder<Column>) throws -> Void) throws -> RowTableBuilder<Column>? {
        guard handOff.report.output(named: name) != nil else { return nil }
        var table = RowTableBuilder<Column>()
        table.reserve(expectedRows)
        let sha256 = try read(handOff.path(name)) { try add($0, &table) }
        try handOff.verify(name, sha256: sha256)
        return table
    }

    /// Adds the sections to the artifact.
    func add(to artifact: inout ArtifactBuilder) {
        for section in sections { artifact.addSection(section.tag, rows: section.rows, bytes: section.bytes) }
    }

    /// The table's rows in `sortKeys` order (a stable sort), and the packed N-numbers parallel to them.
    private static func sorted<Column: RowColumn>(_ table: RowTableBuilder<Column>, sortKeys: inout [UInt64],
                                                  tags: (rows: FourCC, keys: FourCC), pool: [UInt8]) -> [(tag: FourCC, rows: Int, bytes: [UInt8])] {
        var order = [UInt32](0..<UInt32(table.count))
        RadixSort.sort(keys: &sortKeys, values: &order)
        let nNumber = Column.allCases[0]
        let keys: [UInt64] = pool.withUnsafeBytes { bytes in
            // The pool is alive for the closure: read it in place.
            guard let pool = try? StringPool(bytes, path: "DSTR", tag: FourCC("DSTR")) else { return [] }
            return order.map { row in PackedKey.pack(pool.bytes(table[Int(row), nNumber])) }
        }
        return [(tags.rows, table.count, RowTableBuilder.serialize([table], order: order)),
                (tags.keys, keys.count, KeyTable.serialize(keys))]
    }
}

extension AircraftStatusSections {
    private static let deregisteredText: [(D, S.DeregisteredColumn)] = [
        (.nNumber, .nNumber), (.serialNumber, .serialNumber), (.modelCode, .modelCode), (.status, .status),
        (.registrantType, .registrantType), (.name, .name), (.city, .city), (.state, .state), (.country, .country),
        (.exportCountry, .exportCountry),
    ]
    private static let deregisteredDates: [(D, S.DeregisteredColumn)] = [
        (.cancelDate, .cancelDate), (.airworthinessDate, .airworthinessDate), (.lastActionDate, .lastActionDate),
        (.certificateIssueDate, .certificateIssueDate),
    ]
    private static let reservedText: [(R, S.ReservedColumn)] = [
        (.nNumber, .nNumber), (.registrant, .registrant), (.street, .street), (.street2, .street2), (.city, .city),
        (.state, .state), (.zip, .zip), (.reservationType, .reservationType), (.changeNNumber, .changeNNumber),
    ]
    private static let reservedDates: [(R, S.ReservedColumn)] = [
        (.reserveDate, .reserveDate), (.expirationDate, .expirationDate), (.purgeDate, .purgeDate),
    ]

    /// One row of `deregistered.csv` into the table, its text interned.
    private static func addDeregistered(_ record: CSVRecord, to table: inout RowTableBuilder<S.DeregisteredColumn>,
                                        pool: inout StringPoolBuilder, redaction: OwnerRedaction) throws {
        let row = table.appendRow()
        try record.withUnsafeFields { fields in
            let type = fields[D.registrantType.rawValue]
            let withheld = type.count == 1 && redaction.withholds(registrantTypeDigit: type[0])
            intern(deregisteredText, of: fields, row: row, into: &table, pool: &pool) { column, bytes in
                withheld ? redacted(column, bytes) : bytes
            }
            for (field, column) in deregisteredDates {
                if let date = try number(fields[field.rawValue], record, file: NormalizedFAAStatus.deregisteredFile, field: "\(field)", skipping: UInt8(ascii: "-")) { table[row, column] = date }
            }
            if let hex = try number(fields[D.modeSHex.rawValue], record, file: NormalizedFAAStatus.deregisteredFile, field: "modeSHex", radix: 16) { table[row, .modeSHex] = hex }
            if let year = try number(fields[D.yearManufactured.rawValue], record, file: NormalizedFAAStatus.deregisteredFile, field: "yearManufactured") {
                table[row, .yearManufactured] = min(year, 65_534)
            }
        }
    }

    /// One row of `reserved.csv` into the table, its text interned.
    private static func addReserved(_ record: CSVRecord, to table: inout RowTableBuilder<S.ReservedColumn>,
                                    pool: inout StringPoolBuilder, redaction: OwnerRedaction) throws {
        let row = table.appendRow()
        try record.withUnsafeFields { fields in
            intern(reservedText, of: fields, row: row, into: &table, pool: &pool) { column, bytes in
                guard !redaction.isNone else { return bytes }
                switch column {
                case .registrant, .street, .street2: return UnsafeRawBufferPointer(start: nil, count: 0)
                case .zip: return fiveDigitZip(bytes)
                default: return bytes
                }
            }
            for (field, column) in reservedDates {
                if let date = try number(fields[field.rawValue], record, file: NormalizedFAAStatus.reservedFile, field: "\(field)", skipping: UInt8(ascii: "-")) { table[row, column] = date }
            }
        }
    }

    /// Interns a row's text `columns` (each field's bytes as `adjust` gives them) in one batch:
    /// on a pool of a million strings each lookup is a cache miss, and a batch lets them
    /// overlap (one at a time, the lookups were a fifth of `emit-aircraft`'s CPU time on
    /// full-size DEREG).
    private static func intern<Field: RawRepresentable<Int>, Column: RowColumn>(
        _ columns: [(Field, Column)], of fields: UnsafeCSVFields, row: Int, into table: inout RowTableBuilder<Column>,
        pool: inout StringPoolBuilder, adjust: (Column, UnsafeRawBufferPointer) -> UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UnsafeRawBufferPointer.self, capacity: columns.count) { strings in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: columns.count) { ids in
                for (i, (field, column)) in columns.enumerated() { strings[i] = adjust(column, fields[field.rawValue]) }
                pool.intern(UnsafeBufferPointer(strings), into: ids)
                for (i, (_, column)) in columns.enumerated() { table[row, column] = ids[i] }
            }
        }
    }

    /// A withheld owner's field: the name left out (street lines and co-owners are never stored).
    private static func redacted(_ column: S.DeregisteredColumn, _ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        column == .name ? UnsafeRawBufferPointer(start: nil, count: 0) : bytes
    }

    private static func fiveDigitZip(_ zip: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let digits = zip.prefix { $0 >= 0x30 && $0 <= 0x39 }.count
        return digits >= 5 ? UnsafeRawBufferPointer(rebasing: zip[0..<5]) : UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// A decimal (or hex) number of the hand-off, `skipping` a separator (the dashes of a date);
    /// nil when blank, a `badHandOff` error when it is not a number.
    /// `field` is worded only for the error: interpolating a column per row (reflection) was
    /// about 7% of `emit-aircraft`'s CPU time on DEREG-sized files.
    private static func number(_ bytes: UnsafeRawBufferPointer, _ record: CSVRecord, file: String, field: @autoclosure () -> String,
                               radix: UInt32 = 10, skipping separator: UInt8? = nil) throws -> UInt32? {
        if bytes.isEmpty { return nil }
        // Summed in 64 bits, where a 32-bit value times at most 16 plus a digit cannot overflow:
        // the bound (`UInt32.max` stays free, it means absent) is then one compare a digit, not
        // a division.
        var n: UInt64 = 0
        for byte in bytes where byte != separator {
            let digit: UInt32? = switch byte {
            case 0x30...0x39: UInt32(byte - 0x30)
            case 0x41...0x46: UInt32(byte - 0x41 + 10)
            default: nil
            }
            guard let digit, digit < radix else { throw notANumber(bytes, record, file: file, field: field()) }
            n = n * UInt64(radix) + UInt64(digit)
            guard n <= UInt64(UInt32.max - 1) else { throw notANumber(bytes, record, file: file, field: field()) }
        }
        return UInt32(n)
    }

    private static func notANumber(_ bytes: UnsafeRawBufferPointer, _ record: CSVRecord, file: String, field: String) -> LocatedError {
        LocatedError(.badHandOff, file: file, line: record.line,
                     message: "expected a number in column \(field), found \(String(decoding: bytes, as: UTF8.self))")
    }
}
