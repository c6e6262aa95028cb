import FieldGuideArtifact

/// The status sections of an aircraft artifact (`AircraftStatusSchema`: DEREG and RESERVED),
/// mapped. Each part is optional: an artifact written before them, or from a download without
/// DEREG or RESERVED, has none, and the bundle says so (`knowsDeregistered`, `knowsReserved`).
///
/// Row numbers come from binary searches over the key tables and are read through `RowTable`,
/// whose reads outside a table are absent values: a crafted file gives wrong text, never a bad read.
package struct AircraftStatusTables: Sendable {
    typealias S = AircraftStatusSchema
    /// `DSTR`: the status sections' own strings.
    let strings: StringPool
    let deregistered: RowTable<S.DeregisteredColumn>?
    let deregisteredKeys: KeyTable?
    let reserved: RowTable<S.ReservedColumn>?
    let reservedKeys: KeyTable?

    /// The status sections, or nil when the artifact has no `DSTR`.
    init?(_ opened: OpenedArtifact) throws(ArtifactError) {
        guard opened.has(AircraftSchema.Section.statusStrings) else { return nil }
        strings = try opened.strings(AircraftSchema.Section.statusStrings)
        func table<Column: RowColumn>(_ tag: FourCC, keys keyTag: FourCC) throws(ArtifactError) -> (RowTable<Column>, KeyTable)? {
            guard opened.has(tag) else { return nil }
            let rows: RowTable<Column> = try opened.rows(tag)
            return (rows, try opened.keys(keyTag, rows: rows.count))
        }
        let dereg: (RowTable<S.DeregisteredColumn>, KeyTable)? = try table(AircraftSchema.Section.deregistered, keys: AircraftSchema.Section.deregisteredKeys)
        let reserved: (RowTable<S.ReservedColumn>, KeyTable)? = try table(AircraftSchema.Section.reserved, keys: AircraftSchema.Section.reservedKeys)
        deregistered = dereg?.0
        deregisteredKeys = dereg?.1
        self.reserved = reserved?.0
        reservedKeys = reserved?.1
    }

    /// The rows of a key table whose N-number is `nNumber` (`N`-prefixed, upper case): at most
    /// 6 bytes, so the packed key is the whole N-number and equal keys are equal N-numbers.
    static func rows(of nNumber: [UInt8], in keys: KeyTable?) -> Range<Int> {
        guard let keys, nNumber.count <= 8 else { return 0..<0 }
        let key = PackedKey.pack(nNumber)
        let first = keys.lowerBound(key)
        var end = first
        while end < keys.count, keys[end] == key { end += 1 }
        return first..<end
    }
}

extension AircraftBundle {
    /// Whether the bundle holds DEREG (so an N-number absent from it was never deregistered).
    public var knowsDeregistered: Bool { statusTables?.deregistered != nil }
    /// Whether the bundle holds RESERVED.
    public var knowsReserved: Bool { statusTables?.reserved != nil }
    public var deregisteredCount: Int { statusTables?.deregistered?.count ?? 0 }
    public var reservedCount: Int { statusTables?.reserved?.count ?? 0 }

    /// Every DEREG record, by N-number, then cancel date (newest first), then file order (empty
    /// when the bundle holds no DEREG).
    ///
    /// ```swift
    /// for record in bundle.deregisteredRecords { print(record.nNumber, record.cancelDate?.description ?? "") }
    /// ```
    public var deregisteredRecords: LazyMapCollection<Range<Int>, DeregisteredRecord> {
        (0..<deregisteredCount).lazy.map { DeregisteredRecord(bundle: self, row: $0) }
    }

    /// Every RESERVED record, by N-number (empty when the bundle holds no RESERVED).
    public var reservedRecords: LazyMapCollection<Range<Int>, ReservedRecord> {
        (0..<reservedCount).lazy.map { ReservedRecord(bundle: self, row: $0) }
    }

    /// DEREG's records of an N-number (`N12345`, `n12345`, `12345`), newest cancellation first.
    public func deregistrations(of registration: String) -> [DeregisteredRecord] {
        guard let key = Self.registrationKey(registration) else { return [] }
        return AircraftStatusTables.rows(of: key.bytes, in: statusTables?.deregisteredKeys).map { DeregisteredRecord(bundle: self, row: $0) }
    }

    /// RESERVED's record of an N-number, if it is reserved.
    public func reservation(of registration: String) -> ReservedRecord? {
        guard let key = Self.registrationKey(registration) else { return nil }
        return AircraftStatusTables.rows(of: key.bytes, in: statusTables?.reservedKeys).first.map { ReservedRecord(bundle: self, row: $0) }
    }

    func statusString(_ id: UInt32) -> String { statusTables?.strings.string(id) ?? "" }

    func statusCode(_ table: AircraftSchema.CodeTable, _ id: UInt32) -> CodeValue? {
        let raw = statusString(id)
        return raw.isEmpty ? nil : codesByText[table.rawValue]?[raw] ?? CodeValue(code: raw, name: nil)
    }
}
