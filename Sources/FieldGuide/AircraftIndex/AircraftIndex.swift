import FieldGuideArtifact
import FieldGuideDiagnostics
import Foundation

/// The manufacturer index (`aircraft-index.fgb`), memory-mapped: ACFTREF models by code,
/// manufacturers with their models, engines, ICAO type designators and the crosswalk between
/// designators and models, plus a search over all of them. Built without MASTER: no owner is in it.
///
/// Records are views that read a field when you ask for it, as in ``AircraftBundle``.
///
/// ```swift
/// let index = try AircraftIndex(path: "output/aircraft-index.fgb", verification: .headerOnly)
/// index.type(designator: "b738")?.name                  // "BOEING 737-800"
/// index.model(code: "2075816")?.model                   // "182P"
/// try index.search("Cirrus SR22").first?.title          // "SR22  CIRRUS SR-22"
/// ```
public final class AircraftIndex: FieldGuideBundle {
    package typealias S = AircraftIndexSchema

    public let artifact: ArtifactFile
    // Each table is stored as parallel columns: row i of every column is one record.
    /// Models (ACFTREF), by code.
    package let modelCodes, modelNames, modelDataSheets, modelDataHolders: TextColumn
    package let modelManufacturers: RowTable<S.U32Column>
    package let modelAttributes: RowTable<S.ModelColumn>
    /// Manufacturers, by folded name, with how many models each has.
    package let manufacturerNames: TextColumn
    package let manufacturerModelCounts: RowTable<S.U32Column>
    /// Engines (ENGINE), by code.
    package let engineCodes, engineManufacturers, engineModels: TextColumn
    package let engineAttributes: RowTable<S.EngineColumn>
    /// Code tables: (table, code, display name).
    package let codeTables, codeValues, codeNames: TextColumn
    /// ICAO type designators: designator, name, description (`L2J`), wake class.
    package let typeDesignators, typeNames, typeDescriptions, typeWakeClasses: TextColumn
    package let crosswalk: RowTable<S.CrosswalkColumn>
    package let crosswalkByModel: RowTable<S.U32Column>
    package let atoms: TextColumn
    package let atomPostings: RowTable<S.AtomColumn>
    package let atomsReversed: RowTable<S.U32Column>
    let postingBytes: MappedBytes
    var postings: UnsafeRawBufferPointer { postingBytes.bytes }

    /// Opens and checks the index at `path`.
    ///
    /// `.full` verification (the default) checks every section's CRC-32; `.headerOnly` checks
    /// the header, the section table and each section's shape (a few dozen microseconds), for
    /// an app's launch path: call ``verify()`` later.
    ///
    /// ```swift
    /// let index = try AircraftIndex(path: url.path, verification: .headerOnly)
    /// ```
    public init(path: String, verification: ArtifactFile.Verification = .full) throws(FieldGuideError) {
        do {
            let opened = try OpenedArtifact(path: path, kind: S.kind, verification: verification)
            artifact = opened.file
            modelCodes = try opened.text(S.Section.modelCodes)
            let models = modelCodes.count
            modelNames = try opened.text(S.Section.modelNames, count: models)
            modelDataSheets = try opened.text(S.Section.modelDataSheets, count: models)
            modelDataHolders = try opened.text(S.Section.modelDataHolders, count: models)
            modelManufacturers = try opened.rows(S.Section.modelManufacturers, count: models)
            modelAttributes = try opened.rows(S.Section.modelAttributes, count: models)
            manufacturerNames = try opened.text(S.Section.manufacturerNames)
            manufacturerModelCounts = try opened.rows(S.Section.manufacturerModelCounts, count: manufacturerNames.count)
            engineCodes = try opened.text(S.Section.engineCodes)
            engineManufacturers = try opened.text(S.Section.engineManufacturers, count: engineCodes.count)
            engineModels = try opened.text(S.Section.engineModels, count: engineCodes.count)
            engineAttributes = try opened.rows(S.Section.engineAttributes, count: engineCodes.count)
            codeTables = try opened.text(S.Section.codeTables)
            codeValues = try opened.text(S.Section.codeValues, count: codeTables.count)
            codeNames = try opened.text(S.Section.codeNames, count: codeTables.count)
            typeDesignators = try opened.text(S.Section.typeDesignators)
            typeNames = try opened.text(S.Section.typeNames, count: typeDesignators.count)
            typeDescriptions = try opened.text(S.Section.typeDescriptions, count: typeDesignators.count)
            typeWakeClasses = try opened.text(S.Section.typeWakeClasses, count: typeDesignators.count)
            crosswalk = try opened.rows(S.Section.crosswalk)
            crosswalkByModel = try opened.rows(S.Section.crosswalkByModel, count: crosswalk.count)
            atoms = try opened.text(S.Section.searchAtoms)
            atomPostings = try opened.rows(S.Section.searchAtomPostings, count: atoms.count)
            atomsReversed = try opened.rows(S.Section.searchAtomsReversed, count: atoms.count)
            postingBytes = MappedBytes(bytes: try opened.file.section(S.Section.searchPostings))
        } catch {
            throw FieldGuideError(error)
        }
    }


    public var modelCount: Int { modelCodes.count }
    public var manufacturerCount: Int { manufacturerNames.count }
    public var engineCount: Int { engineCodes.count }
    public var typeCount: Int { typeDesignators.count }
    /// Models the crosswalk gives a designator.
    public var crosswalkCount: Int { crosswalk.count }

    // MARK: Lookups

    /// The model with ACFTREF code `code` (`"2075816"`); surrounding spaces are ignored.
    public func model(code: String) -> IndexModel? {
        Self.withTrimmedUpper(code) { modelCodes.find($0) }.map { IndexModel(index: self, row: $0) }
    }

    /// The engine with ENGINE code `code` (`"17020"`).
    public func engine(code: String) -> IndexEngine? {
        Self.withTrimmedUpper(code) { engineCodes.find($0) }.map { IndexEngine(index: self, row: $0) }
    }

    /// The ICAO type designator `designator` (`"B738"`, case-insensitive).
    public func type(designator: String) -> TypeDesignator? {
        Self.withTrimmedUpper(designator) { typeDesignators.find($0) }.map { TypeDesignator(index: self, row: $0) }
    }

    /// The model at `row` in code order (`0..<modelCount`): for walking the whole table.
    public func model(at row: Int) -> IndexModel? { row >= 0 && row < modelCount ? IndexModel(index: self, row: row) : nil }

    /// The type at `row` in designator order (`0..<typeCount`).
    public func type(at row: Int) -> TypeDesignator? { row >= 0 && row < typeCount ? TypeDesignator(index: self, row: row) : nil }

    /// The manufacturer at `row` in name order (`0..<manufacturerCount`).
    public func manufacturer(at row: Int) -> IndexManufacturer? {
        row >= 0 && row < manufacturerCount ? IndexManufacturer(index: self, row: row) : nil
    }

    /// The designators nearest an unknown one (`B739X` → `B739`, …): for "did you mean".
    ///
    /// ```swift
    /// index.closestDesignators(to: "B37")   // ["B37M", "A37", "B17"] with the real ICAO list
    /// ```
    public func closestDesignators(to designator: String, count: Int = 3) -> [String] {
        let all = (0..<typeDesignators.count).map { typeDesignators.string($0) }
        return EditDistance.closest(to: designator.uppercased(), among: all, count: count)
    }

    /// Manufacturers whose name starts with `prefix`, case- and diacritic-insensitively, in
    /// name order.
    ///
    /// ```swift
    /// index.manufacturers(prefix: "cessna").map(\.name)   // ["CESSNA", …] with the real ACFTREF
    /// ```
    public func manufacturers(prefix: String, limit: Int = 100) -> [IndexManufacturer] {
        let key = Array(NameFolding.fold(prefix.trimmingCharacters(in: .whitespaces)).utf8)
        var low = 0, high = manufacturerNames.count
        while low < high {
            let mid = (low + high) / 2
            if foldedName(mid).lexicographicallyPrecedes(key) { low = mid + 1 } else { high = mid }
        }
        var result: [IndexManufacturer] = []
        while low < manufacturerNames.count, result.count < limit, foldedName(low).starts(with: key) {
            result.append(IndexManufacturer(index: self, row: low))
            low += 1
        }
        return result
    }

    /// The display name of a code (`displayName(.aircraftType, "4")` → `"Fixed wing single engine"`).
    public func displayName(_ table: AircraftSchema.CodeTable, _ code: String) -> String? {
        for row in 0..<codeTables.count where codeTables.string(row) == table.rawValue && codeValues.string(row) == code {
            let name = codeNames.string(row)
            return name.isEmpty ? nil : name
        }
        return nil
    }

    // MARK: Internals

    /// A manufacturer's name as the table is sorted (`NameFolding`; ASCII is only upper-cased).
    func foldedName(_ row: Int) -> [UInt8] {
        let bytes = manufacturerNames.bytes(row)
        if bytes.allSatisfy({ $0 < 0x80 }) { return bytes.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 } }
        return Array(NameFolding.fold(String(decoding: bytes, as: UTF8.self)).utf8)
    }

    /// The code-table row `row` as a code value (nil when absent).
    func code(row: UInt32) -> CodeValue? {
        guard row != UInt32(UInt16.max), Int(row) < codeValues.count else { return nil }
        let name = codeNames.string(Int(row))
        return CodeValue(code: codeValues.string(Int(row)), name: name.isEmpty ? nil : name)
    }

    /// `text` without surrounding spaces, ASCII upper-cased, as bytes for a lookup.
    static func withTrimmedUpper<R>(_ text: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let bytes = AircraftBundle.trimmedASCII(text, uppercase: true)
        return bytes.withUnsafeBytes(body)
    }
}

/// Bytes of a section, read-only and valid while the `ArtifactFile` that mapped them lives.
struct MappedBytes: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
}
