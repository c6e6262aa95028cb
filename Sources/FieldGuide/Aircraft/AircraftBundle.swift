import FieldGuideArtifact
import Foundation

/// The aircraft artifact, memory-mapped: look up models, manufacturers, registrations,
/// Mode S addresses and engines without decoding anything you do not read.
///
/// ```swift
/// let bundle = try AircraftBundle(path: "output/aircraft.fgb")
/// if let aircraft = bundle.aircraft(registration: "n90") {
///     print(aircraft.nNumber, aircraft.model?.manufacturer ?? "?")   // N90 BOMBARDIER INC
/// }
/// ```
public final class AircraftBundle: FieldGuideBundle {
    package typealias S = AircraftSchema

    public let artifact: ArtifactFile
    package let strings: StringPool
    package let models: RowTable<S.ModelColumn>
    package let manufacturerRows: RowTable<S.ManufacturerColumn>
    package let manufacturerModels: RowTable<S.ManufacturerModelColumn>
    package let engines: RowTable<S.EngineColumn>
    package let registrations: RowTable<S.RegistrationColumn>
    package let modeS: RowTable<S.ModeSColumn>
    package let modelKeys: KeyTable
    package let engineKeys: KeyTable
    package let registrationKeys: KeyTable
    package let manufacturerKeys: KeyTable
    /// `RSMB` and `RBKT` (format 1.2, `RegistrationSummarySchema.swift`); nil in an older artifact.
    @usableFromInline package let summaries: RegistrationSummaryTable?
    /// `RTXR`, `MTXR` and `ETXR` (format 1.3, `TextRecordSchema.swift`); nil in an older artifact.
    package let textRecords: AircraftTextRecords?
    /// The code tables' values (interned: `CodeValue`) by table name and code text.
    let codesByText: [String: [String: CodeValue]]
    /// `codesByText` by table and code string id, decoded once at open: `.info` reads a dozen
    /// codes, and each then costs a hash probe and a copy of an interned value instead of
    /// decoding two strings and two dictionary lookups.
    let codeValues: CodeValueIndex
    /// Approved-operations lists, decoded once and shared (`SharedRecordCache`): a few dozen
    /// values that `RegistrationRecord.info` would otherwise split and decode every time.
    let operationLists: SharedRecordCache<[String]>
    /// The registry search sections; nil in an artifact written before them.
    package let search: RegistrySearchTables?
    /// DEREG and RESERVED (`AircraftStatusTables`); nil in an artifact without them.
    package let statusTables: AircraftStatusTables?
    /// Whose owner names and street addresses the artifact withholds (`PRIV`; `.none` when it
    /// has no such section).
    public let ownerRedaction: OwnerRedaction
    /// The registry's as-of date: the latest last-action date among its registrations (the
    /// `ASOF` section), nil in an artifact without one or with no dated registration.
    ///
    /// ```swift
    /// bundle.asOf?.description   // "2026-08-18"
    /// ```
    public let asOf: FieldDate?

    /// Opens and checks the artifact at `path`.
    ///
    /// `.full` verification (the default) checks every section's CRC-32; `.headerOnly` checks
    /// the header and section table, for start-up paths where the file is known good.
    public init(path: String, verification: ArtifactFile.Verification = .full) throws(FieldGuideError) {
        do {
            let opened = try OpenedArtifact(path: path, kind: S.kind, verification: verification)
            artifact = opened.file
            strings = try opened.strings(S.Section.strings)
            models = try opened.rows(S.Section.models)
            manufacturerRows = try opened.rows(S.Section.manufacturers)
            manufacturerModels = try opened.rows(S.Section.manufacturerModels)
            engines = try opened.rows(S.Section.engines)
            registrations = try opened.rows(S.Section.registrations)
            modeS = try opened.rows(S.Section.modeS)
            modelKeys = try opened.keys(S.Section.modelKeys, rows: models.count)
            engineKeys = try opened.keys(S.Section.engineKeys, rows: engines.count)
            registrationKeys = try opened.keys(S.Section.registrationKeys, rows: registrations.count)
            manufacturerKeys = try opened.keys(S.Section.manufacturerKeys, rows: manufacturerRows.count)
            summaries = try Self.summaryTable(in: opened, registrations: registrations.count)
            textRecords = try AircraftTextRecords(in: opened, registrations: registrations, models: models.count, engines: engines.count)
            let codes: RowTable<S.CodeColumn> = try opened.rows(S.Section.codes)
            var byText: [String: [String: CodeValue]] = [:]
            var values = CodeValueIndex(capacity: codes.count)
            for row in 0..<codes.count {
                let table = strings.string(codes.value(row, .table)), code = codes.value(row, .code)
                // Interned: copied into every record that reads the code, never counted (`CodeValue`);
                // its text immortal, as a caller's copies of it are (`ImmortalText`).
                let value = CodeValue.interned(code: ImmortalText.shared.text(strings.string(code)),
                                               name: ImmortalText.shared.text(strings.string(codes.value(row, .name))))
                byText[table, default: [:]][value.code] = value
                if let table = S.CodeTable(rawValue: table), code != 0 { values.insert(table, id: code, value) }
            }
            codesByText = byText
            codeValues = values
            operationLists = SharedRecordCache(limit: Self.operationListLimit)
            search = try RegistrySearchTables(opened)
            statusTables = try AircraftStatusTables(opened)
            ownerRedaction = try Self.ownerRedaction(in: opened)
            asOf = try Self.asOf(in: opened)
        } catch {
            throw FieldGuideError(error)
        }
    }


    public var modelCount: Int { models.count }
    public var registrationCount: Int { registrations.count }
    public var engineCount: Int { engines.count }
    public var manufacturerCount: Int { manufacturerRows.count }

    // MARK: Lookups

    /// The model with ACFTREF code `code` (`"0020901"`); surrounding spaces are ignored.
    public func model(code: String) -> ModelRecord? {
        find(Self.trimmedASCII(code, uppercase: true), keys: modelKeys) { strings.bytes(models.value($0, .code)) }
            .map { ModelRecord(bundle: self, row: $0) }
    }

    /// Manufacturers whose name starts with `prefix`, case- and diacritic-insensitively,
    /// in name order, each with its models.
    public func manufacturers(prefix: String, limit: Int = 100) -> [ManufacturerRecord] {
        let trimmed = Self.trimmedASCII(prefix, uppercase: true)
        // ASCII needs only upper-casing; anything else goes through the shared folding.
        let key = trimmed.allSatisfy { $0 < 0x80 } ? trimmed : Array(NameFolding.fold(String(decoding: trimmed, as: UTF8.self)).utf8)
        guard limit > 0 else { return [] }
        return key.withUnsafeBytes { key in
            // Packed keys order like the folded names, so the first candidate is a binary search away.
            let packed = PackedKey.pack(key)
            let first = manufacturerKeys.lowerBound(packed)
            if let end = packedPrefixEnd(key, packed: packed) {
                let count = min(max(0, end - first), limit)
                return (first..<first + count).map { ManufacturerRecord(bundle: self, row: $0) }
            }
            // A longer prefix (or one with a zero byte): the rows sharing its packed key hold
            // names before it too ("CESSNA AIRCRAFT" before "CESSNA WING"), so the first match is
            // found among them by name, then the names are compared until one does not match.
            var result: [ManufacturerRecord] = []
            var row = firstName(notBefore: key, from: first, to: manufacturerKeys.upperBound(packed))
            while row < manufacturerRows.count, result.count < limit {
                let name = strings.bytes(manufacturerRows.value(row, .foldedName))
                guard name.count >= key.count, compare(UnsafeRawBufferPointer(rebasing: name[0..<key.count]), key) == 0 else { break }
                result.append(ManufacturerRecord(bundle: self, row: row))
                row += 1
            }
            return result
        }
    }

    /// The first row in `first..<end` whose folded name is not less than `key`: the rows that
    /// share `key`'s packed key, in name order (a binary search by name).
    private func firstName(notBefore key: UnsafeRawBufferPointer, from first: Int, to end: Int) -> Int {
        var low = first, high = max(first, end)
        while low < high {
            let mid = low + (high - low) / 2
            if compare(strings.bytes(manufacturerRows.value(mid, .foldedName)), key) < 0 { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The end of the manufacturers whose folded name starts with `prefix`, found among the
    /// keys alone: nil when the keys cannot tell (a prefix of more than 8 bytes, or one with a
    /// zero byte, which packing cannot tell from its padding).
    ///
    /// Why: a name starts with a prefix of at most 8 bytes exactly when its packed key lies
    /// between the prefix's packed key and that key with every byte after the prefix 0xFF. So the
    /// matching rows are one more binary search away, and no name is read (a 4-letter prefix
    /// matches about 60 manufacturers, each a pool lookup and a compare before this).
    private func packedPrefixEnd(_ prefix: UnsafeRawBufferPointer, packed: UInt64) -> Int? {
        guard prefix.count <= 8, !prefix.contains(0) else { return nil }
        return manufacturerKeys.upperBound(packed | (prefix.count == 0 ? UInt64.max : (1 << (64 - 8 * UInt64(prefix.count))) &- 1))
    }

    /// The registration for an N-number: `N12345`, `n12345` and `12345` all work.
    ///
    /// Inlinable, with the record's summary fields (`RegistrationRecord+Summary.swift`): an app
    /// that looks a registration up and reads its summary fields runs them as one piece of code.
    @inlinable @inline(__always)
    public func aircraft(registration: String) -> RegistrationRecord? {
        guard let key = Self.registrationKey(registration) else { return nil }
        if let summaries {
            // One directory entry and a walk over the bucket's summaries, whose fields are read
            // next: `RegistrationSummarySchema`.
            return summaries.find(key.packed).map { RegistrationRecord(bundle: self, row: $0.row, summary: $0.start) }
        }
        return aircraft(registrationKey: key)
    }

    /// The registration for `key` through `RKEY` and the pool: an artifact without summaries
    /// (format 1.0 and 1.1).
    @usableFromInline
    func aircraft(registrationKey key: RegistrationKey) -> RegistrationRecord? {
        // The whole N-number is its packed key, so the stored one is checked without building bytes.
        var row = registrationKeys.lowerBound(key.packed)
        while row < registrationKeys.count, registrationKeys[row] == key.packed {
            let stored = strings.bytes(registrations.value(row, .nNumber))
            if stored.count == key.count, PackedKey.pack(stored) == key.packed { return RegistrationRecord(bundle: self, row: row) }
            row += 1
        }
        return nil
    }

    /// The registration whose transponder has this ICAO 24-bit address (`"AC6CD2"`, case-insensitive).
    public func aircraft(modeSHex: String) -> RegistrationRecord? {
        var hex = Self.trimmedASCII(modeSHex, uppercase: true)
        if hex.count > 2, hex[0] == UInt8(ascii: "0"), hex[1] == UInt8(ascii: "X") { hex.removeFirst(2) }
        guard (1...6).contains(hex.count) else { return nil }
        var address: UInt32 = 0
        for byte in hex {
            switch byte {
            case 0x30...0x39: address = address << 4 | UInt32(byte - 0x30)
            case 0x41...0x46: address = address << 4 | UInt32(byte - 0x41 + 10)
            default: return nil
            }
        }
        guard let index = modeS.find(.address, address) else { return nil }
        let row = Int(modeS.value(index, .registrationRow))
        return row < registrations.count ? RegistrationRecord(bundle: self, row: row) : nil
    }

    /// The engine with ENGINE code `code` (`"17020"`).
    public func engine(code: String) -> EngineRecord? {
        find(Self.trimmedASCII(code, uppercase: false), keys: engineKeys) { strings.bytes(engines.value($0, .code)) }
            .map { EngineRecord(bundle: self, row: $0) }
    }

    /// The display name of a code (`displayName(.aircraftType, "4")` → `"Fixed wing single engine"`).
    public func displayName(_ table: AircraftSchema.CodeTable, _ code: String) -> String? {
        codesByText[table.rawValue]?[code]?.name
    }

    /// A whole code table, sorted by code.
    public func codeTable(_ table: AircraftSchema.CodeTable) -> [CodeValue] {
        (codesByText[table.rawValue] ?? [:]).sorted { $0.key < $1.key }.map(\.value)
    }

    /// `N12345`, `n12345`, ` 12345 ` → `N12345`; nil when it cannot be an N-number.
    public static func normalizedRegistration(_ text: String) -> String? {
        guard let key = registrationKey(text) else { return nil }
        return key.inlineText ?? key.text
    }

    /// An N-number (`N` + one to five marks) as its `PackedKey`: at most 6 bytes, so the
    /// packed key is the whole N-number.
    @usableFromInline
    struct RegistrationKey {
        @usableFromInline let packed: UInt64
        /// Bytes in the N-number, `N` included (2...6).
        @usableFromInline let count: Int

        @usableFromInline
        init(packed: UInt64, count: Int) {
            self.packed = packed
            self.count = count
        }

        /// The N-number's bytes (`N4477`), for the tables keyed by whole bytes.
        var bytes: [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: packed >> (56 - 8 * $0)) } }
        /// The N-number as text.
        var text: String { String(decoding: bytes, as: UTF8.self) }

        /// Whether the N-number has the US form (`USModeS.isValid(nNumber:)`: a digit 1-9, up
        /// to four more digits, then up to two letters, not I or O), read from the packed bytes
        /// without making a string: `AircraftIdentifierKind` asks it of every identifier.
        var hasUSForm: Bool {
            var letters = 0
            for i in 1..<count {
                let byte = UInt8(truncatingIfNeeded: packed >> (56 - 8 * i))
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    guard letters == 0, i > 1 || byte != UInt8(ascii: "0") else { return false }
                } else {
                    guard i > 1, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z"), byte != UInt8(ascii: "I"), byte != UInt8(ascii: "O") else { return false }
                    letters += 1
                }
            }
            return letters <= 2
        }
    }

    /// The N-number of `text` (trimmed, upper-cased, dashes and a leading `N` dropped, then `N`
    /// put back), or nil when it cannot be one. The hot path of a lookup: no heap allocation.
    @inlinable @inline(__always)
    static func registrationKey(_ text: String) -> RegistrationKey? {
        if let key = inlineRegistrationKey(text) { return key }
        return registrationKey(spelled: text)
    }

    /// `registrationKey(_:)` of a string that is not a short canonical N-number stored inline.
    @usableFromInline
    static func registrationKey(spelled text: String) -> RegistrationKey? {
        if let key = text.utf8.withContiguousStorageIfAvailable(registrationKey(utf8:)) { return key }
        return Array(text.utf8).withUnsafeBufferPointer(registrationKey(utf8:))
    }

    private static func registrationKey(utf8 bytes: UnsafeBufferPointer<UInt8>) -> RegistrationKey? {
        if let key = canonicalRegistrationKey(bytes) { return key }
        func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        var start = 0, end = bytes.count
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        while start < end, isBlank(bytes[start]) { start += 1 }
        var packed = UInt64(UInt8(ascii: "N")), count = 1, isFirst = true
        for i in start..<end where bytes[i] != UInt8(ascii: "-") {
            var byte = bytes[i]
            if byte >= 0x61 && byte <= 0x7A { byte -= 0x20 }
            if isFirst {
                isFirst = false
                if byte == UInt8(ascii: "N") { continue }
            }
            guard count < 6, (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) else { return nil }
            packed = packed << 8 | UInt64(byte)
            count += 1
        }
        guard count >= 2 else { return nil }
        return RegistrationKey(packed: packed << (64 - 8 * count), count: count)
    }

    /// The key of an N-number already written as stored (`N` and one to five digits or capital
    /// letters), nil for any other spelling: the usual one, read in one pass without the
    /// trimming, dash and case handling of `registrationKey(utf8:)` (half its instructions).
    @inline(__always)
    private static func canonicalRegistrationKey(_ bytes: UnsafeBufferPointer<UInt8>) -> RegistrationKey? {
        guard bytes.count >= 2, bytes.count <= 6, bytes[0] == UInt8(ascii: "N") else { return nil }
        var packed = UInt64(UInt8(ascii: "N"))
        for byte in bytes[1...] {
            guard byte &- 0x30 < 10 || byte &- 0x41 < 26 else { return nil }
            packed = packed << 8 | UInt64(byte)
        }
        return RegistrationKey(packed: packed << (64 - 8 * bytes.count), count: bytes.count)
    }

    /// UTF-8 bytes of `text` without surrounding spaces and tabs, ASCII letters upper-cased if asked.
    static func trimmedASCII(_ text: String, uppercase: Bool) -> [UInt8] {
        var bytes = Array(text.utf8)
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        var start = 0
        while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        if start > 0 { bytes.removeFirst(start) }
        if uppercase {
            for i in bytes.indices where bytes[i] >= 0x61 && bytes[i] <= 0x7A { bytes[i] -= 0x20 }
        }
        return bytes
    }

    /// Binary search on packed keys, then an exact comparison of the stored string.
    private func find(_ key: [UInt8], keys: KeyTable, stored: (Int) -> UnsafeRawBufferPointer) -> Int? {
        key.withUnsafeBytes { key in
            let packed = PackedKey.pack(key)
            var row = keys.lowerBound(packed)
            while row < keys.count, keys[row] == packed {
                if compare(stored(row), key) == 0 { return row }
                row += 1
            }
            return nil
        }
    }

    // MARK: Internals

    /// The `PRIV` section's redaction, `.none` without one.
    private static func ownerRedaction(in opened: OpenedArtifact) throws(ArtifactError) -> OwnerRedaction {
        guard opened.has(S.Section.privacy) else { return .none }
        let table: RowTable<S.PrivacyColumn> = try opened.rows(S.Section.privacy, count: 1)
        return OwnerRedaction(withheldRegistrantTypes: table.value(0, .withheldRegistrantTypes))
    }

    /// The `ASOF` section's date, nil without one.
    private static func asOf(in opened: OpenedArtifact) throws(ArtifactError) -> FieldDate? {
        guard opened.has(S.Section.asOf) else { return nil }
        let table: RowTable<S.AsOfColumn> = try opened.rows(S.Section.asOf, count: 1)
        return FieldDate(stored: table.value(0, .date))
    }

    package func string(_ id: UInt32) -> String { strings.string(id) }

    /// Whether this bundle withholds the owner of a registration whose registrant type is
    /// string `registrantType` (`RegistrationRecord.ownerWithheld`).
    @inline(__always)
    func withholdsOwner(registrantType: UInt32) -> Bool {
        let type = strings.bytes(registrantType)
        return type.count == 1 && ownerRedaction.withholds(registrantTypeDigit: type[0])
    }

    /// Code `id` of `table` with its name: from `codeValues`, else decoded (a code the tables lack).
    @inline(__always)
    func code(_ table: AircraftSchema.CodeTable, _ id: UInt32) -> CodeValue? {
        guard id != 0 else { return nil }
        return codeValues.value(table, id: id) ?? unlistedCode(table, id)
    }

    private func unlistedCode(_ table: AircraftSchema.CodeTable, _ id: UInt32) -> CodeValue {
        let raw = strings.string(id)
        return codesByText[table.rawValue]?[raw] ?? CodeValue(code: raw, name: nil)
    }
}
