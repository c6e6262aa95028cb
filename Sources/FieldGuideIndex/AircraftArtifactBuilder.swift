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
    /// Provisional string id of a code → row in the (already sorted) model / engine table,
    /// `UInt32.max` for none. Codes are interned first, so their ids are small and dense.
    private var modelRowByCode: [UInt32] = []
    private var engineRowByCode: [UInt32] = []
    private var registrationsWithoutModel = 0
    private var registrationsWithoutEngine = 0
    /// (class id << 32 | operation codes id) → id of the decoded operation names.
    private var operationNames: [UInt64: UInt32] = [:]
    private let sortedModels: [AircraftModel]
    private let modelKeys: [UInt64]
    private let engineKeys: [UInt64]
    private var registrationKeys: [UInt64] = []

    /// Statistics of the build, for the manifest.
    public var counts: [String: Int] {
        var counts = baseCounts
        counts["registrationsWithoutModel"] = registrationsWithoutModel
        counts["registrationsWithoutEngine"] = registrationsWithoutEngine
        return counts
    }
    private var baseCounts: [String: Int] = [:]

    /// `expectedRegistrations` pre-sizes the tables (the hand-off's row count, or an estimate).
    public init(models: [AircraftModel], engines: [EngineModel], expectedRegistrations: Int = 0) {
        // About six distinct strings and 60 bytes of text per registration, measured on full-size data.
        pool = StringPoolBuilder(expectedStrings: models.count * 3 + expectedRegistrations * 6,
                                 expectedBytes: models.count * 40 + expectedRegistrations * 64)
        registrationTable.reserve(expectedRegistrations)
        registrationKeys.reserveCapacity(expectedRegistrations)
        let models = Self.sortedByCode(models, \.code)
        let engines = Self.sortedByCode(engines, \.code)
        sortedModels = models
        modelKeys = models.map { PackedKey.pack($0.code) }
        engineKeys = engines.map { PackedKey.pack($0.code) }
        for m in models {
            let row = modelTable.appendRow()
            let code = pool.intern(m.code)
            Self.set(&modelRowByCode, code, UInt32(row))
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
            Self.set(&engineRowByCode, code, UInt32(row))
            engineTable[row, .code] = code
            engineTable[row, .manufacturer] = pool.intern(e.manufacturer)
            engineTable[row, .model] = pool.intern(e.model)
            engineTable[row, .engineType] = intern(e.engineType)
            if let n = e.horsepower { engineTable[row, .horsepower] = UInt32(n) }
            if let n = e.thrustPounds { engineTable[row, .thrust] = UInt32(n) }
        }
        baseCounts["models"] = models.count
        baseCounts["engines"] = engines.count
    }

    /// `values` in byte order of their codes, equal codes in input order: packed 8-byte
    /// prefixes are compared first, whole codes only on a tie.
    private static func sortedByCode<T>(_ values: [T], _ code: KeyPath<T, String>) -> [T] {
        let packed = values.map { PackedKey.pack($0[keyPath: code]) }
        let order = values.indices.sorted { a, b in
            if packed[a] != packed[b] { return packed[a] < packed[b] }
            let x = values[a][keyPath: code].utf8, y = values[b][keyPath: code].utf8
            if x.elementsEqual(y) { return a < b }
            return x.lexicographicallyPrecedes(y)
        }
        return order.map { values[$0] }
    }

    private static func set(_ table: inout [UInt32], _ id: UInt32, _ row: UInt32) {
        if Int(id) >= table.count { table.append(contentsOf: repeatElement(UInt32.max, count: Int(id) + 1 - table.count)) }
        table[Int(id)] = row
    }

    /// The fields interned as they are, with their columns, in `registrations.csv` order; the
    /// approved operations come last (their column gets the decoded names instead).
    private static let internedFields: [(field: Int, column: S.RegistrationColumn)] = [
        (F.nNumber.rawValue, .nNumber), (F.serialNumber.rawValue, .serialNumber), (F.modelCode.rawValue, .modelCode),
        (F.engineCode.rawValue, .engineCode), (F.registrantType.rawValue, .registrantType), (F.name.rawValue, .name),
        (F.street.rawValue, .street), (F.street2.rawValue, .street2), (F.city.rawValue, .city), (F.state.rawValue, .state),
        (F.zip.rawValue, .zip), (F.region.rawValue, .region), (F.county.rawValue, .county), (F.country.rawValue, .country),
        (F.certification.rawValue, .certification), (F.airworthinessClass.rawValue, .airworthinessClass),
        (F.aircraftType.rawValue, .aircraftType), (F.engineType.rawValue, .engineType), (F.status.rawValue, .status),
        (F.otherNames.rawValue, .otherNames), (F.uniqueID.rawValue, .uniqueID), (F.kitManufacturer.rawValue, .kitManufacturer),
        (F.kitModel.rawValue, .kitModel), (F.approvedOperations.rawValue, .approvedOperations),
    ]
    private static let dateColumns: [(field: Int, column: S.RegistrationColumn)] = [
        (F.lastActionDate.rawValue, .lastActionDate), (F.certificateIssueDate.rawValue, .certificateIssueDate),
        (F.airworthinessDate.rawValue, .airworthinessDate), (F.expirationDate.rawValue, .expirationDate),
    ]

    /// Adds one record of `registrations.csv` (the columns of `NormalizedFAA.RegistrationField`).
    public mutating func addRegistration(_ record: CSVRecord) throws {
        let width = registrationTable.rowWidth
        try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: width) { memory in
            let row = registrationTable.rowBuffer(in: memory)
            try record.withUnsafeFields { fields in try fill(row, fields, record) }
            registrationTable.append(row)
        }
    }

    private mutating func fill(_ row: RowBuffer<S.RegistrationColumn>, _ fields: UnsafeCSVFields, _ record: CSVRecord) throws {
        func number(_ field: F, radix: UInt32 = 10) throws -> UInt32? {
            let bytes = fields[field.rawValue]
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

        // All text fields in one batch: on a pool of millions of strings their lookups are cache
        // misses, and the batch lets them overlap.
        let interned = Self.internedFields
        let ids = withUnsafeTemporaryAllocation(of: UnsafeRawBufferPointer.self, capacity: interned.count) { strings in
            for (i, entry) in interned.enumerated() { strings[i] = fields[entry.field] }
            return [UInt32](unsafeUninitializedCapacity: interned.count) { ids, initialized in
                pool.intern(UnsafeBufferPointer(strings), into: ids)
                initialized = interned.count
            }
        }
        for (i, entry) in interned.enumerated().dropLast() { row[entry.column] = ids[i] }
        registrationKeys.append(PackedKey.pack(fields[F.nNumber.rawValue]))
        let modelCode = row[.modelCode], engineCode = row[.engineCode]
        if Int(modelCode) < modelRowByCode.count, modelRowByCode[Int(modelCode)] != UInt32.max {
            row[.modelRow] = modelRowByCode[Int(modelCode)]
        } else {
            registrationsWithoutModel += 1
        }
        if engineCode != 0 {
            if Int(engineCode) < engineRowByCode.count, engineRowByCode[Int(engineCode)] != UInt32.max {
                row[.engineRow] = engineRowByCode[Int(engineCode)]
            } else {
                registrationsWithoutEngine += 1
            }
        }
        if let year = try number(.yearManufactured) { row[.yearManufactured] = min(year, 65_534) }
        for (field, column) in Self.dateColumns {
            let bytes = fields[field]
            if bytes.isEmpty { continue }
            var n: UInt32 = 0, digits = 0
            for byte in bytes where byte != UInt8(ascii: "-") {
                guard byte >= 0x30, byte <= 0x39 else { digits = -1; break }
                n = n &* 10 &+ UInt32(byte - 0x30)
                digits += 1
            }
            guard digits == 8 else {
                throw FAAError(.badHandOff, file: NormalizedFAA.registrationsFile, line: record.line,
                               "expected a date YYYY-MM-DD in column \(F(rawValue: field)!), found \(record[field])")
            }
            row[column] = n
        }
        let classCode = row[.airworthinessClass]
        let operations = ids[interned.count - 1]
        if operations != 0 {
            let key = UInt64(classCode) << 32 | UInt64(operations)
            if let names = operationNames[key] {
                row[.approvedOperations] = names
            } else {
                let classText = record[F.airworthinessClass.rawValue]
                let names = record[F.approvedOperations.rawValue].split(separator: "|").enumerated().map { position, code in
                    FAACodeTables.operationName(classCode: classText, code: String(code), position: position) ?? String(code)
                }.joined(separator: String(S.listSeparator))
                let id = pool.intern(names)
                operationNames[key] = id
                row[.approvedOperations] = id
            }
        }
        if let address = try number(.modeSHex, radix: 16) { row[.modeSHex] = address }
        row[.fractionalOwner] = fields[F.fractionalOwner.rawValue].first == UInt8(ascii: "Y") ? 1 : 0
    }

    /// Sorts and pools everything into the artifact's sections (`serialize()` or `write(to:)` it).
    public consuming func build() -> (artifact: ArtifactBuilder, counts: [String: Int]) {
        // Manufacturers: one per distinct name, with its folded name. They are ordered once the
        // pool is sorted, when comparing two final string ids compares the strings.
        var manufacturerIndex: [UInt32: Int] = [:]
        var manufacturers: [(name: UInt32, folded: UInt32, key: UInt64)] = []
        var manufacturerOfModel = [Int](repeating: 0, count: sortedModels.count)
        for (row, model) in sortedModels.enumerated() {
            let name = modelTable[row, .manufacturer]
            if let index = manufacturerIndex[name] {
                manufacturerOfModel[row] = index
            } else {
                let folded = NameFolding.fold(model.manufacturer)
                manufacturerIndex[name] = manufacturers.count
                manufacturerOfModel[row] = manufacturers.count
                manufacturers.append((name, pool.intern(folded), PackedKey.pack(folded)))
            }
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

        let (poolBytes, remap) = pool.finishReleasingTables()

        // Manufacturers by folded name, then name; each one's models by model name, then row.
        var manufacturerOrder = [UInt32](0..<UInt32(manufacturers.count))
        var manufacturerSortKeys = manufacturers.map { UInt64(remap[Int($0.folded)]) << 32 | UInt64(remap[Int($0.name)]) }
        RadixSort.sort(keys: &manufacturerSortKeys, values: &manufacturerOrder)
        var rank = [UInt32](repeating: 0, count: manufacturers.count)
        for (position, index) in manufacturerOrder.enumerated() { rank[Int(index)] = UInt32(position) }
        var modelOrder = [UInt32](0..<UInt32(sortedModels.count))
        var modelSortKeys = (0..<sortedModels.count).map { row in
            UInt64(rank[manufacturerOfModel[row]]) << 32 | UInt64(remap[Int(modelTable[row, .model])])
        }
        RadixSort.sort(keys: &modelSortKeys, values: &modelOrder)
        var manufacturerTable = RowTableBuilder<S.ManufacturerColumn>()
        var manufacturerModels = RowTableBuilder<S.ManufacturerModelColumn>()
        var manufacturerKeys: [UInt64] = []
        var next = 0
        for (position, index) in manufacturerOrder.enumerated() {
            let first = next
            while next < modelOrder.count && modelSortKeys[next] >> 32 == UInt64(position) {
                let entry = manufacturerModels.appendRow()
                manufacturerModels[entry, .modelRow] = modelOrder[next]
                next += 1
            }
            let manufacturer = manufacturers[Int(index)]
            let row = manufacturerTable.appendRow()
            manufacturerTable[row, .foldedName] = remap[Int(manufacturer.folded)]  // final ids: not remapped again
            manufacturerTable[row, .name] = remap[Int(manufacturer.name)]
            manufacturerTable[row, .firstModel] = UInt32(first)
            manufacturerTable[row, .modelCount] = UInt32(next - first)
            manufacturerKeys.append(manufacturer.key)
        }
        modelTable.remapStrings(remap)
        engineTable.remapStrings(remap)
        registrationTable.remapStrings(remap)
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
