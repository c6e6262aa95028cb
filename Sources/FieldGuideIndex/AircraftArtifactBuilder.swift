import FieldGuideArtifact
import FieldGuideCSV
import FieldGuideFAA

/// Builds the aircraft artifact's sections from normalized FAA records.
///
/// Models are sorted by code, manufacturers by folded name, registrations by N-number and the
/// Mode S index by address; strings are pooled once; each keyed table gets a parallel section
/// of packed keys. The bytes depend only on the records, never on their arrival order.
///
/// Registrations are taken as `registrations.csv` records and interned from their bytes: the
/// 316K-row MASTER never becomes Swift strings here.
///
/// ```swift
/// var builder = AircraftArtifactBuilder(models: models, engines: engines)
/// try NormalizedFAA.readRegistrationRecords(path) { try builder.addRegistration($0) }
/// try builder.build().artifact.write(to: "output/aircraft.fgb")
/// ```
public struct AircraftArtifactBuilder {
    private typealias S = AircraftSchema
    private typealias F = NormalizedFAA.RegistrationField
    private var pool: StringPoolBuilder
    private var modelTable = RowTableBuilder<S.ModelColumn>()
    private var engineTable = RowTableBuilder<S.EngineColumn>()
    private var registrationTable = RowTableBuilder<S.RegistrationColumn>()
    /// Provisional string id of a code → row in the (already sorted) model / engine table.
    private var modelRowByCode: [UInt32: UInt32] = [:]
    private var engineRowByCode: [UInt32: UInt32] = [:]
    /// (class id << 32 | operation codes id) → id of the decoded operation names.
    private var operationNames: [UInt64: UInt32] = [:]
    private let sortedModels: [AircraftModel]
    private let modelKeys: [UInt64]
    private let engineKeys: [UInt64]
    private var registrationKeys: [UInt64] = []

    /// Statistics of the build, for the manifest.
    public private(set) var counts: [String: Int] = [:]

    /// `expectedRegistrations` pre-sizes the tables (the hand-off's row count, or an estimate).
    public init(models: [AircraftModel], engines: [EngineModel], expectedRegistrations: Int = 0) {
        // About six distinct strings and 60 bytes of text per registration, measured on full-size data.
        pool = StringPoolBuilder(expectedStrings: models.count * 3 + expectedRegistrations * 6,
                                 expectedBytes: models.count * 40 + expectedRegistrations * 64)
        registrationTable.reserve(expectedRegistrations)
        registrationKeys.reserveCapacity(expectedRegistrations)
        let models = models.sorted { $0.code.utf8.lexicographicallyPrecedes($1.code.utf8) }
        let engines = engines.sorted { $0.code.utf8.lexicographicallyPrecedes($1.code.utf8) }
        sortedModels = models
        modelKeys = models.map { PackedKey.pack($0.code) }
        engineKeys = engines.map { PackedKey.pack($0.code) }
        for m in models {
            let row = modelTable.appendRow()
            let code = pool.intern(m.code)
            modelRowByCode[code] = UInt32(row)
            modelTable[row, .code] = code
            modelTable[row, .manufacturer] = pool.intern(m.manufacturer)
            modelTable[row, .model] = pool.intern(m.model)
            modelTable[row, .aircraftType] = intern(m.aircraftType)
            modelTable[row, .engineType] = intern(m.engineType)
            modelTable[row, .category] = intern(m.category)
            modelTable[row, .builderCertification] = intern(m.builderCertification)
            if let n = m.engineCount { modelTable[row, .engineCount] = UInt32(min(n, 254)) }
            if let n = m.seatCount { modelTable[row, .seatCount] = UInt32(min(n, 65_534)) }
            modelTable[row, .weightClass] = intern(m.weightClass)
            if let n = m.cruiseSpeedMPH { modelTable[row, .cruiseSpeed] = UInt32(min(n, 65_534)) }
            modelTable[row, .typeCertificateDataSheet] = pool.intern(m.typeCertificateDataSheet)
            modelTable[row, .typeCertificateHolder] = pool.intern(m.typeCertificateHolder)
        }
        for e in engines {
            let row = engineTable.appendRow()
            let code = pool.intern(e.code)
            engineRowByCode[code] = UInt32(row)
            engineTable[row, .code] = code
            engineTable[row, .manufacturer] = pool.intern(e.manufacturer)
            engineTable[row, .model] = pool.intern(e.model)
            engineTable[row, .engineType] = intern(e.engineType)
            if let n = e.horsepower { engineTable[row, .horsepower] = UInt32(n) }
            if let n = e.thrustPounds { engineTable[row, .thrust] = UInt32(n) }
        }
        counts["models"] = models.count
        counts["engines"] = engines.count
        counts["registrationsWithoutModel"] = 0
        counts["registrationsWithoutEngine"] = 0
    }

    /// Adds one record of `registrations.csv` (the columns of `NormalizedFAA.RegistrationField`).
    public mutating func addRegistration(_ record: CSVRecord) throws {
        let row = registrationTable.appendRow()
        func text(_ field: F, _ column: S.RegistrationColumn) -> UInt32 {
            let id = record.withField(field.rawValue) { pool.intern(UnsafeRawBufferPointer($0)) }
            registrationTable[row, column] = id
            return id
        }
        func number(_ field: F, radix: UInt32 = 10) throws -> UInt32? {
            try record.withField(field.rawValue) { bytes in
                if bytes.isEmpty { return nil }
                var n: UInt32 = 0
                for byte in bytes {
                    guard let digit = hexDigit(byte), digit < radix, n <= (UInt32.max - digit) / radix else {
                        throw FAAError(.badHandOff, file: NormalizedFAA.registrationsFile, line: record.line,
                                       "expected a number in column \(field), found \(record[field.rawValue])")
                    }
                    n = n * radix + digit
                }
                return n
            }
        }
        func date(_ field: F, _ column: S.RegistrationColumn) throws {
            try record.withField(field.rawValue) { bytes in
                if bytes.isEmpty { return }
                var n: UInt32 = 0, digits = 0
                for byte in bytes where byte != UInt8(ascii: "-") {
                    guard byte >= 0x30, byte <= 0x39 else { digits = -1; break }
                    n = n * 10 + UInt32(byte - 0x30)
                    digits += 1
                }
                guard digits == 8 else {
                    throw FAAError(.badHandOff, file: NormalizedFAA.registrationsFile, line: record.line,
                                   "expected a date YYYY-MM-DD in column \(field), found \(record[field.rawValue])")
                }
                registrationTable[row, column] = n
            }
        }

        let nNumber = text(.nNumber, .nNumber)
        registrationKeys.append(record.withField(F.nNumber.rawValue) { PackedKey.pack(UnsafeRawBufferPointer($0)) })
        _ = nNumber
        _ = text(.serialNumber, .serialNumber)
        let modelCode = text(.modelCode, .modelCode)
        let engineCode = text(.engineCode, .engineCode)
        if let modelRow = modelRowByCode[modelCode] { registrationTable[row, .modelRow] = modelRow } else {
            counts["registrationsWithoutModel", default: 0] += 1
        }
        if engineCode != 0 {
            if let engineRow = engineRowByCode[engineCode] { registrationTable[row, .engineRow] = engineRow } else {
                counts["registrationsWithoutEngine", default: 0] += 1
            }
        }
        if let year = try number(.yearManufactured) { registrationTable[row, .yearManufactured] = min(year, 65_534) }
        for (field, column) in [(F.registrantType, S.RegistrationColumn.registrantType), (.name, .name), (.street, .street),
                                (.street2, .street2), (.city, .city), (.state, .state), (.zip, .zip), (.region, .region),
                                (.county, .county), (.country, .country), (.certification, .certification),
                                (.aircraftType, .aircraftType), (.engineType, .engineType), (.status, .status),
                                (.otherNames, .otherNames), (.uniqueID, .uniqueID), (.kitManufacturer, .kitManufacturer),
                                (.kitModel, .kitModel)] {
            _ = text(field, column)
        }
        try date(.lastActionDate, .lastActionDate)
        try date(.certificateIssueDate, .certificateIssueDate)
        try date(.airworthinessDate, .airworthinessDate)
        try date(.expirationDate, .expirationDate)
        let classCode = text(.airworthinessClass, .airworthinessClass)
        let operations = record.withField(F.approvedOperations.rawValue) { pool.intern(UnsafeRawBufferPointer($0)) }
        if operations != 0 {
            let key = UInt64(classCode) << 32 | UInt64(operations)
            if let names = operationNames[key] {
                registrationTable[row, .approvedOperations] = names
            } else {
                let classText = record[F.airworthinessClass.rawValue]
                let names = record[F.approvedOperations.rawValue].split(separator: "|").enumerated().map { position, code in
                    FAACodeTables.operationName(classCode: classText, code: String(code), position: position) ?? String(code)
                }.joined(separator: String(S.listSeparator))
                let id = pool.intern(names)
                operationNames[key] = id
                registrationTable[row, .approvedOperations] = id
            }
        }
        if let address = try number(.modeSHex, radix: 16) { registrationTable[row, .modeSHex] = address }
        registrationTable[row, .fractionalOwner] = record.withField(F.fractionalOwner.rawValue) { $0.first == UInt8(ascii: "Y") } ? 1 : 0
    }

    /// Sorts and pools everything into the artifact's sections (`serialize()` or `write(to:)` it).
    public consuming func build() -> (artifact: ArtifactBuilder, counts: [String: Int]) {
        // Manufacturers: group model rows by manufacturer name, sorted by folded name.
        var byManufacturer: [String: [Int]] = [:]
        for (row, model) in sortedModels.enumerated() { byManufacturer[model.manufacturer, default: []].append(row) }
        let folded = Dictionary(uniqueKeysWithValues: byManufacturer.keys.map { ($0, NameFolding.fold($0)) })
        let manufacturerNames = byManufacturer.keys.sorted {
            let a = folded[$0]!, b = folded[$1]!
            return a == b ? $0.utf8.lexicographicallyPrecedes($1.utf8) : a.utf8.lexicographicallyPrecedes(b.utf8)
        }
        var manufacturerTable = RowTableBuilder<S.ManufacturerColumn>()
        var manufacturerModels = RowTableBuilder<S.ManufacturerModelColumn>()
        var manufacturerKeys: [UInt64] = []
        for name in manufacturerNames {
            let rows = byManufacturer[name]!.sorted {
                let a = sortedModels[$0], b = sortedModels[$1]
                return a.model == b.model ? $0 < $1 : a.model.utf8.lexicographicallyPrecedes(b.model.utf8)
            }
            let first = UInt32(manufacturerModels.count)
            for modelRow in rows {
                let entry = manufacturerModels.appendRow()
                manufacturerModels[entry, .modelRow] = UInt32(modelRow)
            }
            let row = manufacturerTable.appendRow()
            manufacturerTable[row, .foldedName] = pool.intern(folded[name]!)
            manufacturerTable[row, .name] = pool.intern(name)
            manufacturerTable[row, .firstModel] = first
            manufacturerTable[row, .modelCount] = UInt32(rows.count)
            manufacturerKeys.append(PackedKey.pack(folded[name]!))
        }

        var codeTable = RowTableBuilder<S.CodeColumn>()
        for table in FAACodeTables.all {
            for entry in table.entries {
                let row = codeTable.appendRow()
                codeTable[row, .table] = pool.intern(table.id)
                codeTable[row, .code] = pool.intern(entry.code)
                codeTable[row, .name] = pool.intern(entry.name)
            }
        }

        let (poolBytes, remap) = pool.finish()
        pool = StringPoolBuilder()  // its tables are no longer needed: release them before serializing
        modelTable.remapStrings(remap)
        engineTable.remapStrings(remap)
        registrationTable.remapStrings(remap)
        manufacturerTable.remapStrings(remap)
        codeTable.remapStrings(remap)
        let newIndex = registrationTable.sort(by: [.nNumber])
        var sortedKeys = [UInt64](repeating: 0, count: registrationKeys.count)
        for (old, new) in newIndex.enumerated() { sortedKeys[new] = registrationKeys[old] }
        codeTable.sort(by: [.table, .code])

        var modeS = RowTableBuilder<S.ModeSColumn>()
        let noAddress = S.RegistrationColumn.modeSHex.kind.absent
        for row in 0..<registrationTable.count where registrationTable[row, .modeSHex] != noAddress {
            let entry = modeS.appendRow()
            modeS[entry, .address] = registrationTable[row, .modeSHex]
            modeS[entry, .registrationRow] = UInt32(row)
        }
        modeS.sort(by: [.address, .registrationRow])

        var artifact = ArtifactBuilder(kind: S.kind)
        artifact.addSection(S.Section.strings, rows: remap.count, bytes: poolBytes)
        artifact.addSection(S.Section.models, rows: modelTable.count, bytes: modelTable.serialize())
        artifact.addSection(S.Section.modelKeys, rows: modelKeys.count, bytes: KeyTable.serialize(modelKeys))
        artifact.addSection(S.Section.manufacturers, rows: manufacturerTable.count, bytes: manufacturerTable.serialize())
        artifact.addSection(S.Section.manufacturerKeys, rows: manufacturerKeys.count, bytes: KeyTable.serialize(manufacturerKeys))
        artifact.addSection(S.Section.manufacturerModels, rows: manufacturerModels.count, bytes: manufacturerModels.serialize())
        artifact.addSection(S.Section.engines, rows: engineTable.count, bytes: engineTable.serialize())
        artifact.addSection(S.Section.engineKeys, rows: engineKeys.count, bytes: KeyTable.serialize(engineKeys))
        artifact.addSection(S.Section.registrations, rows: registrationTable.count, bytes: registrationTable.serialize())
        let registrationCount = registrationTable.count
        registrationTable = RowTableBuilder()
        artifact.addSection(S.Section.registrationKeys, rows: sortedKeys.count, bytes: KeyTable.serialize(sortedKeys))
        artifact.addSection(S.Section.modeS, rows: modeS.count, bytes: modeS.serialize())
        artifact.addSection(S.Section.codes, rows: codeTable.count, bytes: codeTable.serialize())

        var counts = self.counts
        counts["registrations"] = registrationCount
        counts["manufacturers"] = manufacturerTable.count
        counts["modeSAddresses"] = modeS.count
        counts["strings"] = remap.count
        return (artifact, counts)
    }

    private mutating func intern(_ code: FAACode?) -> UInt32 {
        code.map { pool.intern($0.raw) } ?? 0
    }
}

@inline(__always)
private func hexDigit(_ byte: UInt8) -> UInt32? {
    switch byte {
    case 0x30...0x39: return UInt32(byte - 0x30)
    case 0x41...0x46: return UInt32(byte - 0x41 + 10)
    case 0x61...0x66: return UInt32(byte - 0x61 + 10)
    default: return nil
    }
}
