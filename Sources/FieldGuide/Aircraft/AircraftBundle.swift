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

    public let path: String
    package let file: ArtifactFile
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
    let codeNames: [String: [String: String]]
    /// The registry search sections; nil in an artifact written before them.
    package let search: RegistrySearchTables?
    /// DEREG and RESERVED (`AircraftStatusTables`); nil in an artifact without them.
    package let statusTables: AircraftStatusTables?
    /// Whose owner names and street addresses the artifact withholds (`PRIV`; `.none` when it
    /// has no such section).
    public let ownerRedaction: OwnerRedaction

    /// Opens and checks the artifact at `path`.
    ///
    /// `.full` verification (the default) checks every section's CRC-32; `.headerOnly` checks
    /// the header and section table, for start-up paths where the file is known good.
    public init(path: String, verification: ArtifactFile.Verification = .full) throws(FieldGuideError) {
        self.path = path
        do {
            let opened = try OpenedArtifact(path: path, kind: S.kind, strings: S.Section.strings, verification: verification)
            file = opened.file
            strings = opened.strings
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
            let codes: RowTable<S.CodeColumn> = try opened.rows(S.Section.codes)
            var names: [String: [String: String]] = [:]
            for row in 0..<codes.count {
                names[strings.string(codes.value(row, .table)), default: [:]][strings.string(codes.value(row, .code))] =
                    strings.string(codes.value(row, .name))
            }
            codeNames = names
            search = try RegistrySearchTables(file: file, verification: verification)
            statusTables = try AircraftStatusTables(file: file, verification: verification)
            ownerRedaction = try Self.ownerRedaction(in: file)
        } catch {
            throw FieldGuideError(error)
        }
    }

    public var artifact: ArtifactFile { file }

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
        var result: [ManufacturerRecord] = []
        key.withUnsafeBytes { key in
            // Packed keys order like the folded names, so the first candidate is a binary search away.
            var row = manufacturerKeys.lowerBound(PackedKey.pack(key))
            while row < manufacturerRows.count, result.count < limit {
                let name = strings.bytes(manufacturerRows.value(row, .foldedName))
                guard name.count >= key.count, compare(UnsafeRawBufferPointer(rebasing: name[0..<key.count]), key) == 0 else { break }
                result.append(ManufacturerRecord(bundle: self, row: row))
                row += 1
            }
        }
        return result
    }

    /// The registration for an N-number: `N12345`, `n12345` and `12345` all work.
    public func aircraft(registration: String) -> RegistrationRecord? {
        guard let nNumber = Self.registrationKey(registration) else { return nil }
        return find(nNumber, keys: registrationKeys) { strings.bytes(registrations.value($0, .nNumber)) }
            .map { RegistrationRecord(bundle: self, row: $0) }
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
        codeNames[table.rawValue]?[code]
    }

    /// A whole code table, sorted by code.
    public func codeTable(_ table: AircraftSchema.CodeTable) -> [CodeValue] {
        (codeNames[table.rawValue] ?? [:]).sorted { $0.key < $1.key }.map { CodeValue(code: $0.key, name: $0.value) }
    }

    /// `N12345`, `n12345`, ` 12345 ` → `N12345`; nil when it cannot be an N-number.
    public static func normalizedRegistration(_ text: String) -> String? {
        registrationKey(text).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The N-number's bytes (`N` + upper-cased mark), without Foundation: this is the hot path.
    static func registrationKey(_ text: String) -> [UInt8]? {
        var mark = trimmedASCII(text, uppercase: true)
        mark.removeAll { $0 == UInt8(ascii: "-") }
        if mark.first == UInt8(ascii: "N") { mark.removeFirst() }
        guard (1...5).contains(mark.count),
              mark.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) }) else { return nil }
        mark.insert(UInt8(ascii: "N"), at: 0)
        return mark
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
    private static func ownerRedaction(in file: ArtifactFile) throws(ArtifactError) -> OwnerRedaction {
        guard file.info(S.Section.privacy) != nil else { return .none }
        let table = try RowTable<S.PrivacyColumn>(file.section(S.Section.privacy), layout: .init(), tag: S.Section.privacy, path: file.path)
        guard table.count == 1 else {
            throw .malformedSection(path: file.path, section: S.Section.privacy.description, reason: "expected 1 row, found \(table.count)")
        }
        return OwnerRedaction(withheldRegistrantTypes: table.value(0, .withheldRegistrantTypes))
    }

    package func string(_ id: UInt32) -> String { strings.string(id) }

    func code(_ table: AircraftSchema.CodeTable, _ id: UInt32) -> CodeValue? {
        guard id != 0 else { return nil }
        let raw = strings.string(id)
        return CodeValue(code: raw, name: codeNames[table.rawValue]?[raw])
    }
}

/// A code with its display name (nil when the tables do not list it).
public struct CodeValue: Sendable, Hashable, Codable {
    public let code: String
    public let name: String?
}
