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
public final class AircraftBundle: Sendable {
    typealias S = AircraftSchema

    public let path: String
    let file: ArtifactFile
    let strings: StringPool
    let models: RowTable<S.ModelColumn>
    let manufacturerRows: RowTable<S.ManufacturerColumn>
    let manufacturerModels: RowTable<S.ManufacturerModelColumn>
    let engines: RowTable<S.EngineColumn>
    let registrations: RowTable<S.RegistrationColumn>
    let modeS: RowTable<S.ModeSColumn>
    let codeNames: [String: [String: String]]

    /// Opens and checks the artifact at `path`.
    ///
    /// `.full` verification (the default) checks every section's CRC-32; `.headerOnly` checks
    /// the header and section table, for start-up paths where the file is known good.
    public init(path: String, verification: ArtifactFile.Verification = .full) throws(FieldGuideError) {
        self.path = path
        do {
            file = try ArtifactFile(path: path, expectedKind: S.kind, verification: verification)
            strings = try StringPool(file.section(S.Section.strings), path: path)
            models = try RowTable(file.section(S.Section.models), layout: .init(), tag: S.Section.models, path: path)
            manufacturerRows = try RowTable(file.section(S.Section.manufacturers), layout: .init(), tag: S.Section.manufacturers, path: path)
            manufacturerModels = try RowTable(file.section(S.Section.manufacturerModels), layout: .init(), tag: S.Section.manufacturerModels, path: path)
            engines = try RowTable(file.section(S.Section.engines), layout: .init(), tag: S.Section.engines, path: path)
            registrations = try RowTable(file.section(S.Section.registrations), layout: .init(), tag: S.Section.registrations, path: path)
            modeS = try RowTable(file.section(S.Section.modeS), layout: .init(), tag: S.Section.modeS, path: path)
            let codes = try RowTable<S.CodeColumn>(file.section(S.Section.codes), layout: .init(), tag: S.Section.codes, path: path)
            var names: [String: [String: String]] = [:]
            for row in 0..<codes.count {
                names[strings.string(codes.value(row, .table)), default: [:]][strings.string(codes.value(row, .code))] =
                    strings.string(codes.value(row, .name))
            }
            codeNames = names
        } catch {
            throw FieldGuideError(error)
        }
    }

    /// The section table, as stored.
    public var sections: [SectionInfo] { file.sections }

    /// Format version of the file (`major.minor`).
    public var formatVersion: String { "\(file.majorVersion).\(file.minorVersion)" }

    public var modelCount: Int { models.count }
    public var registrationCount: Int { registrations.count }
    public var engineCount: Int { engines.count }
    public var manufacturerCount: Int { manufacturerRows.count }

    // MARK: Lookups

    /// The model with ACFTREF code `code` (`"0020901"`); surrounding spaces are ignored.
    public func model(code: String) -> ModelRecord? {
        guard let id = strings.id(of: code.trimmingCharacters(in: .whitespaces)) else { return nil }
        return models.find(.code, id).map { ModelRecord(bundle: self, row: $0) }
    }

    /// Manufacturers whose name starts with `prefix`, case- and diacritic-insensitively,
    /// in name order, each with its models.
    public func manufacturers(prefix: String, limit: Int = 100) -> [ManufacturerRecord] {
        let key = NameFolding.fold(prefix.trimmingCharacters(in: .whitespaces))
        var key8 = Array(key.utf8)
        let start = key8.withUnsafeMutableBytes { keyBytes -> Int in
            var low = 0, high = manufacturerRows.count
            while low < high {
                let mid = (low + high) / 2
                if compare(strings.bytes(manufacturerRows.value(mid, .foldedName)), UnsafeRawBufferPointer(keyBytes)) < 0 {
                    low = mid + 1
                } else {
                    high = mid
                }
            }
            return low
        }
        var result: [ManufacturerRecord] = []
        var row = start
        while row < manufacturerRows.count, result.count < limit {
            let name = strings.bytes(manufacturerRows.value(row, .foldedName))
            guard name.count >= key8.count, key8.withUnsafeBytes({ compare(UnsafeRawBufferPointer(rebasing: name[0..<key8.count]), $0) == 0 }) else {
                break
            }
            result.append(ManufacturerRecord(bundle: self, row: row))
            row += 1
        }
        key8.removeAll()
        return result
    }

    /// The registration for an N-number: `N12345`, `n12345` and `12345` all work.
    public func aircraft(registration: String) -> RegistrationRecord? {
        guard let nNumber = Self.normalizedRegistration(registration), let id = strings.id(of: nNumber) else { return nil }
        return registrations.find(.nNumber, id).map { RegistrationRecord(bundle: self, row: $0) }
    }

    /// The registration whose transponder has this ICAO 24-bit address (`"AC6CD2"`, case-insensitive).
    public func aircraft(modeSHex: String) -> RegistrationRecord? {
        var text = modeSHex.trimmingCharacters(in: .whitespaces)
        if text.lowercased().hasPrefix("0x") { text.removeFirst(2) }
        guard !text.isEmpty, text.count <= 6, let address = UInt32(text, radix: 16) else { return nil }
        guard let index = modeS.find(.address, address) else { return nil }
        let row = Int(modeS.value(index, .registrationRow))
        return row < registrations.count ? RegistrationRecord(bundle: self, row: row) : nil
    }

    /// The engine with ENGINE code `code` (`"17020"`).
    public func engine(code: String) -> EngineRecord? {
        guard let id = strings.id(of: code.trimmingCharacters(in: .whitespaces)) else { return nil }
        return engines.find(.code, id).map { EngineRecord(bundle: self, row: $0) }
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
        var mark = text.trimmingCharacters(in: .whitespaces).uppercased().replacingOccurrences(of: "-", with: "")
        if mark.hasPrefix("N") { mark.removeFirst() }
        guard (1...5).contains(mark.count), mark.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isLetter) }) else { return nil }
        return "N" + mark
    }

    // MARK: Internals

    func string(_ id: UInt32) -> String { strings.string(id) }

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
